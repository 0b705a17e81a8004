"""Model files: plain JSON data, scores as the fitted model's, no pickle."""

import json
import pickle

import joblib
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from skpapk import PApKRanker
from skpapk.cli._model_io import (
    FORMAT_VERSION,
    LinearScorer,
    load_model,
    save_model,
    scorer_from_estimator,
)
from skpapk.cli._output import CLIError
from skpapk.datasets import make_papk_simulation

META = {"method": "max", "k": 3, "group_col": "user", "label_col": "rel",
        "feature_cols": ["a", "b", "c"], "labels": ["no", "yes"],
        "pos_label": "yes"}


@pytest.fixture(scope="module")
def data():
    X, y, groups = make_papk_simulation(8, n_pos=(3, 9), n_neg=(10, 20),
                                        n_features=3, random_state=0)
    X = X * [1.0, 10.0, 0.1] + [0.0, 5.0, -3.0]  # scales that matter
    return X, y, groups


@pytest.mark.parametrize("scaler", [None, MinMaxScaler(), StandardScaler()],
                         ids=["none", "minmax", "standard"])
# PApKRanker's smooth surrogate descends on these data (PApKMaxRanker's
# hinge, in 20 steps, stays above its start: a ConvergenceWarning)
@pytest.mark.parametrize("estimator", [PApKRanker(k=3), LogisticRegression()],
                         ids=["ranker", "logreg"])
def test_linear_scorer_equals_the_fitted_pipeline(tmp_path, data, scaler,
                                                  estimator):
    X, y, groups = data
    Xt = X if scaler is None else scaler.fit_transform(X)
    if isinstance(estimator, LogisticRegression):
        estimator.fit(Xt, y)
    else:
        estimator.fit(Xt, y, groups=groups)
    expected = estimator.decision_function(Xt)  # includes LR's intercept
    scorer = scorer_from_estimator(estimator, scaler)
    assert scorer.kind == "linear"
    np.testing.assert_allclose(scorer.decision_function(X), expected,
                               rtol=1e-10, atol=1e-12)
    path = tmp_path / "m.json"
    save_model(path, META, scorer)
    model = load_model(path)
    # JSON floats round-trip exactly
    np.testing.assert_array_equal(model.decision_function(X),
                                  scorer.decision_function(X))
    assert model["pos_label"] == "yes" and model["k"] == 3


def test_file_is_plain_json_with_a_version(tmp_path):
    path = tmp_path / "m.json"
    save_model(path, META, LinearScorer([0.5, -1.0, 2.0], 0.25))
    content = json.loads(path.read_text())
    assert content["format"] == "skpapk-model"
    assert content["format_version"] == FORMAT_VERSION
    assert content["scorer"] == {"kind": "linear", "coef": [0.5, -1.0, 2.0],
                                 "intercept": 0.25}


@pytest.mark.parametrize("writer", ["joblib", "pickle", "pickle0", "compressed"])
def test_pickles_are_refused_and_not_run(tmp_path, writer):
    path = tmp_path / "m.joblib"
    model = {"skpapk_model": 1, "k": 3}
    if writer == "joblib":
        joblib.dump(model, path)
    elif writer == "compressed":
        joblib.dump(model, path, compress=3)
    else:
        path.write_bytes(pickle.dumps(model, protocol=0 if writer == "pickle0"
                                      else pickle.HIGHEST_PROTOCOL))
    with pytest.raises(CLIError) as exc:
        load_model(path)
    message = str(exc.value)
    assert "pickle" in message and ("can run any code" in message
                                    or "are refused" in message)


class _Boom:
    """Unpickling this object would create a file: it must never happen."""

    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        return (open, (self.target, "w"))


def test_a_malicious_pickle_runs_nothing(tmp_path):
    target = tmp_path / "pwned"
    path = tmp_path / "evil.joblib"
    path.write_bytes(pickle.dumps(_Boom(str(target))))
    with pytest.raises(CLIError, match="pickle"):
        load_model(path)
    assert not target.exists()


def _write(tmp_path, content):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(content) if not isinstance(content, str)
                    else content)
    return path


def _valid():
    return {"format": "skpapk-model", "format_version": 1, **META,
            "scorer": {"kind": "linear", "coef": [1.0, 2.0, 3.0],
                       "intercept": 0.0}}


@pytest.mark.parametrize("change, message", [
    (lambda c: c.pop("format"), "no \"format\""),
    (lambda c: c.update(format_version=99), "newer skpapk"),
    (lambda c: c.update(k="3"), "'k' is missing or not an integer"),
    (lambda c: c.update(labels=["a", "b", "c"]), "labels two strings"),
    (lambda c: c.update(pos_label="maybe"), "labels two strings"),
    (lambda c: c.update(label_col="user"), "must be distinct column names"),
    (lambda c: c.update(feature_cols=["a", "a", "c"]), "must be distinct"),
    (lambda c: c["scorer"].update(kind="torch"), "kind 'torch'"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0]), "3 finite coefficients"),
    (lambda c: c["scorer"].update(coef=[1.0, 2.0, "x"]), "3 finite coefficients"),
    (lambda c: c.pop("scorer"), "no scorer"),
])
def test_invalid_model_files(tmp_path, change, message):
    content = _valid()
    change(content)
    with pytest.raises(CLIError, match=message):
        load_model(_write(tmp_path, content))


def test_not_json_missing_and_folder(tmp_path):
    with pytest.raises(CLIError, match="not JSON"):
        load_model(_write(tmp_path, "user,label\n1,2\n"))
    with pytest.raises(CLIError, match="NaN"):  # json.loads accepts NaN ...
        save_model(tmp_path / "n.json", META, LinearScorer([np.nan, 1, 2]))
    with pytest.raises(CLIError, match="no such model file"):
        load_model(tmp_path / "nope.json")
    with pytest.raises(CLIError, match="is a folder"):
        load_model(tmp_path)


def test_lightgbm_booster_in_its_own_text_format(tmp_path, data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, groups = data
    order = np.argsort(groups, kind="stable")
    sizes = np.bincount(groups)
    ranker = lightgbm.LGBMRanker(n_estimators=15, num_leaves=4, min_child_samples=2,
                                 verbose=-1, random_state=0)
    ranker.fit(X[order], y[order], group=sizes)
    scorer = scorer_from_estimator(ranker)
    assert scorer.kind == "lightgbm"
    path = tmp_path / "m.json"
    save_model(path, META, scorer)
    content = json.loads(path.read_text())
    assert content["scorer"]["booster"].startswith("tree\nversion=")
    model = load_model(path)
    np.testing.assert_allclose(model.decision_function(X), ranker.predict(X),
                               rtol=1e-12)
    # best_iteration_ is kept: a booster with early stopping predicts with it
    scorer.num_iteration = 5
    save_model(path, META, scorer)
    np.testing.assert_allclose(load_model(path).decision_function(X),
                               ranker.predict(X, num_iteration=5), rtol=1e-12)
    content["scorer"]["booster"] = "tree\nnot a model"
    with pytest.raises(CLIError, match="LightGBM cannot read"):
        load_model(_write(tmp_path, content))
    with pytest.raises(TypeError, match="without feature scaling"):
        scorer_from_estimator(ranker, MinMaxScaler().fit(X))


def test_unsavable_estimator(data):
    from sklearn.ensemble import HistGradientBoostingClassifier

    X, y, _ = data
    model = HistGradientBoostingClassifier(max_iter=3).fit(X, y)
    with pytest.raises(CLIError, match="cannot be saved as plain data"):
        scorer_from_estimator(model)
