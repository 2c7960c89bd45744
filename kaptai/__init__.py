"""kaptai: probability and odds for traditional Chinese tile and card games.

The flagship game is Kap Tai Shap (夾大十) and its two-player form Kap Shap
(夾十), in :mod:`kaptai.kts`.
"""

from kaptai._version import __version__
from kaptai.errors import InvalidHandError, InvalidTileError, KaptaiError, RulesError

__all__ = ["__version__", "KaptaiError", "InvalidTileError", "InvalidHandError", "RulesError"]
