"""The Python snippets of README.rst and of the user guide run as written.

Each page's ``.. code-block:: python`` blocks run in order in a fresh
process (they set scikit-learn's global configuration, start plots...);
blocks of ``>>>`` lines are doctests and are checked as such. Skipped
outside a clone (the pages are not installed with the package).
"""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.rst", *(ROOT / "doc").glob("**/*.rst")])
_BLOCK = re.compile(r"^\.\. code-block:: python\n\n((?:(?:    .*)?\n)+)", re.M)

#: Each page's blocks in order; one doctest runner for the ``>>>`` blocks.
_RUNNER = """
import doctest, sys
blocks = {blocks!r}
namespace = {{"__name__": "__snippets__"}}
parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
    optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
for i, block in enumerate(blocks):
    if block.lstrip().startswith(">>>"):
        test = parser.get_doctest(block, namespace, f"block {{i}}", None, 0)
        if runner.run(test).failed:
            sys.exit(1)
    else:
        exec(compile(block, f"<block {{i}}>", "exec"), namespace)
"""


def _blocks(page):
    return [textwrap.dedent(block) for block in _BLOCK.findall(page.read_text())]


@pytest.mark.parametrize(
    "page", [p for p in PAGES if p.exists() and _blocks(p)],
    ids=lambda p: str(p.relative_to(ROOT)))
def test_snippets_of_the_page_run(page, tmp_path):
    pytest.importorskip("lightgbm")  # the pages show the boosted ranker too
    pytest.importorskip("dask")
    proc = subprocess.run(  # in a folder of its own: a page may write files
        [sys.executable, "-W", "ignore", "-c",
         _RUNNER.format(blocks=_blocks(page))],
        capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def test_the_pages_have_snippets():
    # the pattern above must find the README's blocks (or this test file
    # would check nothing and pass)
    if not (ROOT / "README.rst").exists():
        pytest.skip("not run from a clone of the repository")
    assert len(_blocks(ROOT / "README.rst")) >= 5
