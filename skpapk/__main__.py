"""``python -m skpapk``: the ``skpapk`` command-line tool (see :mod:`skpapk._cli`)."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
