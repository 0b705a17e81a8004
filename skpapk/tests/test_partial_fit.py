"""Tests of ``partial_fit`` and ``warm_start`` of the subgradient rankers.

The oracle is Algorithm 1 written out by hand with the public
:func:`skpapk.losses.surrogate_loss`: one step per chunk, the step size
``eta0 / sqrt(t + 1)`` with ``t`` counting every earlier step.
"""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from skpapk import PApKRanker, PAUCRanker, PrecAtKRanker
from skpapk.losses import surrogate_loss
from skpapk.metrics import expected_papk_score
from skpapk.tests._helpers import make_grouped_data

SURROGATES = ["avg", "max", "ts", "ramp"]


def make_data(seed=0, n_groups=24, d=4, sep=1.0):
    """Positives ~ N(-sep 1_d, I), negatives ~ N(0, I), group ids 0..n_groups-1."""
    return make_grouped_data(seed, n_groups, d, n_pos=(1, 8), n_neg=(3, 20), sep=sep)


def chunks_of_whole_groups(groups, n_chunks):
    """Row indices of every chunk: group g goes to chunk g % n_chunks."""
    return [np.flatnonzero(groups % n_chunks == c) for c in range(n_chunks)]


def hand_step(w, t, X, y, groups, *, surrogate, k, eta0, alpha):
    """One step of Algorithm 1 on (X, y, groups), the mean over its groups."""
    _, coef = surrogate_loss(y, X @ w, groups, k=k, surrogate=surrogate)
    return w - eta0 / np.sqrt(t + 1) * (X.T @ coef + 2 * alpha * w)


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.mark.parametrize("surrogate", SURROGATES)
@pytest.mark.parametrize("sparse", [False, True])
def test_partial_fit_over_chunks_equals_hand_steps(surrogate, sparse):
    X, y, g = make_data(0)
    params = dict(k=3, eta0=0.5, alpha=0.01)
    ranker = PApKRanker(surrogate, **params)
    w, t = np.zeros(X.shape[1]), 0
    chunks = chunks_of_whole_groups(g, 5)
    for epoch in range(2):
        for rows in chunks:
            Xc = sp.csr_matrix(X[rows]) if sparse else X[rows]
            ranker.partial_fit(Xc, y[rows], groups=g[rows])
            w = hand_step(w, t, X[rows], y[rows], g[rows], surrogate=surrogate,
                          **params)
            t += 1
            np.testing.assert_allclose(ranker.coef_, w, rtol=1e-10, atol=1e-12)
            assert ranker.t_ == t
            assert ranker.n_iter_ == 1
    assert ranker.objective_curve_.shape == (t,)


@pytest.mark.parametrize("cls", [PAUCRanker, PrecAtKRanker])
def test_baselines_partial_fit_equals_hand_steps(cls):
    X, y, g = make_data(1)
    surrogate = {PAUCRanker: "pauc", PrecAtKRanker: "preck"}[cls]
    ranker = cls(k=4, eta0=0.3, alpha=0.0)
    w = np.zeros(X.shape[1])
    for t, rows in enumerate(chunks_of_whole_groups(g, 3)):
        ranker.partial_fit(X[rows], y[rows], groups=g[rows])
        w = hand_step(w, t, X[rows], y[rows], g[rows], surrogate=surrogate, k=4,
                      eta0=0.3, alpha=0.0)
    np.testing.assert_allclose(ranker.coef_, w, rtol=1e-10, atol=1e-12)


def test_partial_fit_learns_a_ranker():
    X, y, g = make_data(2, n_groups=60)
    Xt, yt, gt = make_data(3, n_groups=60)
    ranker = PApKRanker("max", k=5)
    for _ in range(5):
        for rows in chunks_of_whole_groups(g, 10):
            ranker.partial_fit(X[rows], y[rows], groups=g[rows])
    assert ranker.t_ == 50
    assert ranker.score(Xt, yt, groups=gt) > expected_papk_score(yt, k=5,
                                                                 groups=gt) + 0.3


