"""Tests of the scorers inside GridSearchCV / cross_val_score / cross_validate."""

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    cross_val_score,
    cross_validate,
)

from skpapk.metrics import _scorer, micro_papk_scorer, papk_score, papk_scorer

ROUTING_LINE = "sklearn.set_config(enable_metadata_routing=True)"


def _data(n_groups=9, per_group=12, seed=0):
    rng = np.random.RandomState(seed)
    n = n_groups * per_group
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
    groups = np.repeat(np.arange(100, 100 + n_groups), per_group)
    perm = rng.permutation(n)  # interleave the groups' rows
    return X[perm], y[perm], groups[perm]


@pytest.fixture
def spy(monkeypatch):
    """Record the groups (and lengths) that reach the scorer's metric."""
    calls = []

    def recording_papk_score(y_true, y_score, **kwargs):
        calls.append(np.asarray(kwargs["groups"]).copy())
        return papk_score(y_true, y_score, **kwargs)

    monkeypatch.setattr(_scorer, "papk_score", recording_papk_score)
    return calls


def _fold_groups(X, y, groups, cv):
    return sorted(tuple(groups[test]) for _, test in cv.split(X, y, groups))


def test_request_survives_the_config_context():
    scorer = micro_papk_scorer(k=3)
    assert not sklearn.get_config()["enable_metadata_routing"]
    with sklearn.config_context(enable_metadata_routing=True):
        routing = scorer.get_metadata_routing()
        assert routing.consumes("score", ["groups"]) == {"groups"}


def test_grid_search_sends_test_fold_groups(spy):
    X, y, groups = _data()
    cv = GroupKFold(n_splits=3)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]},
                              scoring=micro_papk_scorer(k=3), cv=cv)
        search.fit(X, y, groups=groups)
    assert len(spy) == 2 * 3
    expected = _fold_groups(X, y, groups, cv)
    assert sorted(tuple(g) for g in spy) == sorted(expected * 2)
    scores = search.cv_results_["split0_test_score"]
    assert np.all(np.isfinite(scores)) and np.all((scores >= 0) & (scores <= 1))


def test_grid_search_score_is_per_group_micro_papk():
    """The fold score is the micro average over the fold's groups."""
    X, y, groups = _data(seed=1)
    cv = GroupKFold(n_splits=3)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(LogisticRegression(), {"C": [1.0]},
                              scoring=micro_papk_scorer(k=3), cv=cv,
                              refit=False)
        search.fit(X, y, groups=groups)
    for i, (train, test) in enumerate(cv.split(X, y, groups)):
        model = LogisticRegression(C=1.0).fit(X[train], y[train])
        s = model.decision_function(X[test])
        expected = papk_score(y[test], s, k=3, groups=groups[test])
        as_one_list = papk_score(y[test], s, k=3)
        got = search.cv_results_[f"split{i}_test_score"][0]
        assert got == pytest.approx(expected)
        assert got != pytest.approx(as_one_list)


@pytest.mark.parametrize("runner", ["cross_val_score", "cross_validate"])
def test_cross_val_sends_test_fold_groups(spy, runner):
    X, y, groups = _data(seed=2)
    cv = GroupKFold(n_splits=3)
    with sklearn.config_context(enable_metadata_routing=True):
        if runner == "cross_val_score":
            scores = cross_val_score(LogisticRegression(), X, y,
                                     scoring=micro_papk_scorer(k=2), cv=cv,
                                     params={"groups": groups})
        else:
            scores = cross_validate(LogisticRegression(), X, y,
                                    scoring={"papk": micro_papk_scorer(k=2)},
                                    cv=cv, params={"groups": groups})["test_papk"]
    assert scores.shape == (3,) and np.all(np.isfinite(scores))
    assert sorted(tuple(g) for g in spy) == _fold_groups(X, y, groups, cv)


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
def test_without_routing_grid_search_warns_with_the_line_to_add():
    X, y, groups = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]},
                          scoring=micro_papk_scorer(k=3), cv=GroupKFold(3))
    with pytest.warns(UserWarning, match=r"sklearn\.set_config\(enable_metadata"
                                         r"_routing=True\)"):
        search.fit(X, y, groups=groups)
    # never a silent one-list score: every fold is NaN
    assert np.isnan(search.cv_results_["mean_test_score"]).all()


