"""Tests of the scorers inside GridSearchCV / cross_val_score / cross_validate."""

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator
from sklearn.dummy import DummyRegressor
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB

from skpapk.metrics import (
    _scorer,
    expected_papk_score,
    micro_papk_scorer,
    papk_score,
    papk_scorer,
)

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


def test_a_searchs_score_without_groups_is_told_to_pass_them_to_score():
    # it was told to pass them to fit, where they had been passed
    X, y, groups = _data()
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(LogisticRegression(), {"C": [1.0]},
                              scoring=micro_papk_scorer(k=3), cv=GroupKFold(3))
        search.fit(X, y, groups=groups)
        with pytest.raises(ValueError, match=r"search.score\(X_test, y_test, "
                                             r"groups=groups_test\)"):
            search.score(X, y)
        assert 0 <= search.score(X, y, groups=groups) <= 1


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
                          ({"k": 2, "ties": "x"}, ValueError, "ties must be"),
                          ({"k": 2, "ties": None}, ValueError, "ties must be")])
def test_scorer_bad_arguments(factory, kwargs, error, match):
    with pytest.raises(error, match=match):
        factory(**kwargs)


@pytest.mark.parametrize("factory", [papk_scorer, micro_papk_scorer])
@pytest.mark.parametrize("runner", ["direct", "cross_val_score"])
def test_an_uncalled_factory_says_to_call_it(factory, runner):
    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    match = rf"pass scoring={factory.__name__}\(k=10\)"
    with pytest.raises(TypeError, match=match), \
            sklearn.config_context(enable_metadata_routing=True):
        if runner == "direct":
            factory(model, X, y)
        else:
            cross_val_score(LogisticRegression(), X, y, scoring=factory,
                            cv=GroupKFold(n_splits=3), params={"groups": groups},
                            error_score="raise")


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


# --------------------------------------------------------------------------
# Which scores the scorers rank by; estimators with predict only
# --------------------------------------------------------------------------


def test_scorers_use_predict_without_decision_function():
    """Regressors (and rankers such as LGBMRanker) have only predict."""
    X, y, groups = _data(seed=3)
    model = Ridge().fit(X, y)
    s = model.predict(X)
    assert papk_scorer(k=4)(model, X, y) == pytest.approx(papk_score(y, s, k=4))
    with sklearn.config_context(enable_metadata_routing=True):
        got = micro_papk_scorer(k=4)(model, X, y, groups=groups)
    assert got == pytest.approx(papk_score(y, s, k=4, groups=groups))


def test_scorers_use_predict_proba_of_a_classifier_without_decision_function():
    X, y, groups = _data(seed=4)
    model = GaussianNB().fit(X, y)
    assert not hasattr(model, "decision_function")
    s = model.predict_proba(X)[:, 1]
    assert papk_scorer(k=4)(model, X, y) == pytest.approx(papk_score(y, s, k=4))
    y3 = y.copy()
    y3[:5] = 2
    with pytest.raises(ValueError, match="binary classifier"):
        papk_scorer(k=4)(GaussianNB().fit(X, y3), X, y)


@pytest.mark.parametrize("make_scorer", [papk_scorer, micro_papk_scorer])
def test_scorers_refuse_a_multiclass_decision_function_naming_the_model(
        make_scorer):
    # the message was papk_score's, "pass a single column, e.g.
    # y_score[:, 0]": the scorer's user has no y_score
    X, y, groups = _data(seed=4)
    y3 = y.copy()
    y3[::7] = 2
    model = LogisticRegression().fit(X, y3)
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match=(
                r"^LogisticRegression\.decision_function returned shape "
                r"\(\d+, 3\) .*a ranking scorer needs a binary classifier")
                ) as info:
            make_scorer(3)(model, X, y, **(
                {"groups": groups} if make_scorer is micro_papk_scorer else {}))
    assert "y_score" not in str(info.value)


def test_scorer_without_any_scoring_method():
    class NoMethod(BaseEstimator):
        pass

    with pytest.raises(TypeError, match="no decision_function, predict_proba"):
        papk_scorer(k=2)(NoMethod(), np.zeros((2, 1)), [0, 1])


