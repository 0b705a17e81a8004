"""``python -m skpapk``: the ``skpapk`` command-line tool (see :mod:`skpapk.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
