"""Word labels need ``pos_label``: rankers, metrics and scorers (issue 25).

``"clicked"`` sorts before ``"not_clicked"``: taking the greater label as
relevant learned the opposite ranking and scored it 1.0. Labels that are not
numbers are never compared now; without ``pos_label`` every entry point
raises a ``ValueError`` that names ``pos_label`` and lists the two labels,
and with it every result equals the 0/1 one.
"""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.utils._param_validation import InvalidParameterError

import skpapk
from skpapk.datasets import make_papk_simulation
from skpapk.metrics import (
    expected_papk_score,
    mean_average_precision_score,
    micro_papk_scorer,
    ndcg_at_k_score,
    papk_score,
    papk_scorer,
    partial_auc_score,
    precision_at_k_score,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.ConvergenceWarning")

WORDS = r"labels 'clicked' and 'not_clicked', which are not numbers"
FIX = r"pos_label='clicked' or pos_label='not_clicked'"

#: Every public ranker, small and fast.
RANKERS = {
    "PApKRanker": lambda: skpapk.PApKRanker(k=5, max_iter=30),
    "PApKAvgRanker": lambda: skpapk.PApKAvgRanker(k=5, max_iter=10),
    "PApKMaxRanker": lambda: skpapk.PApKMaxRanker(k=5, max_iter=10),
    "PApKTSRanker": lambda: skpapk.PApKTSRanker(k=5, max_iter=10),
    "PApKRampRanker": lambda: skpapk.PApKRampRanker(k=5, max_iter=10),
    "PAUCRanker": lambda: skpapk.PAUCRanker(k=5, max_iter=10),
    "PrecAtKRanker": lambda: skpapk.PrecAtKRanker(k=5, max_iter=10),
    "GreedyPApKRanker": lambda: skpapk.GreedyPApKRanker(k=5, random_state=0),
    "SelectPApKRanker": lambda: skpapk.SelectPApKRanker(k=5, max_iter=2),
    "PApKBoostRanker": lambda: skpapk.PApKBoostRanker(k=5, n_estimators=5,
                                                      random_state=0),
}

def _rankers():
    params = []
    for name in sorted(RANKERS):
        marks = []
        if name == "PApKBoostRanker":
            marks = [pytest.mark.skipif(not _has("lightgbm"),
                                        reason="lightgbm is not installed")]
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def _has(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def data(seed=0):
    X, y, groups = make_papk_simulation(n_users=12, n_pos=(2, 6), n_neg=(8, 20),
                                        shuffle=False, random_state=seed)
    return X, y, groups, np.where(y == 1, "clicked", "not_clicked")


def _scores(ranker, X):
    return ranker.decision_function(X)


@pytest.mark.parametrize("name", _rankers())
def test_every_ranker_refuses_words_without_pos_label_and_learns_them_with_it(name):
    X, y, groups, words = data()
    ranker = RANKERS[name]()
    assert ranker.get_params()["pos_label"] is None
    with pytest.raises(ValueError, match=f"{WORDS}: say which one is relevant "
                       f"with {FIX} in {name}"):
        RANKERS[name]().fit(X, words, groups=groups)
    fitted = RANKERS[name]().set_params(pos_label="clicked").fit(X, words,
                                                                 groups=groups)
    numeric = RANKERS[name]().fit(X, y, groups=groups)
    assert fitted.classes_.tolist() == ["not_clicked", "clicked"]
    np.testing.assert_allclose(_scores(fitted, X), _scores(numeric, X),
                               rtol=1e-12, atol=1e-12)
    assert fitted.score(X, words, groups=groups) == pytest.approx(
        numeric.score(X, y, groups=groups))
    # the relevant label sorting first, or last: the same ranking
    flipped = RANKERS[name]().set_params(pos_label="relevant").fit(
        X, np.where(y == 1, "relevant", "boring"), groups=groups)
    np.testing.assert_allclose(_scores(flipped, X), _scores(numeric, X),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", _rankers())
@pytest.mark.parametrize("bad", [[1], {"a": 1}, 1j])
def test_pos_label_is_validated_by_the_parameter_constraints(name, bad):
    X, y, groups, _ = data()
    with pytest.raises(InvalidParameterError, match="'pos_label' parameter"):
        RANKERS[name]().set_params(pos_label=bad).fit(X, y, groups=groups)


@pytest.mark.parametrize("name", _rankers())
def test_pos_label_not_among_the_labels_is_named(name):
    X, y, groups, words = data()
    with pytest.raises(ValueError, match=r"pos_label='click' is not one of the "
                       r"labels of y, 'clicked' and 'not_clicked'"):
        RANKERS[name]().set_params(pos_label="click").fit(X, words, groups=groups)


def test_pos_label_picks_the_smaller_number_too():
    X, y, groups, _ = data()
    a = skpapk.PApKRanker(k=5, max_iter=30).fit(X, y, groups=groups)
    b = skpapk.PApKRanker(k=5, max_iter=30, pos_label=0).fit(X, 1 - y,
                                                             groups=groups)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12)
    assert b.classes_.tolist() == [1, 0]
    assert b.score(X, 1 - y, groups=groups) == a.score(X, y, groups=groups)


def test_partial_fit_takes_pos_label():
    X, y, groups, words = data()
    with pytest.raises(ValueError, match=FIX):
        skpapk.PApKRanker(k=5).partial_fit(X, words, groups=groups)
    a = skpapk.PApKRanker(k=5, pos_label="clicked").partial_fit(X, words,
                                                                groups=groups)
    b = skpapk.PApKRanker(k=5).partial_fit(X, y, groups=groups)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.classes_.tolist() == ["not_clicked", "clicked"]


METRICS = [
    (papk_score, {"k": 3}), (partial_auc_score, {"k": 3}),
    (precision_at_k_score, {"k": 3}), (ndcg_at_k_score, {"k": 3}),
    (mean_average_precision_score, {}),
]


@pytest.mark.parametrize("metric, kwargs", METRICS)
def test_metrics_refuse_words_without_pos_label(metric, kwargs):
    _, y, groups, words = data()
    scores = np.random.default_rng(0).normal(size=y.shape[0]) + y
    with pytest.raises(ValueError, match=f"y_true holds the {WORDS}: .*{FIX}"):
        metric(words, scores, groups=groups, **kwargs)
    assert metric(words, scores, groups=groups, pos_label="clicked",
                  **kwargs) == metric(y, scores, groups=groups, **kwargs)


def test_the_issue_reproducer_papk_score():
    # the 0.17 instead of 0.83 of issue 25, on one user
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    s = np.array([9, 8, 7, 2, 6, 1, 0, -1, -2, -3])
    words = np.where(y == 1, "clicked", "not_clicked")
    assert papk_score(y, s, k=2) == 1.0
    with pytest.raises(ValueError, match=FIX):
        papk_score(words, s, k=2)
    assert papk_score(words, s, k=2, pos_label="clicked") == 1.0
    assert expected_papk_score(words, k=2, pos_label="clicked") == \
        expected_papk_score(y, k=2)


def test_scorers_take_pos_label():
    X, y, groups, words = data()
    ranker = skpapk.PApKRanker(k=5, max_iter=30).fit(X, y, groups=groups)
    with pytest.raises(ValueError, match=FIX):
        papk_scorer(5)(ranker, X, words)
    scorer = papk_scorer(5, pos_label="clicked")
    assert repr(scorer) == "papk_scorer(k=5, ties='random', pos_label='clicked')"
    assert scorer(ranker, X, words) == papk_scorer(5)(ranker, X, y)
    micro = micro_papk_scorer(5, pos_label="clicked")
    assert micro(ranker, X, words, groups=groups) == micro_papk_scorer(5)(
        ranker, X, y, groups=groups)
    # a classifier on the words: its decision_function scores "not_clicked"
    clf = LogisticRegression().fit(X, words)
    assert clf.classes_.tolist() == ["clicked", "not_clicked"]
    expected = papk_score(y, clf.predict_proba(X)[:, 0], k=5)
    assert scorer(clf, X, words) == pytest.approx(expected)
    assert expected > 0.5
    # without decision_function: predict_proba's column of pos_label
    proba_only = GaussianNB().fit(X, words)
    assert scorer(proba_only, X, words) == pytest.approx(
        papk_score(y, proba_only.predict_proba(X)[:, 0], k=5))
    with pytest.raises(ValueError, match="pos_label='x' is not a class"):
        papk_scorer(5, pos_label="x")(clf, X, words)


def test_grid_search_with_word_labels_and_pos_label():
    from sklearn.model_selection import GridSearchCV, GroupKFold

    X, y, groups, words = data()
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            skpapk.PApKRanker(k=5, max_iter=20, pos_label="clicked"),
            {"alpha": [1e-4, 1e-2]}, cv=GroupKFold(n_splits=3),
            scoring=micro_papk_scorer(5, pos_label="clicked"), error_score="raise")
        search.fit(X, words, groups=groups)
    assert 0.5 < search.best_score_ <= 1.0


def test_dask_rankers_take_pos_label():
    da = pytest.importorskip("dask.array")
    import skpapk.dask

    X, y, groups, words = data()
    cut = int(np.searchsorted(groups, 6))
    chunks = (cut, X.shape[0] - cut)
    dX = da.from_array(X, chunks=(chunks, X.shape[1]))
    dgroups = da.from_array(groups, chunks)
    with pytest.raises(ValueError, match=f"{FIX} in PApKRanker"):
        skpapk.dask.PApKRanker(k=5, max_iter=5).fit(
            dX, da.from_array(words, chunks), groups=dgroups)
    a = skpapk.dask.PApKRanker(k=5, max_iter=5, pos_label="clicked").fit(
        dX, da.from_array(words, chunks), groups=dgroups)
    b = skpapk.dask.PApKRanker(k=5, max_iter=5).fit(
        dX, da.from_array(y, chunks), groups=dgroups)
    assert a.classes_.tolist() == ["not_clicked", "clicked"]
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12)