@pytest.mark.parametrize("runner", ["grid", "cross_val_score"])
def test_without_routing_error_score_raise_gives_the_error(runner):
    X, y, groups = _data()
    with pytest.raises(ValueError) as excinfo:
        if runner == "grid":
            GridSearchCV(LogisticRegression(), {"C": [1.0]},
                         scoring=micro_papk_scorer(k=3), cv=GroupKFold(3),
                         error_score="raise").fit(X, y, groups=groups)
        else:
            cross_val_score(LogisticRegression(), X, y, groups=groups,
                            scoring=micro_papk_scorer(k=3), cv=GroupKFold(3),
                            error_score="raise")
    message = str(excinfo.value)
    assert ROUTING_LINE in message
    assert "groups=groups" in message and "params={'groups': groups}" in message


def test_routing_on_but_no_groups_passed():
    X, y, _ = _data()
    model = LogisticRegression().fit(X, y)
    scorer = micro_papk_scorer(k=3)
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="no groups reached the scorer"):
            scorer(model, X, y)
        value = scorer(model, X, y, groups=np.arange(X.shape[0]) % 4)
    assert 0 <= value <= 1


def test_direct_call_without_routing_raises():
    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    scorer = micro_papk_scorer(k=3)
    with pytest.raises(ValueError, match=r"set_config\(enable_metadata_routing"):
        scorer(model, X, y)


def test_papk_scorer_scores_the_fold_as_one_list():
    X, y, _ = _data()
    model = LogisticRegression().fit(X, y)
    expected = papk_score(y, model.decision_function(X), k=4)
    assert papk_scorer(k=4)(model, X, y) == pytest.approx(expected)
    assert papk_scorer(k=4, ties="error")(model, X, y) == pytest.approx(expected)
    scores = cross_val_score(LogisticRegression(), X, y, scoring=papk_scorer(4),
                             cv=3)
    assert np.all(np.isfinite(scores))


def test_scorers_use_decision_function():
    class OnlyDecision(BaseEstimator):
        def decision_function(self, X):
            return -X[:, 0]

    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1, 1, 0, 0])
    assert papk_scorer(k=2)(OnlyDecision(), X, y) == 1.0
    with sklearn.config_context(enable_metadata_routing=True):
        assert micro_papk_scorer(k=1)(OnlyDecision(), X, y,
                                      groups=[0, 1, 0, 1]) == 1.0


@pytest.mark.parametrize("factory", [papk_scorer, micro_papk_scorer])
@pytest.mark.parametrize("kwargs, error, match",
                         [({"k": 0}, ValueError, "k must be"),
                          ({"k": 1.5}, TypeError, "k must be"),
                          ({"k": 2, "ties": "x"}, ValueError, "ties must be")])
def test_scorer_bad_arguments(factory, kwargs, error, match):
    with pytest.raises(error, match=match):
        factory(**kwargs)


def test_micro_scorer_average_must_be_a_number():
    with pytest.raises(ValueError, match="average must be 'micro' or 'pooled'"):
        micro_papk_scorer(k=2, average=None)
    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    with sklearn.config_context(enable_metadata_routing=True):
        pooled = micro_papk_scorer(k=2, average="pooled")(model, X, y,
                                                          groups=groups)
    assert pooled == pytest.approx(papk_score(
        y, model.decision_function(X), k=2, groups=groups, average="pooled"))


def test_pickled_scorer_keeps_its_groups_request():
    import pickle

    scorer = pickle.loads(pickle.dumps(micro_papk_scorer(k=3)))
    with sklearn.config_context(enable_metadata_routing=True):
        assert scorer.get_metadata_routing().consumes("score", ["groups"]) == {
            "groups"}
