"""Tests of :func:`skpapk.recommend`: the rankers' ``recommend`` for any model."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import PApKRanker, Recommendations, recommend
from skpapk.metrics import micro_papk_scorer
from skpapk.model_selection import WithinGroupKFold
from skpapk.tests._helpers import make_grouped_data


def _oracle(scores, groups, k):
    """Per-group loop: each sorted group's k best rows, ties by row order."""
    labels = np.unique(groups)
    rows = [np.flatnonzero(groups == g) for g in labels]
    top = [r[np.argsort(-scores[r], kind="stable")][:k] for r in rows]
    indptr = np.concatenate([[0], np.cumsum([len(t) for t in top])])
    return np.concatenate(top), indptr, labels


@pytest.fixture(scope="module")
def data():
    X, y, groups = make_grouped_data(0, n_groups=12, d=3)
    return X * [1.0, 100.0, 0.01] + [0.0, 5.0, -3.0], y, groups


def _assert_same(rec, expected):
    assert isinstance(rec, Recommendations)
    for got, want in zip(rec, expected):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("k", [1, 3, 1000])
@pytest.mark.parametrize("wrap", ["pipeline", "search"])
def test_a_pipeline_or_search_recommends_as_its_ranker(data, k, wrap):
    # a Pipeline or a search has no recommend method of its own
    X, y, groups = data
    pipe = make_pipeline(StandardScaler(), PApKRanker(k=4))
    with sklearn.config_context(enable_metadata_routing=True):
        model = (pipe.fit(X, y, groups=groups) if wrap == "pipeline" else
                 GridSearchCV(pipe, {"papkranker__alpha": [1e-4, 1e-2]},
                              scoring=micro_papk_scorer(4, zero_division=0.0),
                              cv=WithinGroupKFold(2)).fit(X, y, groups=groups))
    fitted = model if wrap == "pipeline" else model.best_estimator_
    inner = fitted[-1].recommend(fitted[:-1].transform(X), groups, k=k)
    _assert_same(recommend(model, X, groups, k=k), inner)
    _assert_same(recommend(model, X, groups, k=k),
                 _oracle(fitted.decision_function(X), groups, k))


def test_k_defaults_to_the_rankers(data):
    X, y, groups = data
    ranker = PApKRanker(k=2).fit(X, y, groups=groups)
    _assert_same(recommend(ranker, X, groups), ranker.recommend(X, groups))
    assert np.diff(recommend(ranker, X, groups).indptr).max() == 2
    with pytest.raises(ValueError, match="LogisticRegression has none .*pass k"):
        recommend(LogisticRegression().fit(X, y), X, groups)


def test_k_defaults_to_the_ranker_inside_a_feature_selector(data):
    # RFECV keeps its fitted ranker in estimator_: "RFECV has none" before
    from sklearn.feature_selection import RFECV

    X, y, groups = data
    X = np.c_[X, X[:, :1] * 2 + 1]
    with sklearn.config_context(enable_metadata_routing=True):
        model = RFECV(PApKRanker(k=2), cv=WithinGroupKFold(2),
                      scoring=micro_papk_scorer(2, zero_division=0.0)
                      ).fit(X, y, groups=groups)
    rec = recommend(model, X, groups)
    assert np.diff(rec.indptr).max() == 2
    _assert_same(rec, _oracle(model.decision_function(X), groups, 2))


def test_a_classifier_ranks_its_pos_label_first(data):
    X, y, groups = data
    words = np.where(y == 1, "click", "skip")
    clf = LogisticRegression().fit(X, words)  # classes_: click, skip
    proba = clf.predict_proba(X)[:, 0]
    _assert_same(recommend(clf, X, groups, k=3, pos_label="click"),
                 _oracle(proba, groups, 3))
    _assert_same(recommend(clf, X, groups, k=3, pos_label="skip"),
                 _oracle(-proba, groups, 3))
    # numbers: the greater class first, as the metrics
    numbers = LogisticRegression().fit(X, y)
    _assert_same(recommend(numbers, X, groups, k=3),
                 _oracle(numbers.predict_proba(X)[:, 1], groups, 3))


