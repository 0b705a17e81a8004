"""The public distributed rankers: one per in-memory linear ranker."""

from .. import _baselines, _ranker
from ._common import local_sections
from ._linear import DaskLinearMixin

_DOC = """Distributed :class:`skpapk.{name}`: the same ranker, fitted on dask input.

    ``fit(X, y, groups)`` with ``X`` a dask array (dense chunks or chunks of
    SciPy CSR matrices) or a dask DataFrame, and ``y`` and ``groups``
    partitioned like it (columns of the same DataFrame, dask arrays chunked
    along ``X.chunks[0]``, or in-memory arrays cut along those chunks),
    trains exactly the in-memory model: every epoch sends ``w`` to the
    workers, each returns its partition's surrogate sum, the weight of its
    defined users and ``X_p.T @ c_p``, and the client adds them up and
    steps with the in-memory solver (same state, stopping rule and
    warnings). So ``coef_``, ``n_iter_`` and ``objective_curve_`` equal
    those of :class:`skpapk.{name}` on the same data, up to the rounding of
    the sums over partitions.

    Every user's rows must sit in one partition (a user's surrogate is not
    a sum over its rows); ``fit`` raises a ``ValueError`` otherwise:
    repartition with :func:`skpapk.dask.partition_by_group`. The partitions
    are prepared once and kept in the workers' memory during ``fit``; the
    client holds only ``w`` and sums of size ``n_features``.

    With ``early_stopping=True``, ``validation_fraction`` of every user's
    rows of each label is held out inside its partition (seeded per
    partition from ``random_state``, so not the rows the in-memory ranker
    holds out), and the validation micro-pAp@k adds up every partition's
    users.

    The fitted ranker is an in-memory one: ``decision_function``,
    ``score`` and ``recommend`` take NumPy or SciPy input and it pickles
    (:meth:`to_local` gives the :class:`skpapk.{name}` itself).
    ``decision_function`` on a dask collection returns a dask array, and
    ``score`` on dask input adds up every partition's users. In-memory
    input to ``fit`` fits in memory, as :class:`skpapk.{name}`.

    The parameters and fitted attributes are those of
    :class:`skpapk.{name}`, whose docstring gives the two sections below.

    Parameters
    ----------
    {parameters}

    Attributes
    ----------
    {attributes}

    See Also
    --------
    skpapk.{name} : The in-memory ranker.
    skpapk.dask.partition_by_group : Every user's rows in one partition.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> import skpapk
    >>> from skpapk.dask import {name}
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> X = rng.normal(size=(400, 3)) - y[:, None]
    >>> groups = np.repeat(np.arange(20), 20)        # 20 users, 20 rows each
    >>> dX = da.from_array(X, chunks=(100, 3))       # 5 users per partition
    >>> ranker = {name}({args}).fit(dX, y, groups=groups)
    >>> local = skpapk.{name}({args}).fit(X, y, groups=groups)
    >>> bool(np.allclose(ranker.coef_, local.coef_, rtol=1e-10, atol=1e-12))
    True
    >>> ranker.decision_function(dX)                 # a dask array
    dask.array<...>
    """


def _distributed(local, args):
    """The distributed class of an in-memory linear ranker class."""
    name = local.__name__
    parameters, attributes = local_sections(local)
    return type(name, (DaskLinearMixin, local), {
        "__doc__": _DOC.format(name=name, args=args, parameters=parameters,
                               attributes=attributes),
        "__module__": __name__,
        "_local_class": local,
    })


PApKRanker = _distributed(_ranker.PApKRanker, "k=5")
PApKAvgRanker = _distributed(_ranker.PApKAvgRanker, "k=5, max_iter=20, tol=None")
PApKMaxRanker = _distributed(_ranker.PApKMaxRanker, "k=5, max_iter=20, tol=None")
PApKTSRanker = _distributed(_ranker.PApKTSRanker, "k=5, max_iter=20, tol=None")
PApKRampRanker = _distributed(_ranker.PApKRampRanker, "k=5, max_iter=20, tol=None")
PAUCRanker = _distributed(_baselines.PAUCRanker, "k=5, max_iter=20, tol=None")
PrecAtKRanker = _distributed(_baselines.PrecAtKRanker, "k=5, max_iter=20, tol=None")
