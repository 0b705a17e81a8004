"""Rankers without ``groups`` where they were most likely lost: a warning.

Metadata routing is off by default in scikit-learn; a search then fits every
candidate on its training rows as one group and scores every test fold as
one list. The rankers say so (MissingGroupsWarning naming
``sklearn.set_config(enable_metadata_routing=True)``), and say so too when a
ranker fitted on several groups is scored without them. Also: the labels
given to ``score`` must be the fitted ones, and any two numbers are labels.
"""

import re
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    cross_val_score,
    cross_validate,
    learning_curve,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skpapk import (
    GreedyPApKRanker,
    PApKAvgRanker,
    PAUCRanker,
    SelectPApKRanker,
)
from skpapk.exceptions import MissingGroupsWarning
from skpapk.metrics import papk_score

ROUTING_FIX = re.escape("sklearn.set_config(enable_metadata_routing=True)")
RANKERS = [
    PApKAvgRanker(k=3, max_iter=5, tol=None),
    PAUCRanker(k=3, max_iter=5, tol=None),
    GreedyPApKRanker(k=3, n_estimators=2, random_state=0),
    SelectPApKRanker(k=3, max_iter=2),
]
IDS = [type(r).__name__ for r in RANKERS]


def make_data(seed=0, n_groups=12, n_per_group=16, d=3):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), n_per_group)
    y = np.tile(np.r_[np.ones(4, int), np.zeros(n_per_group - 4, int)], n_groups)
    X = rng.normal(size=(y.shape[0], d)) - y[:, None]
    return X, y, groups


@pytest.fixture(autouse=True)
def _quiet_convergence():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


