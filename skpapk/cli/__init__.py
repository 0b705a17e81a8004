"""The ``skpapk`` command-line tool: compare, fit, score and recommend on CSV files.

Run ``skpapk --help`` (or ``python -m skpapk --help``). Four commands:

- ``compare``: hold out a test split, tune every method by per-user
  cross-validation of micro-pAp@k (paper eq. 17), refit, print the test
  micro-pAp@k, prec@k and pAUC(0, k/n-] of every method beside a random
  ranking of the same users, and name the winner;
- ``fit``: tune and train one model on a CSV file and save it as JSON;
- ``score``: the metrics of a saved model on a labelled CSV file;
- ``recommend``: each group's top-k rows of a CSV file under a saved model.

The package is a thin layer over the library: ``_csv`` (the strict CSV
reader :func:`skpapk.io.read_ranking_csv`, its errors naming the
options, and which label is relevant), ``_files`` (the input and output
files checked before any work, and :func:`skpapk.io.save_ranker`'s files
with the columns and labels of the training file), ``_methods`` (the
registry of methods), ``_tuning`` (``GridSearchCV`` with per-user
splitters), ``_commands`` (``fit``, ``score``, ``recommend``), ``_compare``
and ``_main`` (the parser and ``main``), ``_output`` (progress, warnings,
tables).
"""

from ._main import main

__all__ = ["main"]