def test_fit_then_partial_fit_continues_the_schedule():
    X, y, g = make_data(4)
    params = dict(k=3, eta0=0.4, alpha=0.05)
    ranker = PApKRanker("ts", max_iter=7, tol=None, **params).fit(X, y, groups=g)
    assert ranker.t_ == 7
    w = ranker.coef_.copy()
    rows = chunks_of_whole_groups(g, 2)[1]
    ranker.partial_fit(X[rows], y[rows], groups=g[rows])
    expected = hand_step(w, 7, X[rows], y[rows], g[rows], surrogate="ts", **params)
    np.testing.assert_allclose(ranker.coef_, expected, rtol=1e-10, atol=1e-12)
    assert ranker.t_ == 8
    assert ranker.objective_curve_.shape == (8,)


@pytest.mark.parametrize("average", [False, True])
def test_warm_start_continues_where_fit_stopped(average):
    X, y, g = make_data(5)
    params = dict(k=3, eta0=0.3, alpha=0.01, tol=None, average=average)
    once = PApKRanker("max", max_iter=9, **params).fit(X, y, groups=g)
    warm = PApKRanker("max", max_iter=4, warm_start=True, **params).fit(X, y, groups=g)
    first = warm.coef_.copy()
    warm.set_params(max_iter=5).fit(X, y, groups=g)
    np.testing.assert_array_equal(warm.coef_, once.coef_)
    assert warm.t_ == 9 and warm.n_iter_ == 5
    np.testing.assert_array_equal(warm.objective_curve_, once.objective_curve_)
    # without warm_start the second fit starts again from w_0 = 0
    cold = PApKRanker("max", max_iter=4, **params).fit(X, y, groups=g)
    np.testing.assert_array_equal(cold.coef_, first)
    cold.set_params(max_iter=5).fit(X, y, groups=g)
    assert cold.t_ == 5
    assert not np.array_equal(cold.coef_, once.coef_)


def test_warm_start_after_partial_fit_and_from_pickle():
    X, y, g = make_data(6)
    params = dict(k=3, eta0=0.3, alpha=0.01, tol=None)
    ranker = PApKRanker("avg", max_iter=3, warm_start=True, **params)
    ranker.partial_fit(X, y, groups=g)  # one full-batch step = one epoch
    ranker = pickle.loads(pickle.dumps(ranker))
    ranker.fit(X, y, groups=g)
    once = PApKRanker("avg", max_iter=4, **params).fit(X, y, groups=g)
    np.testing.assert_allclose(ranker.coef_, once.coef_, rtol=1e-12, atol=1e-14)
    assert ranker.t_ == 4


def test_warm_start_with_other_features_raises():
    X, y, g = make_data(7)
    ranker = PApKRanker(max_iter=2, warm_start=True).fit(X, y, groups=g)
    with pytest.raises(ValueError, match="warm_start=True"):
        ranker.fit(X[:, :2], y, groups=g)


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "avg"])
def test_warm_start_with_other_columns_raises(surrogate):
    # coef_ is by position: reordered or renamed columns would start it on
    # other features
    pd = pytest.importorskip("pandas")
    X, y, g = make_data(7)
    frame = pd.DataFrame(X, columns=list("abcd"))
    ranker = PApKRanker(surrogate, max_iter=2, warm_start=True).fit(
        frame, y, groups=g)
    coef = ranker.coef_.copy()
    for columns in (list("dcba"), list("wxyz")):
        with pytest.raises(ValueError, match=r"warm_start=True but X's columns "
                                             r"\(.*\) are not those of the "
                                             r"previous fit \(a, b, c, d\)"):
            ranker.fit(frame.set_axis(columns, axis=1), y, groups=g)
        assert list(ranker.feature_names_in_) == list("abcd")
        np.testing.assert_array_equal(ranker.coef_, coef)
    ranker.fit(frame, y, groups=g)  # the same columns: it continues
    ranker.fit(X, y, groups=g)  # an array (by position, as scikit-learn)
    ranker.fit(frame, y, groups=g)
    # an array fit continues coef_ on the same columns: their names stay
    ranker.fit(X, y, groups=g)
    with pytest.raises(ValueError, match=r"are not those of the previous fit "
                                         r"\(a, b, c, d\)"):
        ranker.fit(frame[list("dcba")], y, groups=g)
    # nor does partial_fit go on from it on reordered columns (scikit-learn
    # checks the names of feature_names_in_, which the array fit removed)
    with pytest.raises(ValueError, match=r"partial_fit continues coef_ but X's "
                                         r"columns \(d, c, b, a\) are not"):
        ranker.partial_fit(frame[list("dcba")], y, groups=g)
    with pytest.warns(UserWarning, match="fitted without feature names"):
        ranker.partial_fit(frame, y, groups=g)  # scikit-learn's warning
    # a fresh array fit (no warm start) has no names to keep
    ranker.set_params(warm_start=False).fit(X, y, groups=g)
    ranker.set_params(warm_start=True).fit(frame[list("dcba")], y, groups=g)


