"""Warnings and errors of skpapk (as :mod:`sklearn.exceptions` holds scikit-learn's)."""

__all__ = ["MissingGroupsWarning", "WorkerLostError"]


class MissingGroupsWarning(UserWarning):
    """A ranker got no ``groups`` where its rows most likely span several groups.

    Raised by the rankers' ``fit``, ``partial_fit`` and ``score`` when
    ``groups=None`` (every row in one list) is most likely a mistake:

    - inside a scikit-learn model-selection routine
      (:class:`~sklearn.model_selection.GridSearchCV`,
      :func:`~sklearn.model_selection.cross_validate`,
      :class:`~sklearn.feature_selection.RFECV`, ...) while metadata
      routing is off: scikit-learn then gives ``groups`` to the splitter only,
      so each candidate is fitted on all its training rows as one group and
      each test fold is scored as one list; the search can pick a worse model
      and nothing else says so. The fix is
      ``sklearn.set_config(enable_metadata_routing=True)``;
    - in ``score`` of a ranker fitted on several groups (or of a model
      saved from one): the rows are scored as one list, not per group
      (micro-pAp@k). The fix is to pass ``groups``; to a
      :class:`~sklearn.pipeline.Pipeline`'s ``score``, with metadata routing
      on (with routing off, ``Pipeline.score`` gives its last step no
      ``groups``, even when given some), or to a fitted search's own
      ``score``;
    - in ``fit`` on more than 10,000 rows outside a model-selection
      routine: one list of that many rows is most likely a forgotten
      ``groups=``;
      ``groups=np.zeros(len(X))`` says that the rows are one list.

    With ``n_jobs`` greater than 1, the warnings of the folds are issued in
    joblib's worker processes: they are printed there, but never reach the
    caller's ``warnings.catch_warnings`` or ``pytest.warns``.

    See Also
    --------
    skpapk.PApKRanker.score : A method that warns so.
    sklearn.set_config : Its ``enable_metadata_routing`` option.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from skpapk import PApKAvgRanker
    >>> from skpapk.exceptions import MissingGroupsWarning
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y, groups = [0, 1, 0, 1], [0, 0, 1, 1]
    >>> ranker = PApKAvgRanker(k=1, max_iter=5, tol=None).fit(X, y, groups=groups)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = ranker.score(X, y)             # groups forgotten
    >>> [w.category.__name__ for w in caught]
    ['MissingGroupsWarning']
    """


class WorkerLostError(RuntimeError):
    """A Dask worker left the cluster during a distributed fit that needs it.

    Raised by :class:`skpapk.dask.PApKBoostRanker`'s ``fit`` when a worker
    dies (or is restarted) during LightGBM's distributed training, which
    cannot go on without it (its other workers would wait for the lost one
    forever, in LightGBM's network code). The training tasks are cancelled
    and the surviving workers that trained restarted before it is raised (a
    thread of a failed LightGBM training blocks or breaks the next one), so
    the cluster stays usable; the message names the workers. Retry the fit
    once the cluster has its workers back (``client.wait_for_workers(n)``).

    See Also
    --------
    skpapk.dask.PApKBoostRanker : The ranker whose ``fit`` raises it.

    Examples
    --------
    >>> from skpapk.exceptions import WorkerLostError
    >>> issubclass(WorkerLostError, RuntimeError)
    True
    """
