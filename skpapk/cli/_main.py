"""The ``argparse`` parser and ``main``: run a command, errors in one line."""

import argparse
import contextlib
import gc
import importlib
import math
import os
import re
import signal
import sys
import threading

from .. import __version__, _defaults
from ._methods import (
    DEFAULT_GRID,
    DEFAULT_SCALE,
    GRID_NAMES,
    SCALERS,
    available_methods,
)
from ._output import (
    INTERRUPTED,
    PROG,
    CLIError,
    Progress,
    escaped,
    one_line,
    say,
)

#: Measured wall times of ``skpapk compare``, shown in --help: 4 s on 2 idle
#: cores (benchmarks/results/cli.md), 17 s beside six busy processes (it
#: took 24-103 s at load 5-9 while the rankers used every core in a fit);
#: movielens 16 s on 2 idle cores (2026-11-26), 119-188 s on busy ones.
COMPARE_TIME = "about 4 seconds on 2 idle cores, 20 or less on busy ones"
MOVIELENS_TIME = "about 16 seconds on 2 idle cores, minutes on busy ones"
#: Largest integer option value (k, folds, users, epochs).
MAX_INT = 10**9
#: compare's options that only one kind of --data reads.
_DATA_OPTIONS = {
    "synthetic": ("n_users", "n_features"),
    "movielens": ("path", "no_download"),
    "FILE.csv": ("group_col", "label_col", "pos_label", "features",
                 "ignore_cols", "delimiter"),
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one ``skpapk: error:`` line."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {escaped(message)} (see '{self.prog} "
                     f"--help')\n")


def _typed(convert, ok, expected):
    def parse(text):
        try:  # int and float alone take '1_0' and other scripts' digits
            value = None if convert in (int, float) and not re.fullmatch(
                r"[ \t]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t]*",
                text) else convert(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got "
                                             f"{text[:40]!r}")
        return value + 0.0 if convert is float else value  # -0: 0
    return parse


_positive_int = _typed(int, lambda v: 1 <= v <= MAX_INT,
                       f"a positive integer up to {MAX_INT}")
_cv_folds = _typed(int, lambda v: 2 <= v <= MAX_INT,
                   f"an integer from 2 to {MAX_INT}")
_positive_float = _typed(float, lambda v: math.isfinite(v) and v > 0,
                         "a number > 0")
_alpha = _typed(float, lambda v: 0 <= v <= 1e100,  # 1e308: w = 0 overflows
                "a number from 0 to 1e100")
_seed = _typed(int, lambda v: 0 <= v <= 2**32 - 1,
               f"an integer from 0 to {2**32 - 1}")
_fraction = _typed(float, lambda v: 0 < v < 1,
                   "a fraction strictly between 0 and 1")
_n_jobs = _typed(int, lambda v: v >= 1 or v == -1, "1, N or -1 (all CPUs)")
_delimiter = _typed(lambda t: "\t" if t in ("tab", "\\t") else t,
                    lambda t: len(t) == 1 and t.isascii() and t not in '"\r\n',
                    "one ASCII character, not a quote or line end (or 'tab')")


def _file_text(text):
    """A column name or label as the CSV files hold it (UTF-8 text): under a
    locale that is not UTF-8 (``LC_ALL=C``), Python holds the bytes of a
    non-ASCII argument as surrogates, which no header would match."""
    try:
        return os.fsencode(text).decode("utf-8") if not text.isascii() else text
    except UnicodeError:  # not UTF-8 bytes: kept (the error shows them escaped)
        return text


#: A path option: "~" expanded here (the shell leaves a quoted one), as the
#: library's readers do, so that the checks and the reading see one file.
_path = os.path.expanduser


_EPILOG = """\
Data: one CSV row per (user, item) pair, with a header line: a group (user)
column, a binary label column and numeric feature columns. Example:

  user,label,f1,f2
  u1,1,0.3,1.2
  u1,0,0.1,-0.4

Labels 0/1 and False/True need nothing; for words, say which one is
relevant with --pos-label (yes/no and a few obvious pairs are recognised).

Quick start:
  skpapk compare                        # built-in simulation, seconds
  skpapk fit data.csv --group-col user --out model.json
  skpapk score test.csv --model model.json
  skpapk recommend new.csv --model model.json --out top.csv

Model files are JSON (no pickle: loading one cannot run code). Files are
written atomically and never replaced without --force. Exit status: 0 on
success, 2 on bad input or options, 1 when no usable model could be
trained, 130 when interrupted (Ctrl-C); SIGTERM ends it as Ctrl-C does,
then kills it; a stdout closed by its reader (e.g. '| head') ends quietly
with status 0.
"""