def test_constant_model_scores_as_a_random_ranking():
    """Issue 14: a model predicting one value for every row scored 1/2 with
    ties='half' and beat every model worse than 1/2 in model selection."""
    X, y, groups = _ranking_data(n_groups=20, per_group=15, seed=5)
    constant = DummyRegressor().fit(X, y)
    random_level = expected_papk_score(y, k=3, groups=groups)
    with sklearn.config_context(enable_metadata_routing=True):
        got = micro_papk_scorer(k=3)(constant, X, y, groups=groups)
        half = micro_papk_scorer(k=3, ties="half")(constant, X, y,
                                                   groups=groups)
    assert got == pytest.approx(random_level)
    assert half == 0.5 > random_level
    assert papk_scorer(k=3)(constant, X, y) == pytest.approx(
        expected_papk_score(y, k=3))


def test_grid_search_prefers_a_weak_model_to_a_constant_one():
    """The constant candidate must not win against an informative one."""
    rng = np.random.RandomState(6)
    n_groups, per_group = 30, 20
    groups = np.repeat(np.arange(n_groups), per_group)
    y = (rng.rand(groups.shape[0]) < 0.2).astype(int)
    X = np.c_[y + 3.0 * rng.normal(size=y.shape[0])]  # weakly informative
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            DummyRegressor(), {"strategy": ["mean"]}, cv=GroupKFold(3),
            scoring=micro_papk_scorer(k=3)).fit(X, y, groups=groups)
        constant_score = search.best_score_
        weak = GridSearchCV(Ridge(), {"alpha": [1.0]}, cv=GroupKFold(3),
                            scoring=micro_papk_scorer(k=3)).fit(X, y,
                                                                groups=groups)
    assert weak.best_score_ > constant_score
    assert constant_score < 0.5


# --------------------------------------------------------------------------
# The scorer object: routing requests, opt-out, repr, unexpected metadata
# --------------------------------------------------------------------------


def test_set_score_request_can_opt_out_of_groups():
    X, y, groups = _data()
    scorer = micro_papk_scorer(k=3)
    with sklearn.config_context(enable_metadata_routing=True):
        assert scorer.set_score_request(groups=False) is scorer
        assert scorer.get_metadata_routing().consumes("score", ["groups"]) == set()
        with pytest.raises(ValueError, match=r"needs groups, which its "
                           r"set_score_request\(groups=False\) refuses"):
            GridSearchCV(LogisticRegression(), {"C": [1.0]}, scoring=scorer,
                         cv=GroupKFold(3), error_score="raise").fit(
                X, y, groups=groups)
        scorer.set_score_request(groups="user")  # an alias
        assert scorer.get_metadata_routing().consumes("score", ["user"]) == {
            "user"}
        with pytest.raises(TypeError, match="cannot request 'sample_weight'"):
            scorer.set_score_request(sample_weight=True)
        with pytest.raises(TypeError, match="cannot request 'groups'"):
            papk_scorer(k=3).set_score_request(groups=True)
    with pytest.raises(RuntimeError, match="enable_metadata_routing=True"):
        micro_papk_scorer(k=3).set_score_request(groups=True)


def test_scorer_repr_and_unexpected_metadata():
    assert repr(micro_papk_scorer(k=3)) == (
        "micro_papk_scorer(k=3, ties='random', average='micro')")
    assert repr(papk_scorer(5, ties="half")) == "papk_scorer(k=5, ties='half')"
    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    with pytest.raises(TypeError, match=r"unexpected metadata \['sample_weight'\]"):
        micro_papk_scorer(k=3)(model, X, y, groups=groups, sample_weight=y)
    with pytest.raises(TypeError, match="accepts no metadata"):
        papk_scorer(k=3)(model, X, y, groups=groups)


def test_multimetric_scoring_dict_and_refit_score():
    X, y, groups = _data(seed=7)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, cv=GroupKFold(3),
            scoring={"micro": micro_papk_scorer(k=3),
                     "one_list": papk_scorer(k=3), "auc": "roc_auc"},
            refit="micro").fit(X, y, groups=groups)
        test_score = search.score(X, y, groups=groups)
    assert np.all(np.isfinite(search.cv_results_["mean_test_micro"]))
    assert np.all(np.isfinite(search.cv_results_["mean_test_one_list"]))
    s = search.best_estimator_.decision_function(X)
    assert test_score == pytest.approx(papk_score(y, s, k=3, groups=groups))


# --------------------------------------------------------------------------
# LightGBM's LGBMRanker (predict only; fit takes group sizes)
# --------------------------------------------------------------------------