def missing_groups_messages(func):
    """Messages of the MissingGroupsWarnings that ``func()`` issues."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MissingGroupsWarning)
        func()
    return [str(w.message) for w in caught
            if issubclass(w.category, MissingGroupsWarning)]


# --- inside a search, routing off -----------------------------------------

@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_grid_search_without_routing_warns_naming_the_fix(ranker):
    X, y, g = make_data()
    search = GridSearchCV(ranker, {"k": [2, 3]}, cv=GroupKFold(3))
    messages = missing_groups_messages(lambda: search.fit(X, y, groups=g))
    name = type(ranker).__name__
    fit = [m for m in messages if m.startswith(f"{name}.fit got groups=None")]
    score = [m for m in messages if m.startswith(f"{name}.score got groups=None")]
    # 2 candidates x 3 folds fitted and scored, plus the refit
    assert len(fit) == 7 and len(score) == 6
    assert all(re.search(ROUTING_FIX, m) for m in messages)
    assert "ONE group" in fit[0] and "ONE list" in score[0]


@pytest.mark.parametrize("routine", ["cross_val_score", "learning_curve"])
def test_other_model_selection_routines_without_routing_warn(routine):
    X, y, g = make_data()
    ranker = PApKAvgRanker(k=3, max_iter=5, tol=None)
    if routine == "cross_val_score":
        def run():
            cross_val_score(ranker, X, y, groups=g, cv=GroupKFold(3))
    else:
        def run():
            learning_curve(ranker, X, y, groups=g, cv=GroupKFold(3),
                           train_sizes=[0.5, 1.0])
    messages = missing_groups_messages(run)
    assert any(m.startswith("PApKAvgRanker.fit") for m in messages)
    assert any(m.startswith("PApKAvgRanker.score") for m in messages)
    # the advice works for these routines: params=, not groups= (which they
    # refuse with routing on); it said "pass groups to the search's fit"
    assert all("params={'groups': groups}" in m for m in messages)
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="params"):
            cross_val_score(ranker, X, y, groups=g, cv=GroupKFold(3))
        assert missing_groups_messages(lambda: cross_val_score(
            ranker, X, y, cv=GroupKFold(3), params={"groups": g})) == []


def test_groups_given_to_fit_but_not_score_without_routing_warn_at_score():
    # without routing, cross_validate's params go to fit only: fit is per
    # user, the test folds are still scored as one list
    X, y, g = make_data()
    ranker = PApKAvgRanker(k=3, max_iter=5, tol=None)
    messages = missing_groups_messages(lambda: cross_validate(
        ranker, X, y, groups=g, cv=GroupKFold(3), params={"groups": g}))
    assert messages and all(m.startswith("PApKAvgRanker.score") for m in messages)
    assert all(re.search(ROUTING_FIX, m) for m in messages)


@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_search_with_routing_does_not_warn(ranker):
    X, y, g = make_data()
    search = GridSearchCV(ranker, {"k": [2, 3]}, cv=GroupKFold(3))
    with sklearn.config_context(enable_metadata_routing=True):
        messages = missing_groups_messages(lambda: search.fit(X, y, groups=g))
    assert messages == []


def test_routing_changes_the_search_scores_that_the_warning_is_about():
    # the warning is about a real difference: per-user scores with routing,
    # one-list scores without
    X, y, g = make_data(n_groups=15)
    search = GridSearchCV(PApKAvgRanker(k=3, max_iter=5, tol=None),
                          {"eta0": [0.01, 1.0]}, cv=GroupKFold(3))
    with pytest.warns(MissingGroupsWarning):
        off = search.fit(X, y, groups=g).cv_results_["mean_test_score"]
    with sklearn.config_context(enable_metadata_routing=True):
        on = search.fit(X, y, groups=g).cv_results_["mean_test_score"]
    assert not np.allclose(off, on)


def test_rfecv_without_routing_warns_at_fit():
    # RFECV gave groups to its splitter only: each fold's ranker was fitted
    # on all its rows as one group, without a word (cross_val_score warned)
    from sklearn.feature_selection import RFE, RFECV

    from skpapk.metrics import papk_scorer

    X, y, g = make_data()
    ranker = PApKAvgRanker(k=3, max_iter=5, tol=None)
    selector = RFECV(ranker, cv=GroupKFold(3), scoring=papk_scorer(3))
    messages = missing_groups_messages(lambda: selector.fit(X, y, groups=g))
    assert messages and all(m.startswith("PApKAvgRanker.fit got groups=None "
                                         "inside") for m in messages)
    assert all(re.search(ROUTING_FIX, m) for m in messages)
    with sklearn.config_context(enable_metadata_routing=True):
        assert missing_groups_messages(lambda: selector.fit(X, y, groups=g)) == []
    # a plain RFE fits the ranker as asked: no warning
    assert missing_groups_messages(lambda: RFE(ranker).fit(X, y)) == []


@pytest.mark.parametrize("routing", [False, True])
def test_search_score_without_groups_names_the_search_score(routing):
    # gs.score(X, y) is the user's call, not a fold: the message named test
    # folds (routing off) or said to turn routing on (routing on)
    X, y, g = make_data()
    search = GridSearchCV(PApKAvgRanker(k=3, max_iter=5, tol=None),
                          {"k": [2, 3]}, cv=GroupKFold(3))
    with sklearn.config_context(enable_metadata_routing=routing):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MissingGroupsWarning)
            search.fit(X, y, groups=g)
        messages = missing_groups_messages(lambda: search.score(X, y))
        assert len(messages) == 1
        assert messages[0].startswith(
            "PApKAvgRanker.score got groups=None from GridSearchCV.score")
        assert "test fold" not in messages[0]
        assert "search.score(X, y, groups=groups)" in messages[0]
        assert ("sklearn.set_config(enable_metadata_routing=True)"
                in messages[0]) is not routing
        if routing:  # the advice works
            assert missing_groups_messages(
                lambda: search.score(X, y, groups=g)) == []


@pytest.mark.parametrize("routing", [False, True])
@pytest.mark.parametrize("in_pipeline", [False, True])
def test_permutation_importance_without_groups_gets_a_way_to_pass_them(
        routing, in_pipeline):
    # (a tester) the advice was est.score(X, y, groups=groups), which a
    # Pipeline does not pass to its ranker while routing is off: every
    # permutation was scored as one list, the importances nearly all 0
    from sklearn.inspection import permutation_importance

    from skpapk.metrics import micro_papk_scorer

    X, y, g = make_data()
    ranker = PApKAvgRanker(k=3, max_iter=5, tol=None)
    with sklearn.config_context(enable_metadata_routing=routing):
        if in_pipeline and routing:
            model = make_pipeline(StandardScaler(), ranker.set_fit_request(
                groups=True)).fit(X, y, groups=g)
        elif in_pipeline:
            model = make_pipeline(StandardScaler(), ranker).fit(
                X, y, papkavgranker__groups=g)
        else:
            model = ranker.fit(X, y, groups=g)
        messages = missing_groups_messages(lambda: permutation_importance(
            model, X, y, n_repeats=1, random_state=0))
        assert messages and "enable_metadata_routing" not in messages[0]
        assert ("scoring=lambda est, X, y: micro_papk_scorer(3)(est, X, y, "
                "groups=groups)") in messages[0]
        # the advice works, and scores each group: the same importances as
        # the ranker's own score given the groups
        advised = permutation_importance(
            model, X, y, n_repeats=2, random_state=0,
            scoring=lambda est, X, y: micro_papk_scorer(3)(est, X, y, groups=g))
        by_hand = permutation_importance(
            model, X, y, n_repeats=2, random_state=0,
            scoring=lambda est, X, y: papk_score(
                y, est.decision_function(X), k=3, groups=g))
    np.testing.assert_array_equal(advised.importances, by_hand.importances)
    assert np.abs(advised.importances_mean).max() > 0


# --- outside a search --------------------------------------------------------

@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_score_without_groups_after_fitting_several_groups_warns(ranker):
    X, y, g = make_data()
    ranker = sklearn.clone(ranker).fit(X, y, groups=g)
    with pytest.warns(MissingGroupsWarning,
                      match="fitted on 12 groups.*" + ROUTING_FIX) as record:
        ranker.score(X, y)
    assert record[0].filename == __file__  # the warning names the user's line
    assert missing_groups_messages(lambda: ranker.score(X, y, groups=g)) == []


@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_recommend_without_groups_ranks_one_list_without_warning(ranker):
    # one user's candidates, the usual call of a served model: no warning
    X, y, g = make_data()
    ranker = sklearn.clone(ranker).fit(X, y, groups=g)
    one = g == 0
    assert missing_groups_messages(lambda: ranker.recommend(X[one])) == []
    assert ranker.recommend(X).indptr.tolist() == [0, 3]


@pytest.mark.parametrize("routing", [False, True])
def test_pipeline_score_without_routing_names_the_dropped_groups(routing):
    X, y, g = make_data()
    with sklearn.config_context(enable_metadata_routing=routing):
        ranker = PApKAvgRanker(k=3, max_iter=5, tol=None)
        pipe = make_pipeline(StandardScaler(), ranker).fit(
            X, y, **({"groups": g} if routing else {"papkavgranker__groups": g}))
        # routing off, scikit-learn's Pipeline.score drops the groups
        messages = missing_groups_messages(lambda: pipe.score(X, y, groups=g))
    if routing:
        assert messages == []
    else:
        assert len(messages) == 1 and "Pipeline gives its last step no groups" \
            in messages[0] and "pass groups to the pipeline's score" in messages[0]
    # without a pipeline, the message does not blame one
    plain = missing_groups_messages(lambda: pipe[-1].score(X, y))
    assert len(plain) == 1 and "Pipeline" not in plain[0]


@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_plain_fit_and_score_of_one_group_do_not_warn(ranker):
    X, y, g = make_data()
    one = g == 0
    ranker = sklearn.clone(ranker)
    messages = missing_groups_messages(
        lambda: ranker.fit(X[one], y[one]).score(X[one], y[one]))
    assert messages == []
    # fitted on one group given explicitly: scoring without groups is fine
    assert missing_groups_messages(
        lambda: ranker.fit(X[one], y[one], groups=g[one]).score(X, y)) == []


def test_partial_fit_counts_the_groups_of_every_chunk():
    X, y, g = make_data()
    ranker = PApKAvgRanker(k=3)
    first, second = g == 0, g == 1
    ranker.partial_fit(X[first], y[first], groups=g[first])
    assert missing_groups_messages(lambda: ranker.score(X[first], y[first])) == []
    ranker.partial_fit(X[second], y[second], groups=g[second])
    with pytest.warns(MissingGroupsWarning, match="fitted on 2 groups"):
        ranker.score(X, y)
    ranker.fit(X[first], y[first])  # a fit starts the count again
    assert missing_groups_messages(lambda: ranker.score(X, y)) == []


# --- labels of score -------------------------------------------------------

@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_score_on_recoded_labels_raises_instead_of_inverting(ranker):
    # a 0/1 model scored on 1/2 labels took 1 as relevant: 0.081, not 0.919
    X, y, g = make_data()
    ranker = sklearn.clone(ranker).fit(X, y, groups=g)
    with pytest.raises(ValueError, match=re.escape(
            "y has the label(s) [2], which " + type(ranker).__name__
            + " was not fitted on") + r".*of which 1 is relevant.*Recode y to "
            r"the fitted labels \(e\.g\. y = np\.where\(y == relevant_label, 1, 0\)\)"):
        ranker.score(X, y + 1, groups=g)
    # the fitted labels in another dtype are the same labels
    assert ranker.score(X, y.astype(float), groups=g) == ranker.score(X, y, groups=g)
    assert ranker.score(X, y == 1, groups=g) == ranker.score(X, y, groups=g)


@pytest.mark.parametrize("ranker", RANKERS, ids=IDS)
def test_any_two_numbers_are_labels(ranker):
    # {0, 0.5} was rejected as "continuous" although any two labels work
    X, y, g = make_data()
    half = np.where(y == 1, 0.5, 0.0)
    ref = sklearn.clone(ranker).fit(X, y, groups=g)
    ranker = sklearn.clone(ranker).fit(X, half, groups=g)
    np.testing.assert_array_equal(ranker.classes_, [0.0, 0.5])
    np.testing.assert_array_equal(ranker.coef_, ref.coef_)
    assert ranker.score(X, half, groups=g) == ref.score(X, y, groups=g)
