"""The ``boost`` method path, with a stand-in for the coming PApKBoostRanker.

The registry adds ``boost`` when ``skpapk.PApKBoostRanker`` exists and
LightGBM is installed. Until the real ranker lands, a small LGBMRanker
wrapper with its interface (``fit(X, y, groups)``, ``booster_``,
``best_iteration_``, ``decision_function``) stands in for it, so that the
whole path is tested: fit, the LightGBM model file, score and recommend.
"""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import skpapk
from skpapk.cli import _methods, main
from skpapk.cli._csv import read_csv
from skpapk.cli._files import load_model

lightgbm = pytest.importorskip("lightgbm")


class StandInBoostRanker(BaseEstimator):
    """LGBMRanker (lambdarank) with the interface of PApKBoostRanker."""

    __metadata_request__fit = {"groups": True}  # as the library's rankers

    def __init__(self, *, k=10, n_estimators=20, learning_rate=0.1, num_leaves=7,
                 random_state=None):
        self.k = k
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.random_state = random_state

    def fit(self, X, y, groups=None):
        codes = np.unique(groups, return_inverse=True)[1]
        order = np.argsort(codes, kind="stable")
        model = lightgbm.LGBMRanker(
            n_estimators=self.n_estimators, learning_rate=self.learning_rate,
            num_leaves=self.num_leaves, min_child_samples=2, n_jobs=1,
            random_state=self.random_state, deterministic=True,
            force_row_wise=True, verbose=-1)
        model.fit(X[order], np.asarray(y)[order], group=np.bincount(codes))
        self.booster_ = model.booster_
        self.best_iteration_ = model.best_iteration_
        return self

    def decision_function(self, X):
        return self.booster_.predict(X, num_iteration=self.best_iteration_ or None)


@pytest.fixture
def with_boost(monkeypatch):
    monkeypatch.setattr(skpapk, "PApKBoostRanker", StandInBoostRanker,
                        raising=False)
    monkeypatch.setattr(_methods, "_METHODS", None)  # rebuilt, then restored
    yield


def test_boost_is_one_registry_entry(with_boost):
    methods = _methods.available_methods()
    assert "boost" in methods and methods["boost"].kind == "lightgbm"
    assert "boost" in _methods.parse_methods("default")


def test_boost_fit_score_recommend_through_a_lightgbm_model_file(
        with_boost, dataset, tmp_path, capsys):
    path = str(dataset[0])
    common = ["--group-col", "user", "--label-col", "rel", "--method", "boost",
              "--k", "3", "-q"]
    models = [tmp_path / f"b{i}.json" for i in range(2)]
    for model in models:
        assert main(["fit", path, *common, "--out", str(model)]) == 0
    assert models[0].read_bytes() == models[1].read_bytes()  # reproducible
    content = json.loads(models[0].read_text())
    assert content["scorer"]["kind"] == "lightgbm"
    assert content["scale"] == "none"
    assert content["scorer"]["booster"].startswith("tree\n")
    # the file's booster scores as a model fitted the same way
    data = read_csv(path, group_col="user", label_col="rel")
    y = (data.labels == "yes").astype(int)
    reference = StandInBoostRanker(k=3, random_state=0).fit(
        data.X, y, groups=data.groups)
    np.testing.assert_allclose(load_model(models[0]).decision_function(data.X),
                               reference.decision_function(data.X), rtol=1e-12)
    capsys.readouterr()
    assert main(["score", path, "--model", str(models[0]), "--format", "csv",
                 "-q"]) == 0
    assert capsys.readouterr().out.startswith("metric,model,random\n")
    top = tmp_path / "top.csv"
    assert main(["recommend", path, "--model", str(models[0]), "--out", str(top),
                 "-q"]) == 0
    assert len(top.read_text().splitlines()) == 1 + 3 * 12
