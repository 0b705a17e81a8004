"""The checks on a tuned model: flat scores, worse than random, grid edges."""

import numpy as np
import pytest

from skpapk.cli._output import CLIError, Progress
from skpapk.cli._tuning import Settings, Tuned, check_tuned, edge_notes, is_flat


class _Scores:
    """A fitted 'estimator' whose scores are given."""

    def __init__(self, sign):
        self.sign = sign

    def decision_function(self, X):
        return self.sign * X[:, 0]


def _check(sign, capsys, params=None, grid=None, X=None):
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(20), 15)
    y = (rng.random(groups.shape[0]) < 0.3).astype(int)
    if X is None:
        X = (y + rng.normal(scale=0.3, size=y.shape[0]))[:, None]
    tuned = Tuned(params or {}, None, [], None, _Scores(sign), [], 0.0, grid or {})
    check_tuned(tuned, Settings("avg", 5, "none", 0), X, y, groups,
                Progress(), "avg")
    return capsys.readouterr().err


def test_a_model_worse_than_random_on_its_training_rows_is_reported(capsys):
    assert "no better than a random ranking" not in _check(+1, capsys)
    err = _check(-1, capsys)
    assert "avg: warning: the model ranks its own training rows no better than " \
           "a random ranking (micro-pAp@5 " in err


def test_flat_scores_are_an_error(capsys):
    X = np.ones((300, 1))
    with pytest.raises(CLIError, match="gives every row of each user the same "
                                       "score") as exc:
        _check(1, capsys, X=X)
    assert exc.value.status == 1


def test_grid_edges_are_noted(capsys):
    err = _check(1, capsys, params={"eta0": 0.01, "alpha": 0.1},
                 grid={"eta0": [0.01, 0.1, 1.0], "alpha": [0.001, 0.1, 10.0]})
    assert "note: eta0=0.01 is the smallest value of the grid" in err
    assert "alpha=" not in err
    assert edge_notes({"C": 1.0}, {"C": [1.0]}) == []  # one value: no edge


def test_is_flat_per_group():
    groups = np.array([0, 0, 1, 1])
    assert is_flat(np.array([1.0, 1.0, 2.0, 2.0]), groups)
    assert not is_flat(np.array([1.0, 1.0, 2.0, 3.0]), groups)
    assert not is_flat(np.array([1.0, 1.0, 2.0, 2.0]))  # not flat over all rows
    assert is_flat(np.array([1.0, np.nan, 2.0, 3.0]), groups)