def _add(parser, groups, *, force=None):
    """Add the option groups named in ``groups`` (and --force for ``force``)."""
    add = parser.add_argument
    if force:
        add("--force", action="store_true",
            help=f"replace {force} if it exists (never an input file)")
    if "training" in groups:
        add("--k", type=_positive_int, default=_defaults.K,
            help=f"number of items shown to each user: the k of pAp@k "
                 f"(default: {_defaults.K})")
        add("--grid", choices=GRID_NAMES, default=DEFAULT_GRID,
            help="hyper-parameter grids: small (papk: alpha in {1e-5, 1e-4, "
                 "1e-3}; the paper's rankers: eta0 in {0.01, 0.1, 1} x alpha in "
                 "{0.001, 0.1}) or paper (App. F: eta0 1e-4 .. 0.5 x alpha "
                 "0.001 .. 1, 48 pairs; papk: alpha 1e-6 .. 1e-2 x "
                 "group_weight) (default: %(default)s)")
        add("--cv", choices=["within-group", "group"], default="within-group",
            help="within-group: CV folds (and compare's test part) hold out rows "
                 "of every user (the paper's protocol); group: they hold out "
                 "whole users, to rank items for new users (default: "
                 "%(default)s)")
        add("--cv-folds", type=_cv_folds, default=3, metavar="N",
            help="number of CV folds (default: %(default)s)")
        add("--scale", choices=list(SCALERS), default=DEFAULT_SCALE,
            help="feature scaling fitted on the training rows, for the linear "
                 "models (default: %(default)s, as the paper)")
        add("--max-iter", type=_positive_int, default=None, metavar="N",
            help="maximum number of iterations of skpapk's linear rankers: "
                 "L-BFGS iterations of papk, epochs (full subgradient steps) of "
                 f"the others (default: theirs, {_defaults.MAX_ITER})")
        add("--n-jobs", type=_n_jobs, default=1, metavar="N",
            help="CPUs to use: parallel CV fits, and threads within a fit; at "
                 "most the number available (-1: all; default: %(default)s)")
        add("--random-state", type=_seed, default=0, metavar="SEED",
            help="seed of the data simulation, splits, folds and every "
                 "estimator: the same command twice gives the same result "
                 "(default: %(default)s)")
        add("--group-col", default="group", type=_file_text, metavar="COL",
            help="column of the group (user) ids (default: %(default)s)")
        add("--label-col", default="label", type=_file_text, metavar="COL",
            help="column of the binary labels (default: %(default)s)")
        add("--pos-label", default=None, type=_file_text, metavar="VALUE",
            help="the label of relevant rows (default: 1 of 0/1, the greater of "
                 "two numbers, True, yes, ...; needed for other words)")
        add("--features", action="append", type=_file_text, metavar="COLS",
            help="comma-separated feature columns (repeatable; a name holding a "
                 "comma in double quotes, as in CSV); default: every "
                 "other column holding numbers (text columns such as item names "
                 "are skipped and listed; integer columns that look like ids, "
                 "e.g. item_id, are used but named in a warning)")
        add("--ignore-cols", action="append", type=_file_text, metavar="COLS",
            help="comma-separated numeric columns that are not features (e.g. "
                 "an item id) when --features is not given")
    if "model" in groups:
        add("file", type=_path, metavar="FILE.csv")
        add("--model", required=True, type=_path, metavar="MODEL.json")
    if "format" in groups:
        add("--format", choices=["table", "csv", "markdown"], default="table",
            help="output format (default: %(default)s)")
    add("--delimiter", type=_delimiter, default=",", metavar="CHAR",
        help="field separator of the CSV files read (and of recommend's "
             "output): one character or 'tab' (default: %(default)s)")
    add("-q", "--quiet", action="store_true",
        help="print no progress, notes or warnings on stderr (compare "
             "--format csv still prints its verdict there)")
    add("--traceback", action="store_true",
        help="on error, show the full Python traceback (for bug reports) "
             "instead of one line")


