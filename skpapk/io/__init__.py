"""Reading and writing ranking data and models.

Strict CSV files of ranking data, and model files that hold plain data
(JSON), never a pickle: loading one cannot run code. The public names are
imported on first use (PEP 562).
"""

from ..utils._lazy import attach as _attach

#: Public name -> the private module that defines it.
_LAZY = {
    "CSVFormatError": "._csv",
    "read_ranking_csv": "._ranking_csv",
    "SavedRanker": "._model",
    "load_ranker": "._model",
    "save_ranker": "._model",
}

__getattr__, __dir__, __all__ = _attach(__name__, _LAZY)
