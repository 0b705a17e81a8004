"""Tests of check_groups_routing, the groups check shared by every ranker."""

import warnings

import numpy as np
import pytest
import sklearn

from skpapk.exceptions import MissingGroupsWarning
from skpapk.utils._routing import check_groups_routing


class Estimator:
    """A stand-in ranker: the helper only sets ``_n_fit_groups`` on it."""


def call_from_module(module, func):
    """Call ``func()`` from a frame whose module is named ``module``."""
    namespace = {"__name__": module, "func": func}
    exec("def caller():\n    return func()\n", namespace)
    return namespace["caller"]()


def messages_of(func):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        func()
    return [str(w.message) for w in caught
            if issubclass(w.category, MissingGroupsWarning)]


@pytest.mark.parametrize("module", [
    "sklearn.model_selection._validation",
    "sklearn.model_selection._search",
    "sklearn.model_selection._search_successive_halving",
])
@pytest.mark.parametrize("method", ["fit", "partial_fit", "score"])
def test_warns_inside_model_selection_without_routing(module, method):
    est = Estimator()
    messages = messages_of(lambda: call_from_module(
        module, lambda: check_groups_routing(est, None, method=method)))
    assert len(messages) == 1
    assert messages[0].startswith(f"Estimator.{method} got groups=None inside")
    assert "sklearn.set_config(enable_metadata_routing=True)" in messages[0]


@pytest.mark.parametrize("module", ["sklearn.model_selection._validation",
                                    "sklearn.pipeline", "my_script"])
def test_no_warning_with_groups_with_routing_or_outside_a_search(module):
    est = Estimator()

    def check(groups):
        return lambda: call_from_module(
            module, lambda: check_groups_routing(est, groups, method="fit"))

    assert messages_of(check([0, 1])) == []
    with sklearn.config_context(enable_metadata_routing=True):
        assert messages_of(check(None)) == []
    if module != "sklearn.model_selection._validation":
        assert messages_of(check(None)) == []


def test_records_the_fit_groups_and_warns_at_score():
    est = Estimator()
    check_groups_routing(est, [0, 1, 1], method="fit", n_groups=2)
    assert est._n_fit_groups == 2
    msgs = messages_of(lambda: check_groups_routing(est, None, method="score"))
    assert len(msgs) == 1 and "fitted on 2 groups" in msgs[0]
    assert messages_of(lambda: check_groups_routing(est, [0], method="score")) == []
    check_groups_routing(est, None, method="fit", n_groups=1)  # reset
    assert est._n_fit_groups == 1
    assert messages_of(lambda: check_groups_routing(est, None, method="score")) == []
    check_groups_routing(est, [3], method="partial_fit", n_groups=1, reset=False)
    assert est._n_fit_groups == 2


def test_unfitted_estimator_scored_without_groups_does_not_warn():
    assert messages_of(
        lambda: check_groups_routing(Estimator(), None, method="score")) == []




def call_search_score(func, module="sklearn.model_selection._search"):
    """``GridSearchCV().score(func)`` with ``score`` a frame of ``module``."""
    namespace = {"__name__": module}
    exec("def score(self, func):\n    return func()\n", namespace)
    search = type("GridSearchCV", (), {"score": namespace["score"]})()
    return search.score(func)


@pytest.mark.parametrize("routing", [False, True])
def test_a_search_s_own_score_is_not_a_fold(routing):
    # gs.score(X, y) after the search: "scored each test fold as ONE list"
    # (routing off) and "turn metadata routing on" (routing on) were wrong
    est = Estimator()
    check_groups_routing(est, [0, 1], method="fit", n_groups=2)
    with sklearn.config_context(enable_metadata_routing=routing):
        messages = messages_of(lambda: call_search_score(
            lambda: check_groups_routing(est, None, method="score")))
    assert len(messages) == 1
    assert messages[0].startswith(
        "Estimator.score got groups=None from GridSearchCV.score")
    assert "search.score(X, y, groups=groups)" in messages[0]
    assert "test fold" not in messages[0]
    assert ("Turn metadata routing on" in messages[0]) is False
    assert ("turn metadata routing on" in messages[0]) is not routing
    # with routing off, the refit got no groups: best_estimator_.score with
    # groups would score a model fitted as one list (and a Pipeline's score
    # drops them); a single group's groups cannot be passed to search.score
    assert "best_estimator_" not in messages[0]
    assert ("fit the search with groups=groups" in messages[0]) is not routing
    assert ("groups=np.zeros(len(X))" in messages[0]) is routing