def build_parser():
    """The parser of the ``skpapk`` command."""
    names = ", ".join(available_methods())
    parser = _Parser(
        prog=PROG, epilog=_EPILOG,
        description="Train, tune and evaluate rankers for top-k recommendation "
                    "with the pAp@k\nmetric (Hiranandani et al., ICML 2020), on "
                    "your own CSV files.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_Parser)
    compare = sub.add_parser(
        "compare", help="compare the methods on a data set (tuned by CV)",
        description="Hold out a test part of every user's rows (or of the users "
                    "with --cv group), tune each method by per-user "
                    "cross-validation of micro-pAp@k on the rest, refit the "
                    "best, print test micro-pAp@k, prec@k and pAUC(0, k/n-] per "
                    "method beside a random ranking of the same test users, and "
                    "name the winner with its margin over the runner-up. With "
                    "no option it runs on a simulation of users with "
                    "heterogeneous engagement and decoy items, where pointwise "
                    f"classifiers and rankers differ ({COMPARE_TIME}). The cv "
                    "column shows '-' for a method with no grid to tune (with "
                    "--grid small: boost and hgb, fitted once with their "
                    "defaults; --grid paper tunes them too).")
    add = compare.add_argument
    add("--data", default="synthetic", type=_path, metavar="SOURCE",
        help=f"synthetic (default), movielens (MovieLens 100K, see --path; "
             f"{MOVIELENS_TIME}) or a CSV file")
    add("--methods", default="default", metavar="LIST",
        help=f"comma-separated methods, or default (papk, greedy, boost if "
             f"installed, logreg, hgb), paper (the paper's Table 3 methods and "
             f"GD-pAp@k-ramp) or all; "
             f"available: {names}")
    add("--test-size", type=_fraction, default=0.2, metavar="FRAC",
        help="fraction of every user's rows (of the users with --cv group) held "
             "out for the test (default: %(default)s)")
    add("--n-users", type=_positive_int, default=500, metavar="N",
        help="synthetic data: number of users (default: %(default)s)")
    add("--n-features", type=_positive_int, default=8, metavar="D",
        help="synthetic data: number of features, >= 5 (default: %(default)s)")
    add("--path", default=None, type=_path,
        help="movielens: the u.data file or its folder (default: $SKPAPK_DATA, "
             "then the scikit-learn data folder, then download)")
    add("--no-download", action="store_true",
        help="movielens: never download the archive")
    add("--plot", default=None, type=_path, metavar="PNG",
        help="also draw each method's per-user test pAp@k (box plots, beside a "
             "random ranking) into this PNG file (or .svg, .pdf: the format "
             "of its extension); needs pip install 'skpapk[plot]'")
    _add(compare, ["training", "format"], force="the --plot file")
    fit = sub.add_parser(
        "fit", help="train (and tune) a model on a CSV file; save it",
        description="Train one model on a CSV file and save it as JSON. Its "
                    "hyper-parameters are tuned by per-user cross-validation of "
                    "micro-pAp@k unless given; the model file keeps the column "
                    "names, k and the relevant label, so 'score' and "
                    "'recommend' read the same columns.")
    add = fit.add_argument
    add("file", type=_path, metavar="FILE.csv", help="training data")
    savable = ", ".join(n for n, m in available_methods().items() if m.kind)
    add("--method", default="papk",
        help=f"one of {savable} (default: %(default)s)")
    add("--eta0", type=_positive_float, default=None,
        help="fixed initial step size of the subgradient rankers (default: "
             "tuned; papk, fitted by L-BFGS, takes none)")
    add("--alpha", type=_alpha, default=None,
        help="fixed regularisation weight (default: tuned)")
    add("--out", required=True, type=_path, metavar="MODEL.json",
        help="where to save the model")
    _add(fit, ["training"], force="the --out file")
    score = sub.add_parser(
        "score", help="metrics of a saved model on a labelled CSV file",
        description="Print micro-pAp@k, prec@k and pAUC(0, k/n-] of a saved "
                    "model on a labelled CSV file (the columns named at fit "
                    "time), beside a random ranking of the same groups.")
    score.add_argument("--k", type=_positive_int, default=None,
                       help="k of the metrics (default: the model's)")
    _add(score, ["model", "format"])
    recommend = sub.add_parser(
        "recommend", help="write each group's top-k rows under a saved model",
        description="Score every row of a CSV file with a saved model and write "
                    "each group's k highest scored rows: the group, the rank "
                    "(1..k), the score and the row's other columns as written. "
                    "The label column is not needed.")
    recommend.add_argument("--out", default=None, type=_path, metavar="TOP.csv",
                           help="output CSV (default: stdout)")
    recommend.add_argument("--k", type=_positive_int, default=None,
                           help="rows per group (default: the model's k)")
    _add(recommend, ["model"], force="the --out file")
    parser.commands = sub.choices  # {name: the command's parser}
    return parser


def _given(argv, command):
    """The options of ``command`` written in ``argv`` (``--scale minmax``
    too), not left to their defaults."""
    parser = build_parser()
    for action in parser._actions + parser.commands[command]._actions:
        action.default = argparse.SUPPRESS
    return set(vars(parser.parse_known_args(argv)[0]))


def _new_lock():
    """Held while a command runs: the commands set process-wide state
    (warning filters, thread limits, ``sys.stdout``), so that ``main``
    called from two threads at once could leave one thread's settings in
    place for good. A new one in a forked child, where the thread that held
    the parent's is gone."""
    global _ONE_COMMAND
    _ONE_COMMAND = threading.RLock()


_new_lock()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock)