def test_one_list_and_bad_input(data):
    X, y, groups = data
    ranker = PApKRanker(k=2).fit(X, y, groups=groups)
    _assert_same(recommend(ranker, X, k=5),
                 _oracle(ranker.decision_function(X), np.zeros(len(X)), 5))
    with pytest.raises(ValueError, match="k must be a positive integer"):
        recommend(ranker, X, groups, k=0)
    with pytest.raises(ValueError, match="groups"):
        recommend(ranker, X, groups[:-1])


@pytest.mark.parametrize("k", [1, 2, 1000])
def test_to_frame_lists_each_groups_rows_with_their_ranks(data, k):
    X, y, groups = data
    ranker = PApKRanker(k=2).fit(X, y, groups=groups)
    rec = ranker.recommend(X, groups, k=k)
    frame = rec.to_frame()
    assert list(frame.columns) == ["group", "rank", "row"]
    expected = [(g, r + 1, row) for g, start, stop in zip(
        rec.groups, rec.indptr[:-1], rec.indptr[1:])
        for r, row in enumerate(rec.indices[start:stop])]
    assert list(frame.itertuples(index=False, name=None)) == expected
    empty = Recommendations(np.array([], dtype=np.intp),
                            np.zeros(1, dtype=np.intp), np.array([]))
    assert empty.to_frame().shape == (0, 3)


@pytest.mark.parametrize("indices, indptr, groups", [
    ([0, 1], [0, 5], [0]),          # indptr past the indices
    ([0, 1], [1, 2], [0]),          # not from 0
    ([0, 1, 2], [0, 2, 1, 3], [0, 1, 2]),  # a step back
    ([0, 1], [0, 1, 2], [0]),       # one step more than groups
    (3, [0, 1], [0]),               # 0-d indices (an IndexError)
    ([0, 1], [0, 2], 5),            # 0-d groups
])
def test_to_frame_refuses_parts_that_do_not_fit_together(indices, indptr, groups):
    # a Recommendations built by hand: NumPy's broadcasting error
    rec = Recommendations(np.array(indices), np.array(indptr), np.array(groups))
    with pytest.raises(ValueError, match="Recommendations do not fit together: "
                                         "indptr must rise from 0 to len"):
        rec.to_frame()


def test_a_classifier_of_words_needs_pos_label(data):
    # without pos_label the greater class, "skip", came first, silently (the
    # metrics and scorers refuse to order words)
    X, y, groups = data
    clf = LogisticRegression().fit(X, np.where(y == 1, "click", "skip"))
    with pytest.raises(ValueError, match=r"classes \['click', 'skip'\] are not "
                                         r"numbers: say which one is relevant"):
        recommend(clf, X, groups, k=3)


@pytest.mark.parametrize("pos_label", ["clik", 1])
def test_a_pos_label_that_is_no_class_of_the_ranker_is_refused(data, pos_label):
    # it was ignored: recommend has no y to check it against
    X, y, groups = data
    with sklearn.config_context(enable_metadata_routing=True):
        ranker = PApKRanker(k=2, pos_label="click").fit(
            X, np.where(y == 1, "click", "skip"), groups=groups)
    with pytest.raises(ValueError, match=rf"pos_label={pos_label!r} is not a "
                                         r"class of PApKRanker"):
        recommend(ranker, X, groups, pos_label=pos_label)
    _assert_same(recommend(ranker, X, groups, pos_label="skip"),
                 _oracle(-ranker.decision_function(X), groups, 2))


class _Fixed:
    """A model whose predict returns given scores."""

    def __init__(self, scores):
        self.scores = scores

    def predict(self, X):
        return self.scores