def test_a_search_s_score_inside_an_outer_cross_validation_is_a_fold():
    est = Estimator()
    messages = messages_of(lambda: call_from_module(
        "sklearn.model_selection._validation", lambda: call_search_score(
            lambda: check_groups_routing(est, None, method="score"))))
    assert len(messages) == 1 and "scored each test fold as ONE list" in messages[0]


def test_search_score_of_one_group_with_routing_does_not_warn():
    est = Estimator()
    check_groups_routing(est, None, method="fit", n_groups=1)
    with sklearn.config_context(enable_metadata_routing=True):
        assert messages_of(lambda: call_search_score(
            lambda: check_groups_routing(est, None, method="score"))) == []


def test_no_routing_advice_when_routing_is_on():
    est = Estimator()
    check_groups_routing(est, [0, 1], method="fit", n_groups=2)
    with sklearn.config_context(enable_metadata_routing=True):
        messages = messages_of(
            lambda: check_groups_routing(est, None, method="score"))
    assert len(messages) == 1 and "fitted on 2 groups" in messages[0]
    assert "enable_metadata_routing" not in messages[0]


@pytest.mark.parametrize("routing", [False, True])
def test_permutation_importance_gets_its_own_advice(routing):
    est = Estimator()
    check_groups_routing(est, [0, 1], method="fit", n_groups=2)
    with sklearn.config_context(enable_metadata_routing=routing):
        messages = messages_of(lambda: call_from_module(
            "sklearn.inspection._permutation_importance",
            lambda: check_groups_routing(est, None, method="score")))
    assert len(messages) == 1
    assert "permutation_importance passes its scorer no groups" in messages[0]
    assert ("scoring=lambda est, X, y: micro_papk_scorer(k)(est, X, y, "
            "groups=groups)") in messages[0]
    assert "enable_metadata_routing" not in messages[0]


def test_rfecv_fit_is_model_selection_but_rfe_fit_is_not():
    from sklearn.feature_selection import RFE, RFECV

    est = Estimator()
    namespace = {"__name__": "sklearn.feature_selection._rfe"}
    exec("def fit(self, func):\n    return func()\n", namespace)

    def messages_in_fit_of(selector):
        return messages_of(lambda: namespace["fit"](
            selector, lambda: check_groups_routing(est, None, method="fit")))

    rfecv = messages_in_fit_of(RFECV(Estimator()))
    assert len(rfecv) == 1 and "RFECV" in rfecv[0]
    assert "sklearn.set_config(enable_metadata_routing=True)" in rfecv[0]
    assert messages_in_fit_of(RFE(Estimator())) == []


def test_a_fit_of_many_rows_without_groups_is_told_of_groups():
    # one list of 56,051 MovieLens rows ran for minutes, without a word
    from skpapk import PApKAvgRanker
    from skpapk.utils._routing import ONE_LIST_ROWS

    rng = np.random.default_rng(0)
    n = ONE_LIST_ROWS + 1
    X, y = rng.normal(size=(n, 2)), (rng.random(n) < 0.2).astype(int)
    ranker = PApKAvgRanker(max_iter=1, tol=None)
    with pytest.warns(MissingGroupsWarning, match="its 10001 rows are fitted as "
                                                  "ONE group"):
        ranker.fit(X, y)
    with pytest.warns(MissingGroupsWarning, match="its 10001 rows are fitted as "
                                                  "ONE group"):
        ranker.partial_fit(X, y)  # (it said nothing)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingGroupsWarning)
        ranker.fit(X, y, groups=np.zeros(n))  # one list, said so
        ranker.fit(X[:ONE_LIST_ROWS], y[:ONE_LIST_ROWS])  # a list of that size
