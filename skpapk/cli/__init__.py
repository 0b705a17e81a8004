"""The ``skpapk`` command-line tool: compare, fit, score and recommend on CSV files.

Run ``skpapk --help`` (or ``python -m skpapk --help``). Four commands:
``compare`` (tune every method by per-user cross-validation of micro-pAp@k,
paper eq. 17, and compare them on a held-out test part), ``fit`` (tune and
save one model as JSON), ``score`` (a saved model's metrics on a labelled
file) and ``recommend`` (each group's top-k rows under a saved model).
"""

from ._main import main

__all__ = ["main"]
