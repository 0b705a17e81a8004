"""The README's code runs as written.

Its Python blocks (``.. code-block:: python``, and ``>>>`` doctest blocks)
are run in order, in one namespace, as a reader pasting them one after the
other would; each is one test, named by its first line in ``README.rst``,
and a failure names that line. The shell blocks are not run, but the test
command and the docs build command must be the ones ``.ci/run`` runs
verbatim.
"""

import doctest
import importlib.util
import re
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.rst"
CI = ROOT / ".ci" / "run"

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)\s*$")
#: Optional dependencies a block may import, and the extra that installs them.
_EXTRAS = {"lightgbm": "lightgbm", "dask": "dask", "distributed": "dask",
           "matplotlib": "plot"}
_DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def code_blocks(text):
    """``(language, first line number, code)`` of every code block of ``text``.

    Reads ``.. code-block::`` directives (their options skipped) and
    top-level ``>>>`` doctest blocks (language ``"pycon"``); line numbers
    count from 1.
    """
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = _DIRECTIVE.match(lines[i])
        if match:
            indent = len(match.group(1))
            language = match.group(2) or "python"
            i += 1
            while i < len(lines) and re.match(r"^\s+:[\w-]+:", lines[i]):
                i += 1  # directive options
            body = []
            while i < len(lines) and (
                    not lines[i].strip()
                    or len(lines[i]) - len(lines[i].lstrip()) > indent):
                body.append((i + 1, lines[i]))
                i += 1
            while body and not body[-1][1].strip():
                body.pop()
            while body and not body[0][1].strip():
                body.pop(0)
            if body:
                margin = min(len(line) - len(line.lstrip())
                             for _, line in body if line.strip())
                code = "\n".join(line[margin:] for _, line in body)
                if code.lstrip().startswith(">>>") and language == "python":
                    language = "pycon"
                blocks.append((language, body[0][0], code + "\n"))
            continue
        if lines[i].startswith(">>>"):
            start, body = i + 1, []
            while i < len(lines) and lines[i].strip():
                body.append(lines[i])
                i += 1
            blocks.append(("pycon", start, "\n".join(body) + "\n"))
            continue
        i += 1
    return blocks


def run_block(language, line, code, namespace, filename="README.rst"):
    """Run one Python block in ``namespace``; an AssertionError names ``line``.

    Tracebacks point into ``filename`` at the right lines: the code is
    compiled with ``line - 1`` blank lines in front.
    """
    if language == "pycon":
        test = doctest.DocTestParser().get_doctest(
            code, namespace, f"{filename}:{line}", filename, line - 1)
        report = []
        runner = doctest.DocTestRunner(optionflags=_DOCTEST_FLAGS)
        result = runner.run(test, out=report.append, clear_globs=False)
        if result.failed:
            raise AssertionError(
                f"{filename}, line {line}: the doctest block fails:\n"
                + "".join(report))
        return
    try:
        exec(compile("\n" * (line - 1) + code, filename, "exec"), namespace)
    except Exception as exc:
        raise AssertionError(
            f"{filename}, line {line}: the Python block fails with "
            f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}") from exc


def _needed_extra(code):
    """The extra whose import a block needs, when it is not installed."""
    for module, extra in _EXTRAS.items():
        uses = re.search(rf"^\s*(?:>>> )?(?:import|from)\s+{module}\b", code, re.M)
        if uses and importlib.util.find_spec(module) is None:
            return module, extra
    if "PApKBoostRanker" in code and importlib.util.find_spec("lightgbm") is None:
        return "lightgbm", "lightgbm"
    return None


README_TEXT = README.read_text(encoding="utf-8")
BLOCKS = code_blocks(README_TEXT)
PYTHON = [b for b in BLOCKS if b[0] in ("python", "pycon")]
SHELL = [b for b in BLOCKS if b[0] in ("bash", "shell", "console", "sh")]


class _Reader:
    """One reader's session: the blocks run so far, their namespace and the
    scikit-learn configuration they set (a block may switch metadata routing
    on, as the README tells a reader to)."""

    namespace = {"__name__": "__readme__"}
    done = 0
    config = None


@pytest.mark.parametrize("index", range(len(PYTHON)),
                         ids=[f"line {line}" for _, line, _ in PYTHON])
def test_python_block(index):
    import sklearn

    # the blocks before this one run first (when a test is selected alone),
    # each once, in order, in the shared namespace and configuration; the
    # rest of the test session keeps its own configuration
    outside = sklearn.get_config()
    if _Reader.config is not None:
        sklearn.set_config(**_Reader.config)
    try:
        while _Reader.done <= index:
            language, line, code = PYTHON[_Reader.done]
            _Reader.done += 1
            missing = _needed_extra(code)
            if missing is not None:
                if _Reader.done - 1 == index:
                    pytest.skip(f"README.rst, line {line} needs {missing[0]}: "
                                f"pip install -e '.[{missing[1]}]'")
                continue
            run_block(language, line, code, _Reader.namespace)
    finally:
        _Reader.config = sklearn.get_config()
        sklearn.set_config(**outside)


def test_the_readme_has_a_tour():
    assert len(PYTHON) >= 3


def _ci_verbatim_commands():
    """The commands ``.ci/run`` says it takes from the README verbatim:
    ``{section named in the comment: the command line after it}``."""
    lines = CI.read_text(encoding="utf-8").splitlines()
    commands = {}
    for i, line in enumerate(lines):
        match = re.match(r'\s*# The README\'s "([^"]+)" .*verbatim', line)
        if match:
            commands[match.group(1)] = lines[i + 1].strip()
    return commands


def test_ci_runs_the_readme_commands_verbatim():
    commands = _ci_verbatim_commands()
    assert set(commands) >= {"Quick start", "Build the docs"}, commands
    shell_lines = [line.strip() for _, _, code in SHELL
                   for line in code.splitlines()]
    for section, command in commands.items():
        assert command in shell_lines, (
            f".ci/run runs the README's {section!r} command {command!r}, which "
            f"no shell block of README.rst holds verbatim")
        assert section in README_TEXT
    assert commands["Quick start"] == (
        'pip install -e ".[test]" && ruff check . && pytest')
    assert commands["Build the docs"] == (
        'pip install -e ".[doc]" && sphinx-build -W -j 1 -b html doc '
        'doc/_build/html')


# The harness itself, on a README of three lines' worth of blocks.
_SAMPLE = """\
Title
=====

.. code-block:: python

    a = 1

>>> a + 1
2

.. code-block:: python
   :caption: x

    assert a == 2, "a is not 2"

.. code-block:: bash

    echo not run
"""


def test_code_blocks_finds_every_block_with_its_line():
    blocks = code_blocks(_SAMPLE)
    assert [(lang, line) for lang, line, _ in blocks] == [
        ("python", 6), ("pycon", 8), ("python", 14), ("bash", 18)]
    assert blocks[2][2] == 'assert a == 2, "a is not 2"\n'


def test_a_failing_block_names_its_line():
    namespace = {}
    blocks = code_blocks(_SAMPLE)
    run_block(*blocks[0], namespace)
    run_block(*blocks[1], namespace)
    with pytest.raises(AssertionError, match=r"README\.rst, line 14: .*a is not 2"):
        run_block(*blocks[2], namespace)
    with pytest.raises(AssertionError, match=r"README\.rst, line 8: the doctest"):
        run_block("pycon", 8, ">>> a + 2\n2\n", namespace)
    # the traceback points at the README line itself
    with pytest.raises(AssertionError, match=r'File "README\.rst", line 14'):
        run_block(*blocks[2], namespace)