def test_refused_warm_start_releases_the_rows():
    # (review) the distributed rankers' rows hold persisted partitions on the
    # workers: a warm start refused must release them as a failed fit does
    from skpapk._linear import _InMemoryRows

    X, y, g = make_data(7)
    ranker = PApKRanker(max_iter=2, warm_start=True).fit(X, y, groups=g)
    released = []

    class Rows(_InMemoryRows):
        def release(self):
            released.append(True)
            super().release()

    X3, y_pos, codes = X[:, :3], (y == 1), g
    with pytest.raises(ValueError, match="warm_start=True but X has 3"):
        ranker._fit_linear(Rows(X3, y_pos, codes, int(g.max()) + 1), None)
    assert released == [True]


@pytest.mark.parametrize("surrogate", ["pairwise_logistic", "avg"])
@pytest.mark.parametrize("change, labels", [
    ({"pos_label": 0}, None),  # the same labels, the other one relevant
    ({"pos_label": "yes"}, ["no", "yes"]),  # other labels: "yes" is not 1
])
def test_warm_start_with_another_relevant_label_raises(surrogate, change,
                                                        labels):
    # coef_ ranks the previous relevant label first: continuing it under
    # another relevant label starts (with average=True, stays) upside down
    X, y, g = make_data(9)
    average = surrogate == "avg"  # an option of Algorithm 1 only
    ranker = PApKRanker(surrogate, max_iter=3, warm_start=True, average=average,
                        tol=None).fit(X, y, groups=g)
    coef, classes = ranker.coef_.copy(), ranker.classes_.copy()
    y2 = y if labels is None else np.asarray(labels)[y]
    with pytest.raises(ValueError, match=r"warm_start=True but the relevant "
                                         r"label of y is .* where the previous "
                                         r"fit's was 1"):
        ranker.set_params(**change).fit(X, y2, groups=g)
    np.testing.assert_array_equal(ranker.coef_, coef)
    np.testing.assert_array_equal(ranker.classes_, classes)
    # the same relevant label in another type (True == 1) continues
    t = ranker.t_
    ranker.set_params(pos_label=None).fit(X, y.astype(bool), groups=g)
    assert ranker.t_ > t
    # warm_start=False fits from scratch, as a new ranker does
    fresh = PApKRanker(surrogate, max_iter=3, average=average, tol=None,
                       **change)
    ranker.set_params(warm_start=False, **change).fit(X, y2, groups=g)
    np.testing.assert_array_equal(ranker.coef_, fresh.fit(X, y2, groups=g).coef_)


def test_partial_fit_with_average_is_the_mean_of_the_iterates():
    X, y, g = make_data(8)
    params = dict(k=3, eta0=0.5, alpha=0.01)
    ranker = PApKRanker("max", average=True, **params)
    w, iterates = np.zeros(X.shape[1]), []
    for t, rows in enumerate(chunks_of_whole_groups(g, 4)):
        ranker.partial_fit(X[rows], y[rows], groups=g[rows])
        w = hand_step(w, t, X[rows], y[rows], g[rows], surrogate="max", **params)
        iterates.append(w)
        np.testing.assert_allclose(ranker.coef_, np.mean(iterates, axis=0),
                                   rtol=1e-10, atol=1e-12)


def test_chunk_groups_without_pairs_are_skipped_and_counted():
    X, y, g = make_data(9)
    params = dict(k=3, eta0=0.5, alpha=0.1)
    ranker = PApKRanker("avg", **params).partial_fit(X, y, groups=g)
    w = ranker.coef_.copy()
    # a chunk of one group with both labels and two one-label groups
    both = np.flatnonzero(g == 0)
    only_pos = np.flatnonzero((g == 1) & (y == 1))
    only_neg = np.flatnonzero((g == 2) & (y == 0))
    rows = np.r_[both, only_pos, only_neg]
    ranker.partial_fit(X[rows], y[rows], groups=g[rows])
    assert ranker.n_groups_skipped_ == 2
    expected = hand_step(w, 1, X[both], y[both], g[both], surrogate="avg", **params)
    np.testing.assert_allclose(ranker.coef_, expected, rtol=1e-10, atol=1e-12)
    # a chunk without any pair: only the regularisation term steps
    w = ranker.coef_.copy()
    ranker.partial_fit(X[only_neg], y[only_neg], groups=g[only_neg])
    assert ranker.n_groups_skipped_ == 1
    np.testing.assert_allclose(ranker.coef_, w - 0.5 / np.sqrt(3) * 2 * 0.1 * w,
                               rtol=1e-12)


