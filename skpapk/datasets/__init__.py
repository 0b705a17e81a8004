"""Data sets of the pAp@k paper: its simulations and MovieLens 100K.

The MovieLens data is never shipped (its licence forbids redistribution):
:func:`load_movielens_100k` reads a file you give it or downloads the
official archive.
"""

from ._engagement import make_engagement_simulation
from ._movielens import load_movielens_100k
from ._samples_generator import make_margin_data, make_papk_simulation

__all__ = ["load_movielens_100k", "make_engagement_simulation", "make_margin_data",
           "make_papk_simulation"]
