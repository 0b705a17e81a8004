"""What the command line prints: errors, progress, warnings and tables.

Results go to stdout; progress, notes and warnings to stderr, prefixed by
``skpapk:`` (``--quiet`` silences them); an error is one line
``skpapk: error: ...``. Progress bars are tqdm's when it is installed
(``pip install 'skpapk[cli]'``) and stderr is a terminal; otherwise a step
prints one line when it starts and one when it ends.
"""

import contextlib
import csv
import io
import sys
import time
import warnings

PROG = "skpapk"
#: Longest piece of a user's cell or value echoed in a message.
ECHO_CHARS = 80


class CLIError(Exception):
    """A problem reported as one ``skpapk: error:`` line.

    ``status`` is the exit status: 2 for bad input or options (the default),
    1 when the run itself failed (e.g. no candidate model learned anything).
    """

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


def cut(value, limit=ECHO_CHARS):
    """``repr`` of a user's value, cut to about ``limit`` characters.

    Examples
    --------
    >>> from skpapk.cli._output import cut
    >>> cut("x" * 1000, 10)
    "'xxxxxxxxxx'... (1000 characters)"
    """
    value = str(value)
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


class _Step:
    """A step of :meth:`Progress.task`: ``advance(n)`` moves its bar."""

    def __init__(self, bar=None):
        self.bar = bar

    def advance(self, n=1):
        if self.bar is not None:
            self.bar.update(n)


class Progress:
    """Progress lines on stderr; silent when ``quiet``."""

    def __init__(self, quiet=False):
        self.quiet = quiet

    def __call__(self, message):
        if not self.quiet:
            with contextlib.suppress(OSError, ValueError):  # stderr closed
                print(f"{PROG}: {message}", file=sys.stderr, flush=True)

    @contextlib.contextmanager
    def task(self, label, total=None, unit="it"):
        """Follow a long step: a tqdm bar on a terminal, else two lines."""
        if self.quiet:
            yield _Step()
            return
        start = time.perf_counter()
        bar = _tqdm_bar(label, total, unit)
        if bar is None:
            self(f"{label} ...")
            yield _Step()
            self(f"{label}: done ({time.perf_counter() - start:.1f} s)")
            return
        try:
            yield _Step(bar)
        finally:
            bar.close()


def _tqdm_bar(label, total, unit):
    try:
        interactive = sys.stderr.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if not interactive:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=f"{PROG}: {label}", unit=unit, leave=False,
                file=sys.stderr, dynamic_ncols=True)


class CapturedWarnings:
    """Catch the warnings of a command; show each distinct one once after it.

    ``ignore`` lists categories the command reports itself; ``quiet``
    ignores all. Warnings of joblib workers come back through scikit-learn,
    which passes the warning filters on to its workers.
    """

    def __init__(self, progress, ignore=()):
        self.progress = progress
        self.ignore = tuple(ignore)

    def __enter__(self):
        self._catcher = warnings.catch_warnings(record=True)
        self.records = self._catcher.__enter__()
        warnings.simplefilter("ignore" if self.progress.quiet else "always")
        for category in self.ignore:
            warnings.filterwarnings("ignore", category=category)
        return self

    def __exit__(self, *exc_info):
        self._catcher.__exit__(*exc_info)
        if self.progress.quiet or exc_info[0] is not None:
            return False
        counts = {}
        for r in self.records:
            key = (r.category.__name__, " ".join(str(r.message).split()))
            counts[key] = counts.get(key, 0) + 1
        for (category, message), count in counts.items():
            times = f" (x{count})" if count > 1 else ""
            self.progress(f"warning: {category}: {message}{times}")
        return False


def format_value(value, digits=4):
    """A table cell: ``-`` for None, floats rounded."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{float(value):.{digits}f}"


def format_param(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}"
    return "-" if value is None else str(value)


def format_params(params, sep=", "):
    return sep.join(f"{name}={format_param(v)}" for name, v in params.items())


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def render(header, rows, fmt):
    """An aligned plain-text table, CSV or a Markdown table, as a string.

    Examples
    --------
    >>> from skpapk.cli._output import render
    >>> print(render(["method", "score"], [["a", "0.5"], ["bb", "0.25"]],
    ...              "table"), end="")
    method  score
    ------  -----
    a         0.5
    bb       0.25
    """
    rows = [[str(cell) for cell in row] for row in rows]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerows([header, *rows])
        return buffer.getvalue()
    widths = [max([len(h)] + [len(r[j]) for r in rows]) for j, h in enumerate(header)]
    if fmt == "markdown":
        def line(cells):
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
        sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([line(header), sep, *(line(r) for r in rows)]) + "\n"
    numeric = [bool(rows) and all(_is_number(r[j]) or r[j] == "-" for r in rows)
               for j in range(len(header))]

    def line(cells):  # plain text: numbers right-aligned, text left-aligned
        return "  ".join(c.rjust(w) if num else c.ljust(w)
                         for c, w, num in zip(cells, widths, numeric)).rstrip()
    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"
