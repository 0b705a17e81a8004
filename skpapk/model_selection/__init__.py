"""Splitters for per-group (per-user) ranking data.

:class:`WithinGroupKFold` and :func:`within_group_split` split the rows of
every user, label by label (held-out items: the paper's MovieLens and
Behance protocols); a user with too few rows of a label has none of them in
some parts (see each one's docstring).
For held-out users (the Citation protocol) use scikit-learn's
:class:`~sklearn.model_selection.GroupKFold` or
:class:`~sklearn.model_selection.GroupShuffleSplit`.
"""

from ._split import WithinGroupKFold, within_group_split

__all__ = ["WithinGroupKFold", "within_group_split"]