def main(argv=None):
    """Run the ``skpapk`` command; return its exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    status : int
        0 on success (also when stdout is closed early, e.g. by ``head``),
        2 on an input or usage error (also when stdout is closed before the
        command starts and its results would go there), 1 when no usable
        model could be trained, 130 when interrupted (Ctrl-C: while it runs,
        in the main thread, it handles SIGINT itself and hides the reports
        of the interrupts that numba's C callbacks lose), 143 or 129 when
        stopped by SIGTERM or SIGHUP (handled as SIGINT where their handler
        is the default one: no temporary file is left; the ``skpapk``
        program then dies of the signal, as its parent expects); errors
        are one line ``skpapk: error: ...`` on stderr.

    See Also
    --------
    skpapk.PApKRanker : The library's default ranker, one of the methods.
    skpapk.metrics.papk_score : The metric that the commands report.

    Notes
    -----
    Commands run one at a time in a process: ``main`` called from another
    thread waits for the running command to end (the commands set the
    process's warning filters and thread limits while they run).

    Examples
    --------
    A missing model file is an input error: one line on stderr, status 2.

    >>> from skpapk.cli import main
    >>> main(["score", "no-such-file.csv", "--model", "no-such-model.json"])
    2
    """
    with contextlib.ExitStack() as stack:
        stack.enter_context(_interruptible())
        try:  # Ctrl-C, also while another thread's command runs, or while a
            # command's module is imported
            stack.enter_context(_ONE_COMMAND)
            # a stream closed ('>&-') is None, and print(file=None) goes to
            # stdout: written to nowhere while the command runs
            closed = [name for name in ("stdout", "stderr")
                      if getattr(sys, name) is None]
            for name in closed:
                stack.callback(setattr, sys, name, None)
                setattr(sys, name, stack.enter_context(open(os.devnull, "w")))
            status = _run(argv, stdout_closed="stdout" in closed)
        except KeyboardInterrupt:
            status = 130
        signum, _SIGNAL[0] = _SIGNAL[0], None
        if status == 130 or INTERRUPTED.is_set():
            if signum is not None and signum != signal.SIGINT:
                say(f"{PROG}: terminated ({signal.Signals(signum).name})")
                _STOPPED_BY[0] = signum
                return 128 + signum
            say(f"{PROG}: interrupted")
            return 130
        return status


#: Signals that stop a command as Ctrl-C does (status 128 + the signal's
#: number), and the last one received.
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                      if hasattr(signal, name))
_SIGNAL = [None]
#: The stop signal that ended the last command (for console_main).
_STOPPED_BY = [None]


