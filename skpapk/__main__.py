"""``python -m skpapk``: the ``skpapk`` command-line tool (see :mod:`skpapk.cli`)."""

import sys

from .cli._main import console_main

if __name__ == "__main__":
    sys.exit(console_main())