def _with_a_gap(words, kind):
    """``words`` with the label of a later row missing, as read_csv gives it."""
    pd = pytest.importorskip("pandas")
    gap = [None if i == 5 else w for i, w in enumerate(words.tolist())]
    if kind == "object":
        return np.array(gap, dtype=object)
    return {"nan": pd.Series(gap).fillna(np.nan), "string": pd.Series(
        gap, dtype="string"), "category": pd.Series(gap, dtype="category")}[kind]


MISSING = r"y(_true)? has missing labels \(None, NaN or pandas' NA\)"


@pytest.mark.parametrize("kind", ["object", "nan", "string", "category"])
@pytest.mark.parametrize("name", _rankers())
def test_a_missing_word_label_is_named_wherever_it_is(name, kind):
    X, y, groups, words = data()
    with pytest.raises(ValueError, match=MISSING):
        RANKERS[name]().set_params(pos_label="clicked").fit(
            X, _with_a_gap(words, kind), groups=groups)


def test_types_that_can_be_ordered_are_not_called_mixed():
    # bool and np.bool_, or datetime and pandas' Timestamp: objects that
    # the metrics refuse as objects, not as types that cannot be ordered
    import datetime

    pd = pytest.importorskip("pandas")
    X, y, groups, _ = data()
    flags = [bool(v) if i % 2 else np.bool_(v) for i, v in enumerate(y)]
    day = datetime.datetime(2026, 1, 1)
    times = [day if i % 2 else pd.Timestamp(day) + pd.Timedelta(days=int(v))
             for i, v in enumerate(y)]
    for labels, error, message in [
            (flags, ValueError, "is an array of dtype object"),
            # dates are named as dates ("numbers stored as Python objects?")
            (times, TypeError, "holds dates or durations")]:
        with pytest.raises(error, match=message):
            papk_score(np.array(labels, dtype=object), X[:, 0], k=3,
                       groups=groups)
    with pytest.raises(ValueError, match=r"classes has missing labels"):
        skpapk.PApKAvgRanker(k=3, pos_label="yes").partial_fit(
            X, np.where(y == 1, "yes", "no"), groups=groups, classes=["yes", None])


