"""matplotlib is an optional extra: importing skpapk must not need it."""

import builtins
import subprocess
import sys

import numpy as np
import pytest

from skpapk import PApKMaxRanker
from skpapk.inspection import (
    GroupScoreDisplay,
    SurrogateDisplay,
    TrainingCurveDisplay,
    check_matplotlib_support,
)


def test_importing_skpapk_does_not_import_matplotlib():
    code = (
        "import sys\n"
        "import skpapk, skpapk.inspection, skpapk.metrics, skpapk.losses\n"
        "import skpapk.datasets, skpapk.model_selection\n"
        "from skpapk.inspection import GroupScoreDisplay\n"
        "assert 'matplotlib' not in sys.modules, sorted(\n"
        "    m for m in sys.modules if m.startswith('matplotlib'))\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


@pytest.fixture
def no_matplotlib(monkeypatch):
    """Make ``import matplotlib`` (and its submodules) fail."""
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)


MESSAGE = r"requires matplotlib; install it with pip install 'skpapk\[plot\]'"


def test_check_matplotlib_support_names_the_plot_extra(no_matplotlib):
    with pytest.raises(ImportError, match="Foo.plot " + MESSAGE):
        check_matplotlib_support("Foo.plot")


def test_every_entry_point_raises_a_clear_import_error(no_matplotlib):
    y = [1, 0, 1, 0]
    # the relevant rows outscore the irrelevant ones under w > 0: the toy
    # fits below descend from w_0 (no ConvergenceWarning)
    X = np.array([[2.0], [0.0], [3.0], [1.0]])
    G, T = GroupScoreDisplay, TrainingCurveDisplay
    calls = {
        "GroupScoreDisplay.from_predictions": lambda: G.from_predictions(
            y, [1, 0, 1, 0], k=1),
        "GroupScoreDisplay.from_estimator": lambda: GroupScoreDisplay.from_estimator(
            PApKMaxRanker(k=1, max_iter=2, tol=None).fit(X, y), X, y),
        "GroupScoreDisplay.plot": lambda: GroupScoreDisplay(
            scores={"a": [0.5]}, n_pos=[1]).plot(),
        "TrainingCurveDisplay.from_estimator": lambda: T.from_estimator(
            PApKMaxRanker(k=1, max_iter=2, tol=None).fit(X, y)),
        "TrainingCurveDisplay.plot": lambda: TrainingCurveDisplay(
            objective=[1.0, 0.5]).plot(),
        "SurrogateDisplay.from_estimator": lambda: SurrogateDisplay.from_estimator(
            PApKMaxRanker(k=1), X, y),
        "SurrogateDisplay.from_iterates": lambda: SurrogateDisplay.from_iterates(
            np.zeros((1, 1)), X, y, k=1),
        "SurrogateDisplay.plot": lambda: SurrogateDisplay(
            values=np.zeros((2, 1)), columns=("papk_risk",)).plot(),
    }
    for caller, call in calls.items():
        match = caller.replace(".", r"\.") + " " + MESSAGE
        with pytest.raises(ImportError, match=match):
            call()
    assert "matplotlib" not in sys.modules
