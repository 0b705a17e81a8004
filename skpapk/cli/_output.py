"""What the command line prints: errors, progress, warnings and tables.

Results go to stdout; progress, notes and warnings to stderr, prefixed by
``skpapk:`` (``--quiet`` silences them); an error is one line
``skpapk: error: ...``.
"""

import contextlib
import csv
import io
import sys
import threading
import time
import warnings

import numpy as np

PROG = "skpapk"

#: Seconds between two progress lines of a long task in a log or a pipe.
PROGRESS_INTERVAL = 3.0
#: Seconds between two redraws of a progress bar on a terminal.
BAR_INTERVAL = 0.5


class CLIError(Exception):
    """A problem reported as one ``skpapk: error:`` line.

    ``status`` is the exit status: 2 for bad input or options (the default),
    1 when the run itself failed (e.g. no candidate model learned anything).
    """

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


def _seconds(value):
    if value < 60:
        return f"{value:.1f} s"
    return f"{int(value // 60)} min {value % 60:02.0f} s"


class Progress:
    """Progress lines on stderr; silent when ``quiet``.

    Calling the object prints one line. :meth:`task` follows a long step:
    a terminal gets a bar redrawn in place every :data:`BAR_INTERVAL`
    seconds, other streams (a log file, a pipe) a line every
    :data:`PROGRESS_INTERVAL` seconds while the step runs, from a background
    thread, so that a step with no natural unit of progress (one long fit)
    still shows it is alive.
    """

    def __init__(self, quiet=False, stream=None):
        self.quiet = quiet
        self._stream = stream
        self._lock = threading.Lock()
        self._bar = False  # a bar is drawn on the current terminal line

    @property
    def stream(self):
        return sys.stderr if self._stream is None else self._stream

    def _tty(self):
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _write(self, text, *, bar=False):
        stream = self.stream
        with self._lock:
            try:
                if self._bar:
                    stream.write("\r\033[K")
                stream.write(text if bar else text + "\n")
                stream.flush()
            except (OSError, ValueError):  # stderr closed: progress is optional
                pass
            self._bar = bar

    def __call__(self, message):
        if not self.quiet:
            self._write(f"{PROG}: {message}")

    @contextlib.contextmanager
    def task(self, label, total=None, unit=""):
        """Report the progress of a step; yields a :class:`_Task`."""
        task = _Task(self, label, total, unit)
        if self.quiet:
            yield task
            return
        stop = threading.Event()

        interval = BAR_INTERVAL if self._tty() else PROGRESS_INTERVAL

        def beat():
            while not stop.wait(interval):
                self._draw(task)

        thread = threading.Thread(target=beat, daemon=True)
        thread.start()
        try:
            yield task
        finally:
            stop.set()
            thread.join()
            with self._lock:
                if self._bar:  # erase the bar: the caller prints the outcome
                    try:
                        self.stream.write("\r\033[K")
                        self.stream.flush()
                    except (OSError, ValueError):
                        pass
                    self._bar = False

    def _draw(self, task):
        text = task.describe()
        if self._tty():
            width = 20
            if task.total:
                filled = int(width * min(task.done / task.total, 1.0))
                text = f"[{'#' * filled}{'.' * (width - filled)}] {text}"
            self._write(f"{PROG}: {text}", bar=True)
        else:
            self._write(f"{PROG}: {text}")


class _Task:
    """The state of one :meth:`Progress.task`."""

    def __init__(self, progress, label, total, unit):
        self.progress = progress
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.note = ""
        self.start = time.perf_counter()

    def advance(self, n=1, note=None):
        self.done += n
        if note is not None:
            self.note = note

    def set(self, done, note=None):
        self.done = done
        if note is not None:
            self.note = note

    @property
    def elapsed(self):
        return time.perf_counter() - self.start

    def describe(self):
        parts = [self.label]
        if self.total:
            if self.unit == "bytes":
                parts.append(f"{100 * self.done / self.total:.0f}% of "
                             f"{self.total / 1e6:.0f} MB")
            else:
                parts.append(f"{self.done}/{self.total} {self.unit}".rstrip())
        if self.note:
            parts.append(self.note)
        parts.append(f"{_seconds(self.elapsed)} elapsed")
        return ", ".join(parts)


class CapturedWarnings:
    """Catch warnings during a command; show each distinct one once after it.

    ``ignore`` lists categories the command reports itself. Under ``quiet``
    every warning is ignored. Warnings raised in parallel workers are
    caught there by the CLI's own fitting function and handed to
    :meth:`add`, so no worker prints anything (whatever the scikit-learn
    version).
    """

    def __init__(self, progress, ignore=()):
        self.progress = progress
        self.ignore = tuple(ignore)
        self.extra = []

    def add(self, records):
        """Warnings caught elsewhere, as ``(category_name, message)`` pairs."""
        self.extra.extend(records)

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
        pairs = [(r.category.__name__, str(r.message)) for r in self.records]
        for category, message in pairs + self.extra:
            key = (category, " ".join(message.split()))
            counts[key] = counts.get(key, 0) + 1
        for (category, message), count in counts.items():
            times = f" (x{count})" if count > 1 else ""
            self.progress(f"warning: {category}: {message}{times}")
        return False


def record_warnings(func, *args, **kwargs):
    """Call ``func``; return its result and the warnings it raised.

    The warnings are returned as ``(category_name, message)`` pairs, so that
    they can travel back from a joblib worker.
    """
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, [(r.category.__name__, str(r.message)) for r in records]


def format_value(value, digits=4):
    """A table cell: ``-`` for None, integers as such, floats rounded."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if np.isnan(value):
        return "nan"
    return f"{value:.{digits}f}"


def format_param(value):
    if value is None:
        return "-"
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, bool):
        return f"{value:g}"
    return str(value)


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
        writer.writerow(header)
        writer.writerows(rows)
        return buffer.getvalue()
    widths = [max([len(str(h))] + [len(r[j]) for r in rows])
              for j, h in enumerate(header)]
    if fmt == "markdown":
        def line(cells):
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
        sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([line(header), sep, *(line(r) for r in rows)]) + "\n"
    numeric = [bool(rows) and all(_is_number(r[j]) or r[j] == "-" for r in rows)
               for j in range(len(header))]

    def line(cells):  # plain text: numbers right-aligned, text left-aligned
        out = [c.rjust(w) if num else c.ljust(w)
               for c, w, num in zip(cells, widths, numeric)]
        return "  ".join(out).rstrip()
    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"