@pytest.mark.parametrize("kind", ["object", "nan", "string", "category"])
@pytest.mark.parametrize("consumer", ["papk_score", "WithinGroupKFold",
                                      "within_group_split"])
def test_metrics_and_splitters_name_a_missing_word_label(consumer, kind):
    from skpapk.model_selection import WithinGroupKFold, within_group_split

    X, y, groups, words = data()
    labels = _with_a_gap(words, kind)
    with pytest.raises(ValueError, match=MISSING):
        if consumer == "papk_score":
            papk_score(labels, X[:, 0], k=3, groups=groups, pos_label="clicked")
        elif consumer == "WithinGroupKFold":
            list(WithinGroupKFold(n_splits=2).split(X, labels, groups))
        else:
            within_group_split(labels, groups)


@pytest.mark.parametrize("container", ["object array", "list"])
@pytest.mark.parametrize("consumer", ["papk_score", "fit", "within_group_split",
                                      "partial_fit classes"])
def test_labels_mixing_words_and_numbers_are_refused(consumer, container):
    # a list too: np.asarray([1, "a"]) turns 1 into "1"
    from skpapk.model_selection import within_group_split

    X, y, groups, words = data()
    mixed = words.astype(object)
    mixed[3] = 1
    if container == "list":
        mixed = mixed.tolist()
    with pytest.raises(TypeError, match=r"mixes labels of types \['int', "
                                        r"'str'\].*astype\(str\)"):
        if consumer == "partial_fit classes":
            skpapk.PApKAvgRanker(k=3, pos_label="clicked").partial_fit(
                X, words, groups=groups, classes=mixed[2:4])
        elif consumer == "papk_score":
            papk_score(mixed, X[:, 0], k=3, groups=groups, pos_label="clicked")
        elif consumer == "fit":
            skpapk.PApKRanker(k=3, pos_label="clicked").fit(X, mixed, groups=groups)
        else:
            within_group_split(mixed, groups)
