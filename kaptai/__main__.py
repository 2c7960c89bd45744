"""``python -m kaptai`` is the ``kaptai`` command."""
import sys

from kaptai.cli import main

sys.exit(main())
