"""skpapk: rankers and per-group metrics for top-k recommendation with pAp@k."""

__version__ = "0.1.0"
