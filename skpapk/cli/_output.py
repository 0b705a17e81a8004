"""What the command line prints: errors, progress, warnings and tables.

Results go to stdout; progress, notes and warnings to stderr, prefixed by
``skpapk:`` (``--quiet`` silences them); an error is one line
``skpapk: error: ...``. A long step shows tqdm's bar when tqdm is installed
(``pip install 'skpapk[cli]'``) and stderr is a terminal; otherwise it
prints one line when it starts and one when it ends.
"""

import codecs
import collections
import contextlib
import csv
import io
import re
import sys
import threading
import time
import warnings

PROG = "skpapk"


class CLIError(Exception):
    """A one-line error; ``status`` 2: bad input or options, 1: the run failed."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


#: Set by ``main``'s SIGINT handler: a ``KeyboardInterrupt`` raised inside a
#: C callback (numba's compiler) is lost, so progress raises it again.
INTERRUPTED = threading.Event()


class Progress:
    """Progress lines on stderr; silent when ``quiet``."""

    def __init__(self, quiet=False):
        self.quiet = quiet

    def __call__(self, message):
        if INTERRUPTED.is_set():
            raise KeyboardInterrupt
        if not self.quiet:
            say(f"{PROG}: {message}")

    @contextlib.contextmanager
    def task(self, label, total=None):
        """Follow a long step of ``total`` parts: a tqdm bar on a terminal,
        else two lines; yields ``advance()``, to call after each part."""
        start, bar = time.perf_counter(), None
        with contextlib.suppress(ImportError, AttributeError, ValueError):
            if not self.quiet and sys.stderr.isatty():
                from tqdm.auto import tqdm

                bar = tqdm(desc=f"{PROG}: {label}", total=total, leave=False,
                           file=sys.stderr)
        if bar is None:
            self(f"{label} ...")
        try:
            yield (lambda: None) if bar is None else bar.update
        finally:
            if bar is not None:
                bar.close()
        self(f"{label}: done ({time.perf_counter() - start:.1f} s)")


def escaped(text):
    """``text`` with every character that is not printable (a terminal's
    control codes, a line end of a file name, a surrogate of an undecodable
    byte) written as Python escapes it: one line, shown as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def one_line(text):
    """``text`` on one line: its line ends (and the indentation after them)
    become one space; other spaces are kept (a name ``'a  b'`` is not
    ``'a b'``)."""
    return re.sub(r"[ \t]*[\r\n]+[ \t]*", " ", str(text)).strip()


def say(line):
    """``line`` on stderr (:func:`escaped`); nothing when stderr cannot take
    it (a full disk)."""
    with contextlib.suppress(OSError, ValueError):
        print(escaped(line), file=sys.stderr, flush=True)


@contextlib.contextmanager
def to_stdout():
    """Write the results to stdout; a failed write (a full disk) names it."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:  # a reader that stopped: main ends quietly
        raise
    except OSError as exc:
        raise CLIError(f"cannot write the results to stdout: "
                       f"{exc.strerror or exc}.") from None
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        raise CLIError(
            "cannot write the results to stdout: " + (
                f"they hold bytes that are not text ({char!r}: a file name "
                f"of undecodable bytes?); rename it" if "\ud800" <= char <= "\udfff"
                else f"its encoding, {exc.encoding}, has no {char!r}; set "
                     f"PYTHONIOENCODING=utf-8 (or write to a file)") + ".") from None


@contextlib.contextmanager
def utf8_stdout():
    """stdout for data (recommend's CSV): UTF-8, as the files written, and
    not the terminal's encoding (Windows' code page, latin-1), which
    ``score`` could not read back, or would fail part way. The writer holds
    nothing back and never closes stdout."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text stream without bytes (an IDE's console)
        yield sys.stdout
        return
    sys.stdout.flush()
    yield codecs.getwriter("utf-8")(buffer)
    buffer.flush()


@contextlib.contextmanager
def captured_warnings(progress, ignore=()):
    """Catch a command's warnings; show each distinct one once after it
    (``ignore``: categories the command reports itself)."""
    with warnings.catch_warnings(record=True) as records:
        # "ignore" when quiet: scikit-learn passes the filters on to joblib
        warnings.simplefilter("ignore" if progress.quiet else "always")
        for category in ignore:
            warnings.filterwarnings("ignore", category=category)
        yield
    counts = collections.Counter(  # WithinGroupKFold's n_splits: --cv-folds
        (r.category.__name__, one_line(str(r.message).replace(
            "n_splits=", "n_splits ").replace("n_splits", "--cv-folds")))
        for r in records)
    for (category, message), count in counts.items():
        times = f" (x{count})" if count > 1 else ""
        progress(f"warning: {category}: {message}{times}")


def format_param(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}"
    return "-" if value is None else str(value)


def format_params(params, sep=", "):
    return sep.join(f"{name}={format_param(v)}" for name, v in params.items())


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
    from ..io._ranking_csv import _is_float  # not at import: --help stays light

    if fmt == "csv":
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([header, *rows])
        return buffer.getvalue()
    widths = [max(len(c) for c in column) for column in zip(header, *rows)]
    if fmt == "markdown":
        lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
                 for cells in [header, *rows]]
        lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        return "\n".join(lines) + "\n"
    right = [bool(rows) and all(_is_float(r[j]) or r[j] in ("-", "failed")
                                for r in rows)
             for j in range(len(header))]  # numbers right-aligned
    lines = ["  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(
        cells, widths, right)).rstrip() for cells in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"