def console_main():
    """The ``skpapk`` program: :func:`main`, then a quick exit.

    ``[project.scripts]`` and ``python -m skpapk`` run it.

    Once scikit-learn and SciPy are imported, the interpreter's last
    garbage collections take about 0.25 s at exit. The process ends here,
    so its objects are frozen out of them (:func:`gc.freeze`) and the
    operating system frees them. Streams are flushed and ``atexit``
    functions run as usual; finalizers (``__del__``, weak reference
    callbacks) of objects in reference cycles no longer run at exit, so
    the commands clean up with context managers, not with them.

    Returns
    -------
    status : int
        :func:`main`'s exit status.
    """
    _STOPPED_BY[0] = None
    status = main()
    signum, _STOPPED_BY[0] = _STOPPED_BY[0], None
    if signum is not None:
        # ended by SIGTERM or SIGHUP: once cleaned up, the process dies of
        # it, so that its parent (a shell, systemd) sees it killed by the
        # signal, not exiting with a status
        sys.stdout.flush()
        sys.stderr.flush()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    gc.freeze()
    return status


@contextlib.contextmanager
def _interruptible():
    """Ctrl-C raises ``KeyboardInterrupt`` and sets ``INTERRUPTED``, which
    progress checks: raised in a C callback (numba compiling), the
    exception is lost, and Python's report of it is not shown."""
    INTERRUPTED.clear()
    if threading.current_thread() is not threading.main_thread():
        try:  # handlers belong to the main thread
            yield
        finally:
            INTERRUPTED.clear()
        return

    def on_signal(signum, frame):
        _SIGNAL[0] = signum
        INTERRUPTED.set()
        raise KeyboardInterrupt

    def unraisable(report, hook=sys.unraisablehook):
        if not issubclass(report.exc_type, KeyboardInterrupt):
            hook(report)

    # SIGTERM (docker stop, systemd, a job's timeout) and SIGHUP end the
    # command as Ctrl-C does, so that no temporary file is left; only where
    # nobody else handles them; an ignored SIGINT (a background job's) stays
    # ignored
    handled = [sig for sig in _STOP_SIGNALS
               if signal.getsignal(sig) is signal.SIG_DFL]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        handled.append(signal.SIGINT)
    _SIGNAL[0] = None
    previous, hook = {}, sys.unraisablehook
    try:  # (a signal while they are installed: they are put back all the same)
        for sig in handled:
            previous[sig] = signal.signal(sig, on_signal)
        sys.unraisablehook = unraisable
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else
                          signal.default_int_handler if sig == signal.SIGINT
                          else signal.SIG_DFL)
        sys.unraisablehook = hook
        INTERRUPTED.clear()  # read by main before: later callers start clean


def _run(argv, *, stdout_closed):
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:
        if unknown:  # "skpapk --bogus": not the help
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        parser.print_help()
        return 0
    command_parser = parser.commands[args.command]
    args.given = _given(argv, args.command)
    if unknown:
        command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command == "compare":  # an option the --data does not read
        data = args.data if args.data in _DATA_OPTIONS else "FILE.csv"
        for other, names in _DATA_OPTIONS.items():
            for name in names:
                if other != data and name in args.given:
                    command_parser.error(
                        f"--{name.replace('_', '-')} is for --data {other}, "
                        f"not --data {args.data}; leave it out")
    target = {"compare": "plot", "fit": "out", "recommend": "out"}.get(args.command)
    to_stdout = args.command in ("compare", "score") or (
        args.command == "recommend" and args.out in (None, "-"))
    if getattr(args, "force", False) and (
            args.command == "recommend" and to_stdout or getattr(args, target) is None):
        command_parser.error(f"--force replaces the --{target} file, and no "
                             f"--{target} file is given; leave --force out")
    if stdout_closed and to_stdout:
        say(f"{PROG}: error: stdout is closed, so the results would go "
             f"nowhere; send them to a file (> results.txt)")
        return 2
    module = "._compare" if args.command == "compare" else "._commands"
    command = getattr(importlib.import_module(module, __package__),
                      f"cmd_{args.command}")  # imported when it runs
    try:
        return command(args, Progress(args.quiet))
    except BrokenPipeError:  # stdout to /dev/null: the final flush must not fail
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CLIError, ValueError, TypeError, OSError, MemoryError) as exc:
        if args.traceback:
            raise
        message = one_line(exc) or type(exc).__name__
        if isinstance(exc, MemoryError):  # sizes given, e.g. --n-features
            message = f"not enough memory ({message}); use smaller sizes"
        say(f"{PROG}: error: {message}")
        return getattr(exc, "status", 2)
