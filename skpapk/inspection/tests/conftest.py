import sys

import pytest


@pytest.fixture(autouse=True)
def close_figures():
    """Close every figure a test opened (only if pyplot was imported)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")
