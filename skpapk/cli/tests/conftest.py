"""Shared fixtures of the command-line tests: small CSV files and a runner."""

import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skpapk.datasets import make_engagement_simulation

REPO_ROOT = Path(__file__).resolve().parents[3]
#: Options that keep the fits short.
FAST = ["--max-iter", "15", "--cv-folds", "2"]
#: For the methods without epochs (greedy, logreg, boost, hgb).
FAST_CV = ["--cv-folds", "2"]


def cli_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONWARNINGS", None)
    return env


def run_cli(*args, **kwargs):
    """Run ``python -m skpapk ARGS`` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "skpapk", *map(str, args)],
                          capture_output=True, text=True, env=cli_env(),
                          timeout=300, **kwargs)


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def make_dataset(seed=0, n_users=12):
    """Rows: item id (text), user, 5 features, label yes/no."""
    X, y, g, _ = make_engagement_simulation(n_users, n_features=5,
                                            random_state=seed)
    items = np.array([f"item{i}" for i in range(y.shape[0])])
    users = np.array([f"u{v:02d}" for v in g])
    return X, y, users, items


def dataset_csv(path, X, y, users, items, *, label_values=("no", "yes")):
    header = ["item", "user", *[f"f{j}" for j in range(X.shape[1])], "rel"]
    rows = [[it, u, *[repr(float(v)) for v in x], label_values[int(t)]]
            for it, u, x, t in zip(items, users, X, y)]
    return write_csv(path, header, rows)


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="session")
def dataset(data_dir):
    X, y, users, items = make_dataset()
    path = dataset_csv(data_dir / "train.csv", X, y, users, items)
    return path, X, y, users, items


@pytest.fixture(scope="session")
def fitted(dataset, data_dir):
    """A model fitted by ``python -m skpapk fit`` (through the module)."""
    path = dataset[0]
    model = data_dir / "model.json"
    proc = run_cli("fit", path, "--group-col", "user", "--label-col", "rel",
                   "--k", 3, "--method", "max", "--out", model, *FAST)
    assert proc.returncode == 0, proc.stderr
    return model, proc
