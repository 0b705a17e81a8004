"""Splitters for per-group (per-user) ranking data.

:class:`WithinGroupKFold` and :func:`within_group_split` keep every user in
every part (held-out items: the paper's MovieLens and Behance protocols).
For held-out users (the Citation protocol) use scikit-learn's
:class:`~sklearn.model_selection.GroupKFold` or
:class:`~sklearn.model_selection.GroupShuffleSplit`.
"""

from ._split import WithinGroupKFold, within_group_split

__all__ = ["WithinGroupKFold", "within_group_split"]
