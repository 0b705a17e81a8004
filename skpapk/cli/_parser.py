"""The ``argparse`` parser of the ``skpapk`` command."""

import argparse
import math

from ._output import PROG

#: Measured wall time of ``skpapk compare`` with no option (see README).
COMPARE_TIME = "about 10 seconds on 2 cores"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one ``skpapk: error:`` line."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


#: Largest integer option value (k, folds, users, epochs).
MAX_INT = 10**9


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a positive integer, got {text[:40]!r}") from None
    if not 1 <= value <= MAX_INT:
        raise argparse.ArgumentTypeError(
            f"expected a positive integer up to {MAX_INT}, got {text[:40]}")
    return value


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, got {text[:40]!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text[:40]!r}")
    return value


def _fraction(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, got {text[:40]!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a fraction strictly between 0 and 1, got {text[:40]!r}")
    return value


def _n_jobs(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected an integer, got {text[:40]!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError("0 jobs is not allowed; use 1, N or -1 "
                                         "(all CPUs)")
    return value


def _delimiter(text):
    if text in ("tab", "\\t"):
        return "\t"
    if len(text) != 1 or not text.isascii() or text in '"\r\n':
        raise argparse.ArgumentTypeError(
            f"expected one ASCII character (or 'tab'), got {text[:40]!r}")
    return text


_EPILOG = f"""\
Data: one CSV row per (user, item) pair, with a header line: a group (user)
column, a binary label column and numeric feature columns. Example:

  user,label,f1,f2
  u1,1,0.3,1.2
  u1,0,0.1,-0.4

Labels 0/1 and False/True need nothing; for words, say which one is
relevant with --pos-label (yes/no and a few obvious pairs are recognised).

Quick start:
  skpapk compare                        # built-in simulation, {COMPARE_TIME}
  skpapk fit data.csv --group-col user --out model.json
  skpapk score test.csv --model model.json
  skpapk recommend new.csv --model model.json --out top.csv

Model files are JSON (no pickle: loading one cannot run code). Files are
written atomically and never replaced without --force. Exit status: 0 on
success, 2 on bad input or options, 1 when no usable model could be
trained; a closed stdout (e.g. '| head') ends quietly with status 0.
"""


def _add_csv_options(parser, *, training=True):
    parser.add_argument("--group-col", default="group", metavar="COL",
                        help="column of the group (user) ids (default: group)")
    parser.add_argument("--label-col", default="label", metavar="COL",
                        help="column of the binary labels (default: label)")
    parser.add_argument("--pos-label", default=None, metavar="VALUE",
                        help="the label of relevant rows (default: 1 of 0/1, "
                             "the greater of two numbers, True, yes, ...; "
                             "needed for other words)")
    parser.add_argument(
        "--features", action="append", metavar="COLS",
        help="comma-separated feature columns (repeatable); default: every "
             "other column holding numbers (text columns such as item names are "
             "skipped and listed; integer columns that look like ids, e.g. "
             "item_id, are used but named in a warning)")
    parser.add_argument(
        "--ignore-cols", action="append", metavar="COLS",
        help="comma-separated numeric columns that are not features (e.g. an "
             "item id) when --features is not given")


def _add_common(parser):
    parser.add_argument("--delimiter", type=_delimiter, default=",",
                        metavar="CHAR",
                        help="field separator of the CSV files: one character "
                             "or 'tab' (default: ,)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print no progress, notes or warnings on stderr")
    parser.add_argument("--traceback", action="store_true",
                        help="on error, show the full Python traceback (for bug "
                             "reports) instead of one line")


def _add_force(parser, what):
    parser.add_argument("--force", action="store_true",
                        help=f"replace {what} if it exists (never an input file)")


def _add_training_options(parser):
    parser.add_argument("--k", type=_positive_int, default=10,
                        help="number of items shown to each user: the k of "
                             "pAp@k (default: 10)")
    parser.add_argument("--grid", choices=["small", "paper"], default="small",
                        help="hyper-parameter grids: small (e.g. eta0 in {0.01, "
                             "0.1, 1} x alpha in {0.001, 0.1}) or paper (App. F: "
                             "eta0 1e-4 .. 0.5 x alpha 0.001 .. 1, 48 pairs) "
                             "(default: small)")
    parser.add_argument("--cv", choices=["within-group", "group"],
                        default="within-group",
                        help="within-group: CV folds (and compare's test part) "
                             "hold out rows of every user (the paper's "
                             "protocol); group: they hold out whole users, to "
                             "rank items for new users (default: within-group)")
    parser.add_argument("--cv-folds", type=_positive_int, default=3, metavar="N",
                        help="number of CV folds (default: 3)")
    parser.add_argument("--scale", choices=["minmax", "standard", "none"],
                        default="minmax",
                        help="feature scaling fitted on the training rows, for "
                             "the linear models (default: minmax, as the paper)")
    parser.add_argument("--max-iter", type=_positive_int, default=None, metavar="N",
                        help="maximum number of epochs of the subgradient "
                             "rankers (default: theirs, 200)")
    parser.add_argument("--n-jobs", type=_n_jobs, default=1, metavar="N",
                        help="CPUs to use: parallel CV fits, and threads within "
                             "a fit; at most the number available (-1: all; "
                             "default: 1)")
    parser.add_argument("--random-state", type=int, default=0, metavar="SEED",
                        help="seed of the data simulation, splits, folds and "
                             "every estimator: the same command twice gives the "
                             "same result (default: 0)")


def build_parser(methods, version, commands):
    """The parser; ``commands`` maps a command name to its function."""
    parser = _Parser(
        prog=PROG,
        description="Train, tune and evaluate rankers for top-k recommendation "
                    "with the pAp@k\nmetric (Hiranandani et al., ICML 2020), on "
                    "your own CSV files.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {version}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_Parser)
    names = ", ".join(methods)

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
                    f"classifiers and rankers differ ({COMPARE_TIME}). The "
                    f"cv column shows '-' for a method with no grid to tune "
                    f"(with --grid small: boost and hgb, fitted once with their "
                    f"defaults; --grid paper tunes them too).")
    compare.add_argument("--data", default="synthetic", metavar="SOURCE",
                         help="synthetic (default), movielens (MovieLens 100K, "
                              "see --path; a few minutes) or a CSV file")
    compare.add_argument("--methods", default="default", metavar="LIST",
                         help=f"comma-separated methods, or default (papk, "
                              f"greedy, boost if installed, logreg, hgb), paper "
                              f"(the paper's Table 3) or all; available: {names}")
    compare.add_argument("--test-size", type=_fraction, default=0.2,
                         metavar="FRAC",
                         help="fraction of every user's rows (of the users with "
                              "--cv group) held out for the test (default: 0.2)")
    compare.add_argument("--format", choices=["table", "csv", "markdown"],
                         default="table", help="output format (default: table)")
    compare.add_argument("--n-users", type=_positive_int, default=500, metavar="N",
                         help="synthetic data: number of users (default: 500)")
    compare.add_argument("--n-features", type=_positive_int, default=8,
                         metavar="D",
                         help="synthetic data: number of features, >= 5 "
                              "(default: 8)")
    compare.add_argument("--path", default=None,
                         help="movielens: the u.data file or its folder (default: "
                              "$SKPAPK_DATA, then the scikit-learn data folder, "
                              "then download)")
    compare.add_argument("--plot", default=None, metavar="PNG",
                         help="also draw each method's per-user test pAp@k "
                              "(box plots, beside a random ranking) into this "
                              "PNG file; needs pip install 'skpapk[plot]'")
    compare.add_argument("--no-download", action="store_true",
                         help="movielens: never download the archive")
    _add_force(compare, "the --plot file")
    _add_training_options(compare)
    _add_csv_options(compare)
    _add_common(compare)
    compare.set_defaults(func=commands["compare"])

    fit = sub.add_parser(
        "fit", help="train (and tune) a model on a CSV file; save it",
        description="Train one model on a CSV file and save it as JSON. Its "
                    "hyper-parameters are tuned by per-user cross-validation of "
                    "micro-pAp@k unless given; the model file keeps the column "
                    "names, k and the relevant label, so 'score' and "
                    "'recommend' read the same columns.")
    fit.add_argument("file", metavar="FILE.csv", help="training data")
    fit.add_argument("--method", default="papk",
                     help=f"one of {names} (default: papk)")
    fit.add_argument("--eta0", type=_positive_float, default=None,
                     help="fixed initial step size (default: tuned)")
    fit.add_argument("--alpha", type=_positive_float, default=None,
                     help="fixed regularisation weight (default: tuned)")
    fit.add_argument("--out", required=True, metavar="MODEL.json",
                     help="where to save the model")
    _add_force(fit, "the --out file")
    _add_training_options(fit)
    _add_csv_options(fit)
    _add_common(fit)
    fit.set_defaults(func=commands["fit"])

    score = sub.add_parser(
        "score", help="metrics of a saved model on a labelled CSV file",
        description="Print micro-pAp@k, prec@k and pAUC(0, k/n-] of a saved "
                    "model on a labelled CSV file (the columns named at fit "
                    "time), beside a random ranking of the same groups.")
    score.add_argument("file", metavar="FILE.csv")
    score.add_argument("--model", required=True, metavar="MODEL.json")
    score.add_argument("--k", type=_positive_int, default=None,
                       help="k of the metrics (default: the model's)")
    score.add_argument("--format", choices=["table", "csv", "markdown"],
                       default="table")
    _add_common(score)
    score.set_defaults(func=commands["score"])

    recommend = sub.add_parser(
        "recommend", help="write each group's top-k rows under a saved model",
        description="Score every row of a CSV file with a saved model and write "
                    "each group's k highest scored rows: the group, the rank "
                    "(1..k), the score and the row's other columns as written. "
                    "The label column is not needed.")
    recommend.add_argument("file", metavar="FILE.csv")
    recommend.add_argument("--model", required=True, metavar="MODEL.json")
    recommend.add_argument("--out", default=None, metavar="TOP.csv",
                           help="output CSV (default: stdout)")
    recommend.add_argument("--k", type=_positive_int, default=None,
                           help="rows per group (default: the model's k)")
    _add_force(recommend, "the --out file")
    _add_common(recommend)
    recommend.set_defaults(func=commands["recommend"])
    return parser