@pytest.mark.parametrize("scores, expected", [
    ([True, False, False, True], [0, 3]),
    (np.array([2**63 - 1, 2**63 - 2, 0, 5], dtype=np.int64), [0, 1]),
    (np.array([1, 2, 4, 3], dtype=object), [2, 3]),  # Python numbers
    (np.array(["1", "2", "3", "4"], dtype=object), TypeError),
    (np.array([1 + 5j, 2, 3, 4]), TypeError),
])
def test_scores_are_checked_as_the_metrics_check_them(scores, expected):
    # bools: numpy's "boolean negative" error; text: "ufunc 'isnan' not
    # supported"; complex numbers were ranked by their real part, silently
    X = np.zeros((4, 1))
    if expected is TypeError:
        with pytest.raises(TypeError, match="^scores must"):
            recommend(_Fixed(scores), X, k=2)
    else:
        np.testing.assert_array_equal(recommend(_Fixed(scores), X, k=2).indices,
                                      expected)


def test_to_frame_of_lists():
    # (review) the fields may be lists, as the constructor takes them
    frame = Recommendations([2, 0, 1], [0, 2, 3], ["a", "b"]).to_frame()
    assert list(frame.itertuples(index=False, name=None)) == [
        ("a", 1, 2), ("a", 2, 0), ("b", 1, 1)]


@pytest.mark.parametrize("kind", ["list", "array", "series"])
def test_to_frame_items_are_taken_by_position(kind):
    # (tester) te["item"][rec.indices] looked the rows up by index label: a
    # KeyError, or the wrong items after df.iloc[...]
    import pandas as pd

    rec = Recommendations(np.array([2, 0, 1]), np.array([0, 2, 3]),
                          np.array(["a", "b"]))
    names = ["x", "y", "z"]
    items = {"list": names, "array": np.array(names),
             "series": pd.Series(names, index=[10, 2, 0])}[kind]  # not 0, 1, 2
    frame = rec.to_frame(items=items)
    assert frame["item"].tolist() == ["z", "x", "y"]
    assert frame.columns.tolist() == ["group", "rank", "row", "item"]
    with pytest.raises(ValueError, match=r"^items has 2 values, but the "
                       r"recommendations name row 2: give one item per row"):
        rec.to_frame(items=names[:2])
    with pytest.raises(ValueError, match=r"^items must be 1-D"):
        rec.to_frame(items=[names])


def test_repr_cuts_long_arrays():
    # (tester) print(rec) of 943 users printed about 200 lines
    n = 5000
    rec = Recommendations(np.arange(n), np.arange(n + 1), np.arange(n))
    text = repr(rec)
    assert text.startswith("Recommendations(indices=array([   0,    1,    2, ..., ")
    assert len(text) < 300 and "\n" not in text
    assert repr(Recommendations(np.array([1]), np.array([0, 1]), np.array(["a"]))) == (
        "Recommendations(indices=array([1]), indptr=array([0, 1]), "
        "groups=array(['a'], dtype='<U1'))")


def test_items_of_another_length_than_the_rows_are_refused(data):
    # items of the whole table given for recommendations of a part of it:
    # every item was wrong, without a word (only a too short list failed)
    X, y, groups = data
    ranker = PApKRanker(k=2).fit(X, y, groups=groups)
    part = np.arange(X.shape[0]) % 3 == 0
    items = np.array([f"item {i}" for i in range(X.shape[0])])
    top = ranker.recommend(X[part], groups[part])
    assert top.n_rows == part.sum()
    with pytest.raises(ValueError, match=rf"items has {X.shape[0]} values, "
                       rf"but recommend was given {part.sum()} rows"):
        top.to_frame(items=items)
    frame = top.to_frame(items=items[part])
    np.testing.assert_array_equal(frame["item"], items[part][top.indices])
    assert recommend(ranker, X[part], groups[part]).n_rows == part.sum()