def test_classes_across_chunks():
    X, y, g = make_data(10)
    labels = np.where(y == 1, "yes", "no")
    only_neg = np.flatnonzero(y == 0)
    with pytest.raises(ValueError, match=r"classes=\[label_a, label_b\] in any "
                       r"order.*the relevant one is pos_label"):
        PApKRanker().partial_fit(X[only_neg], labels[only_neg], groups=g[only_neg])
    # the order of classes does not choose the relevant label: pos_label does
    for classes in ([1, 0], [0, 1]):
        assert PApKRanker().partial_fit(
            X[only_neg], y[only_neg], groups=g[only_neg],
            classes=classes).classes_.tolist() == [0, 1]
    with pytest.raises(ValueError, match="pos_label"):
        PApKRanker().partial_fit(X[only_neg], labels[only_neg],
                                 groups=g[only_neg], classes=["no", "yes"])
    ranker = PApKRanker(pos_label="yes").partial_fit(X[only_neg], labels[only_neg],
                                      groups=g[only_neg], classes=["no", "yes"])
    assert ranker.classes_.tolist() == ["no", "yes"]
    ranker.partial_fit(X, labels, groups=g)  # "yes" is the relevant label
    assert ranker.score(X, labels, groups=g) > 0.5
    with pytest.raises(ValueError, match="not in classes"):
        ranker.partial_fit(X, np.where(y == 1, "yes", "maybe"), groups=g)
    with pytest.raises(ValueError, match=r"differs from classes_ \['no', 'yes'\] "
                                         r"\(set by fit or by the first "
                                         r"partial_fit call\)"):
        ranker.partial_fit(X, labels, groups=g, classes=["maybe", "yes"])
    # words in classes are named as classes' (the message said y's)
    with pytest.raises(ValueError, match="^classes holds the labels 'maybe' and "
                                         "'yes', which are not numbers"):
        PApKRanker().partial_fit(X, y, groups=g, classes=["maybe", "yes"])
    with pytest.raises(ValueError, match="Only binary classification"):
        PApKRanker().partial_fit(X, y, groups=g, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="Only binary classification"):
        PApKRanker().partial_fit(X, g % 3, groups=g)


@pytest.mark.parametrize("labels, fitted, changed", [
    ([0, 1], None, 0), ([0, 1], 0, None), ([0, 1], 0, 1), ([0, 1], None, 2),
    (["no", "yes"], "yes", "no"), (["no", "yes"], "yes", None),
])
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_partial_fit_refuses_another_relevant_label(labels, fitted, changed,
                                                   method):
    X, y, g = make_data(12)
    y = np.asarray(labels)[y]
    ranker = getattr(PApKRanker(k=3, pos_label=fitted), method)(X, y, groups=g)
    coef, t = ranker.coef_, ranker.t_
    ranker.set_params(pos_label=changed)
    with pytest.raises(ValueError, match=r"partial_fit cannot change the "
                                         r"relevant label.*fit from scratch"):
        ranker.partial_fit(X, y, groups=g)
    assert ranker.coef_ is coef
    # the fitted pos_label, or the label it made relevant, goes on
    ranker.set_params(pos_label=fitted).partial_fit(X, y, groups=g)
    relevant = labels[1] if fitted is None else fitted
    ranker.set_params(pos_label=relevant).partial_fit(X, y, groups=g)
    assert ranker.t_ == t + 2


def test_partial_fit_checks_the_number_of_features():
    X, y, g = make_data(11)
    ranker = PApKRanker().partial_fit(X, y, groups=g)
    with pytest.raises(ValueError, match="features"):
        ranker.partial_fit(X[:, :2], y, groups=g)


def test_partial_fit_requests_groups_under_routing():
    routing = PApKRanker().get_metadata_routing()
    assert routing.consumes("partial_fit", ["groups"]) == {"groups"}
    assert routing.consumes("fit", ["groups"]) == {"groups"}