def _ranking_data(n_groups=12, per_group=20, seed=0):
    rng = np.random.RandomState(seed)
    groups = np.repeat(np.arange(n_groups), per_group)
    y = (rng.rand(groups.shape[0]) < 0.25).astype(int)
    X = np.c_[y + rng.normal(size=y.shape[0]), rng.normal(size=(y.shape[0], 2))]
    return X, y, groups


def test_scorers_on_lgbm_ranker():
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = _ranking_data()
    ranker = lightgbm.LGBMRanker(n_estimators=10, num_leaves=7,
                                 min_child_samples=2, n_jobs=1, verbose=-1)
    ranker.fit(X, y, group=np.bincount(groups))
    assert not hasattr(ranker, "decision_function")
    s = ranker.predict(X)
    assert papk_scorer(k=5)(ranker, X, y) == pytest.approx(papk_score(y, s, k=5))
    with sklearn.config_context(enable_metadata_routing=True):
        got = micro_papk_scorer(k=5)(ranker, X, y, groups=groups)
    assert got == pytest.approx(papk_score(y, s, k=5, groups=groups))


class GroupIdLGBMRanker(BaseEstimator):
    """LGBMRanker whose fit takes one group id per row, as routing sends them.

    A test double of what a user writes to tune LGBMRanker with per-fold
    groups: sort the fold's rows by group and pass the group sizes on.
    """

    __metadata_request__fit = {"groups": True}

    def __init__(self, n_estimators=10, num_leaves=7):
        self.n_estimators = n_estimators
        self.num_leaves = num_leaves

    def fit(self, X, y, groups):
        import lightgbm

        order = np.argsort(groups, kind="stable")
        _, sizes = np.unique(groups[order], return_counts=True)
        self.model_ = lightgbm.LGBMRanker(
            n_estimators=self.n_estimators, num_leaves=self.num_leaves,
            min_child_samples=2, n_jobs=1, verbose=-1)
        self.model_.fit(X[order], y[order], group=sizes)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_grid_search_with_routing_on_an_lgbm_ranker_with_group_ids():
    pytest.importorskip("lightgbm")
    X, y, groups = _ranking_data(n_groups=15, seed=1)
    perm = np.random.RandomState(0).permutation(y.shape[0])
    X, y, groups = X[perm], y[perm], groups[perm]
    cv = GroupKFold(n_splits=3)
    grid = {"n_estimators": [3, 10]}
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(GroupIdLGBMRanker(), grid, cv=cv,
                              scoring=micro_papk_scorer(k=4),
                              error_score="raise").fit(X, y, groups=groups)
    for c, n_estimators in enumerate(grid["n_estimators"]):
        for i, (train, test) in enumerate(cv.split(X, y, groups)):
            model = GroupIdLGBMRanker(n_estimators=n_estimators).fit(
                X[train], y[train], groups[train])
            expected = papk_score(y[test], model.predict(X[test]), k=4,
                                  groups=groups[test])
            assert search.cv_results_[f"split{i}_test_score"][c] == (
                pytest.approx(expected))


@pytest.mark.parametrize("factory", [papk_scorer, micro_papk_scorer])
@pytest.mark.parametrize("scorer_label", [None, 0, 1])
def test_scorers_score_a_ranker_fitted_with_pos_label_0_by_its_label(
        factory, scorer_label):
    # the ranker ranks label 0 first: without a pos_label of its own the
    # scorer scores that label as relevant, not the greater one (1 - score)
    from skpapk import PApKRanker

    X, y, groups = _data()
    ranker = PApKRanker(k=2, pos_label=0).fit(X, 1 - y, groups=groups)
    decision = ranker.decision_function(X)
    relevant = 0 if scorer_label is None else scorer_label
    sign = 1 if relevant == 0 else -1  # the scorer's label is ranked first
    options = {"groups": groups} if factory is micro_papk_scorer else {}
    expected = papk_score(1 - y, sign * decision, k=2, pos_label=relevant,
                          **options)
    with sklearn.config_context(enable_metadata_routing=True):
        got = factory(k=2, pos_label=scorer_label)(ranker, X, 1 - y, **options)
    assert got == pytest.approx(expected)
    if scorer_label is None and factory is micro_papk_scorer:
        assert got == pytest.approx(ranker.score(X, 1 - y, groups=groups))


