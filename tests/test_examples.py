"""Run every example script of ``examples/`` in a subprocess.

Each script must exit with status 0 and print the lines that show its
point (the numbers themselves are checked for range where they are stable).
"""

import functools
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: Examples that need an optional dependency, and which one.
NEEDS = {"plot_boost_ranker.py": "lightgbm"}


@functools.lru_cache(maxsize=None)  # each script runs once per session
def run_example(name):
    needed = NEEDS.get(name)
    if needed is not None and importlib.util.find_spec(needed) is None:
        pytest.skip(f"{name} needs {needed}: pip install 'skpapk[{needed}]'")
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True,
                          text=True, timeout=300, cwd=EXAMPLES, env=env)
    assert proc.returncode == 0, (
        f"{name} exited with status {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def _floats(pattern, text):
    return [float(v) for v in re.findall(pattern, text)]


def test_plot_grid_search():
    out = run_example("plot_grid_search.py")
    # both protocols report a best (eta0, alpha) from the grid and a CV score
    for cv in ("GroupKFold", "WithinGroupKFold"):
        line = next(line for line in out.splitlines() if line.startswith(cv + ":"))
        assert "'eta0'" in line and "'alpha'" in line
        (score,) = _floats(r"micro-pAp@5 = ([0-9.]+)", line)
        assert 0.5 < score <= 1.0
    tuned, random = _floats(r"(?:ranker|ranking) ([0-9.]+)", out.splitlines()[-1])
    # the tuned ranker must beat a random ranking of the same users by far
    assert tuned > random + 0.3


def test_plot_cross_val():
    out = run_example("plot_cross_val.py")
    scores = dict(re.findall(r"^(.+?)\s+micro-pAp@5 = ([0-9.]+)", out, flags=re.M))
    scores = {name.strip(): float(value) for name, value in scores.items()}
    assert set(scores) >= {
        "avg ranker", "StandardScaler -> avg ranker",
        "StandardScaler -> Nystroem -> avg ranker",
        "random ranking (exact expectation)",
    }
    random = scores.pop("random ranking (exact expectation)")
    assert all(value > random for value in scores.values())
    # on badly scaled features, scaling first helps the subgradient ranker
    assert scores["StandardScaler -> avg ranker"] > scores["avg ranker"]


def test_plot_boost_ranker():
    out = run_example("plot_boost_ranker.py")
    grown, kept = map(int, re.search(r"trees grown: (\d+), kept: (\d+)", out).groups())
    assert 1 <= kept <= grown
    scores = dict(re.findall(r"^(\w.+?)\s+micro-pAp@5 = ([0-9.]+)$", out,
                             flags=re.M))
    scores = {name.strip(): float(value) for name, value in scores.items()}
    random = scores.pop("random ranking (exact expectation)")
    assert set(scores) == {"PApKBoostRanker", "HistGradientBoostingClassifier"}
    # both tree models rank far above chance
    assert all(value > random + 0.15 for value in scores.values())
    gap, se = map(float, re.search(r"ranker - classifier: ([-+0-9.]+) \(standard "
                                   r"error ([0-9.]+)", out).groups())
    assert abs(gap - (scores["PApKBoostRanker"]
                      - scores["HistGradientBoostingClassifier"])) < 2e-3
    assert se > 0


def test_plot_leaderboard():
    out = run_example("plot_leaderboard.py")
    board = re.findall(r"^(.+?)\s+micro-pAp@10 = ([0-9.]+)", out, flags=re.M)
    names = [name.strip() for name, _ in board]
    scores = [float(value) for _, value in board]
    assert names[-1] == "random ranking (exact expectation)"
    expected = {"PApKRanker", "HistGradientBoostingClassifier", "LogisticRegression"}
    if importlib.util.find_spec("lightgbm") is not None:
        expected.add("PApKBoostRanker")
    assert set(names[:-1]) == expected
    # best first, every model far above a random ranking of the same items
    assert scores[:-1] == sorted(scores[:-1], reverse=True)
    assert min(scores[:-1]) > scores[-1] + 0.15
    # the paired comparison is of the two best models, and its interval
    # holds the margin, which is their difference of means over the users
    # defined for both
    assert f"winner: {names[0]}, runner-up: {names[1]}" in out
    (margin, low, high), = [tuple(map(float, m)) for m in re.findall(
        r"margin ([+-][0-9.]+) .*95% interval \[([+-][0-9.]+), ([+-][0-9.]+)\]",
        out)]
    assert low <= margin <= high
    assert abs(margin - (scores[0] - scores[1])) < 2e-3
    (pvalue,) = _floats(r"p-value ([0-9.e+-]+)", out)
    assert 0 < pvalue <= 1


def test_plot_papk_pairs():
    out = run_example("plot_papk_pairs.py")
    # the paper's Table 1 (k = 2): pAp@2 of f1, f2, f3 is 2/4, 3/4 and 1,
    # counted from the pairs and by papk_score
    for name, right, value in (("f1", 2, 0.5), ("f2", 3, 0.75), ("f3", 4, 1.0)):
        assert (f"{name}: {right} of 4 pairs ordered right; "
                f"pAp@2 = {value:.2f}, papk_score = {value:.2f}") in out


@pytest.mark.parametrize("name", sorted(p.relative_to(EXAMPLES).as_posix()
                                         for p in EXAMPLES.rglob("*.py")))
def test_every_example_runs(name):
    assert run_example(name).strip(), f"{name} printed nothing"


def test_dask_fit():
    pytest.importorskip("distributed")
    out = run_example("dask/dask_fit.py")
    assert "on 2 workers" in out
    gaps = _floats(r"max \|coef_ difference\| = ([0-9.e+-]+)", out)
    assert len(gaps) == 2 and max(gaps) < 1e-10  # the distributed fit is exact
    assert "have rows in more than one partition" in out
    linear = next(line for line in out.splitlines()
                  if line.startswith("micro-pAp@10: distributed"))
    scores = _floats(r"(?:distributed|in memory) ([0-9.]+)", linear)
    assert len(scores) == 2 and abs(scores[0] - scores[1]) < 1e-9
    if importlib.util.find_spec("lightgbm") is not None:
        # the boosted ranker: same objective, trees that differ only where a
        # worker's feature bins do, so close but not equal scores
        boosted = next(line for line in out.splitlines()
                       if line.startswith("boosted, "))
        scores = _floats(r"(?:distributed|in memory) ([0-9.]+)", boosted)
        assert len(scores) == 2 and abs(scores[0] - scores[1]) < 0.02
