"""Exception classes of kaptai.

Every error raised at the API boundary is one of these, so callers can catch
``KaptaiError`` and the command-line interface can print the message without a
traceback.
"""

__all__ = ["KaptaiError", "InvalidTileError", "InvalidHandError", "RulesError"]


class KaptaiError(ValueError):
    """Base class of every kaptai input error."""


class InvalidTileError(KaptaiError):
    """A token that is not a tile (unknown name, impossible pip pair, ambiguous name)."""


class InvalidHandError(KaptaiError):
    """A hand of the wrong size, or with more copies of a tile than the sets hold."""


class RulesError(KaptaiError):
    """An unknown option, preset or player count, or an option value out of range."""
