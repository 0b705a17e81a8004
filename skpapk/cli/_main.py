"""``main``: parse the arguments, run the command, report errors in one line."""

import importlib
import os
import sys

from .. import __version__
from ._methods import available_methods
from ._output import PROG, CLIError
from ._parser import build_parser


def _command(module, name):
    """The command ``name`` of ``module``, imported when it runs (``--help``
    imports neither scikit-learn nor the estimators)."""
    def run(args):
        return getattr(importlib.import_module(module, __package__), name)(args)
    run.__name__ = name
    return run


_COMMANDS = {"compare": _command("._compare", "cmd_compare"),
             "fit": _command("._commands", "cmd_fit"),
             "score": _command("._commands", "cmd_score"),
             "recommend": _command("._commands", "cmd_recommend")}


def _one_line(exc):
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _silence_stdout():
    """After a broken pipe: point stdout at /dev/null so that the final
    flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


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
        2 on an input or usage error, 1 when no usable model could be
        trained; errors are one line ``skpapk: error: ...`` on stderr.

    Examples
    --------
    A missing model file is an input error: one line on stderr, status 2.

    >>> from skpapk.cli import main
    >>> main(["score", "no-such-file.csv", "--model", "no-such-model.json"])
    2
    """
    parser = build_parser(available_methods(), __version__, _COMMANDS)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except (CLIError, ValueError, TypeError, OSError) as exc:
        if args.traceback:
            raise
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return getattr(exc, "status", 2)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