def test_a_label_the_ranker_was_not_fitted_on_leaves_its_scores():
    # y recoded since the fit: the ranker's relevant rows first, the label
    # checked by the metric against y_true
    from skpapk import PApKRanker

    X, y, groups = _data()
    ranker = PApKRanker(k=2).fit(X, y, groups=groups)
    words = np.where(y == 1, "clicked", "skipped")
    assert papk_scorer(k=2, pos_label="clicked")(ranker, X, words) == \
        papk_score(y, ranker.decision_function(X), k=2)
    with pytest.raises(ValueError, match="pos_label=2 is not one of the labels"):
        papk_scorer(k=2, pos_label=2)(ranker, X, y)


def test_permutation_importance_gets_the_way_to_pass_groups():
    from sklearn.inspection import permutation_importance

    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match=r"\(permutation_importance\).*"
                           r"scoring=lambda est, X, y: micro_papk_scorer\(k\)"):
            permutation_importance(model, X, y, scoring=micro_papk_scorer(3),
                                   n_repeats=2, random_state=0)
        # the advice works: every row stays in place, only columns move
        result = permutation_importance(
            model, X, y, n_repeats=2, random_state=0,
            scoring=lambda est, X, y: micro_papk_scorer(3)(est, X, y,
                                                           groups=groups))
    assert result.importances_mean[0] > 0  # y depends on the first feature


@pytest.mark.parametrize("factory", [micro_papk_scorer, papk_scorer])
def test_the_undefined_groups_warning_of_a_scorer_names_its_option(factory):
    # "Pass zero_division=0.0 ...": to what, inside a search?
    X, y, groups = _data()
    model = LogisticRegression().fit(X, y)
    y = np.where(groups == 100, 1, y)  # the first user: relevant rows only
    metadata = {"groups": groups} if factory is micro_papk_scorer else {}
    if factory is papk_scorer:
        y = np.ones_like(y)  # one list, of relevant rows only
    name = factory.__name__
    with sklearn.config_context(enable_metadata_routing=True), pytest.warns(
            UndefinedMetricWarning, match=rf"e.g. {name}\(k, zero_division=np.nan\)"):
        factory(k=3)(model, X, y, **metadata)


def test_a_fold_of_a_string_rankers_irrelevant_label_only_is_undefined():
    # the fitted relevant label was used only when it was in y_true: a fold
    # of "skip" rows only raised "not a number; say whether it is the
    # relevant one with pos_label"
    from skpapk import PApKRanker

    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    groups = [0, 0, 1, 1]
    with sklearn.config_context(enable_metadata_routing=True):
        ranker = PApKRanker(k=1, pos_label="click").fit(
            X, ["skip", "click", "skip", "click"], groups=groups)
    scorer = micro_papk_scorer(1, zero_division=0.0)
    assert scorer(ranker, X, np.array(["skip"] * 4), groups=groups) == 0.0
    assert scorer(ranker, X, np.array(["click"] * 4), groups=groups) == 0.0
    with pytest.raises(ValueError, match="not a number"):  # recoded labels
        scorer(ranker, X, np.array(["no"] * 4), groups=groups)


@pytest.mark.parametrize("factory", [micro_papk_scorer, papk_scorer])
@pytest.mark.parametrize("fitted_on_bools", [False, True])
def test_labels_partly_recoded_since_the_fit_raise_as_score_does(
        factory, fitted_on_bools):
    # 0/1 recoded to 1/2: the fitted irrelevant label 1 (or True == 1) was
    # taken as the relevant one and the score silently turned upside down
    from skpapk import PApKRanker

    X, y, groups = _data()
    ranker = PApKRanker(k=2).fit(X, y.astype(bool) if fitted_on_bools else y,
                                 groups=groups)
    options = {"groups": groups} if factory is micro_papk_scorer else {}
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match=r"label\(s\) \[2\], which "
                           r"PApKRanker was not fitted on"):
            factory(k=2)(ranker, X, y + 1, **options)
        with pytest.raises(ValueError, match="was not fitted on"):
            ranker.score(X, y + 1, groups=groups)
        # the labels it was fitted on, or none of them, still score
        assert factory(k=2)(ranker, X, y, **options) == pytest.approx(
            papk_score(y, ranker.decision_function(X), k=2, **options))
