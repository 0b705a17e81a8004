"""Regenerate the committed result files of ``benchmarks/results/``.

Usage, from the repository root (``pip install -e ".[bench]"`` first)::

    python -m benchmarks list                  # the result files and their runs
    python -m benchmarks run-all               # every result file (many hours)
    python -m benchmarks run-all --only table2 figure1_surrogates
    python -m benchmarks run-all --quick       # smoke test: tiny settings
    python -m benchmarks renote dask           # notes edited: re-attach them

Every result file is written by its scripts alone: each run (a module of
``benchmarks.timing`` or ``benchmarks.experiments``, in its own process)
writes a Markdown part with its command, date and machine; the parts are
joined in order, and the hand-written reading of the numbers is taken from
``benchmarks/notes/<name>.md`` (kept beside the scripts, never edited in a
result file; ``renote`` re-attaches them to the runs' output after an
edit, without rerunning). ``--quick`` writes to a temporary folder (or
``--out``), never over the committed results. The MovieLens experiments
read the data from ``SKPAPK_DATA`` (see
:func:`skpapk.datasets.load_movielens_100k`).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ._common import ROOT

RESULTS = ROOT / "benchmarks" / "results"
NOTES = ROOT / "benchmarks" / "notes"


@dataclass(frozen=True)
class Run:
    """One script run that writes one part of a result file.

    ``args`` and ``quick`` (the arguments of ``--quick``) may name
    ``{results}``, where the run writes the result's ``extra_files`` (a
    temporary folder: they are moved to the output folder with the result
    file, once every run has succeeded and written them), and ``{tmp}`` (a
    temporary folder shared by the runs of one result). ``flag`` is the
    script's option that names its Markdown output; ``None``: its standard
    output is the part. ``heading`` titles the part when it is not the
    first one.
    """

    module: str
    args: tuple = ()
    quick: tuple = ()
    flag: str = "--markdown"
    heading: str = None


@dataclass(frozen=True)
class Result:
    """A committed result file: its runs in order, then its notes."""

    name: str
    runs: tuple
    data: bool = False
    hours: float = 0.1
    extra_files: tuple = ()

    @property
    def notes(self):
        return NOTES / f"{self.name}.md"


_T3 = "experiments.reproduce_table3_movielens"
_AVG_MAX_TS = ("--methods", "avg", "max", "ts", "--n-jobs", "2")
_T3_QUICK = ("--runs", "1", "--k", "8", "--methods", "avg", "--grid", "tiny",
             "--max-iter", "5", "--n-jobs", "1")


def _authors(init="random", reg="authors"):
    """The authors' training protocol (random w_0, 61 epochs, best iterate)."""
    return ("--init", init, "--iterate", "best-train", "--reg", reg,
            "--max-iter", "61", "--tol", "none")


_SPLIT = _AVG_MAX_TS + ("--split", "authors")
_PER_RUN = ("--nmf-seed", "per-run")
_LSTSQ = ("--nmf-init", "lstsq", "--nmf-seed", "per-run")

#: Table 3's runs: (key, arguments, --quick arguments, heading of the part).
_T3_RUNS = (
    ("main", ("--n-jobs", "2"), _T3_QUICK, None),
    ("A", _AVG_MAX_TS + _authors() + ("--csv", "{tmp}/runs61.csv"),
     _T3_QUICK + ("--csv", "{tmp}/runs61.csv"),
     "A: the authors' training protocol (random w_0, 61 epochs, "
     "lowest-training-loss iterate)"),
    ("B", _AVG_MAX_TS + _authors() + ("--from-csv", "{tmp}/runs61.csv",
                                      "--final-epochs", "authors"),
     _T3_QUICK + ("--from-csv", "{tmp}/runs61.csv"),
     "B: A, the chosen cells retrained for the authors' final epochs"),
    ("C", _AVG_MAX_TS + _authors(init="zero"), _T3_QUICK, "C: A with w_0 = 0"),
    ("D", _AVG_MAX_TS + _authors(reg="paper"), _T3_QUICK,
     "D: A with alpha = lambda"),
    ("E", _SPLIT, _T3_QUICK, "E: rankers' defaults, authors' split"),
    ("G", _SPLIT + _PER_RUN, _T3_QUICK, "G: E, features drawn per run"),
    ("H", _SPLIT + _PER_RUN + ("--runs", "20"), _T3_QUICK,
     "H: G, 20 runs (the noise of one draw)"),
    ("F", _SPLIT + _PER_RUN + _authors(), _T3_QUICK,
     "F: G, authors' training (A)"),
    ("J", _SPLIT + _LSTSQ, _T3_QUICK, "J: G, authors' NMF start"),
    ("K", _SPLIT + _LSTSQ + _authors(), _T3_QUICK, "K: J, authors' training (A)"),
)
_T3_FIRST = (("main", "w_0 = 0, rankers' stopping rule (first part)"),
             ("A", "A: authors' protocol, 61 epochs"),
             ("B", "B: A, chosen cell retrained 201 (avg) / 121 (max, TS) epochs"),
             ("C", "C: A with w_0 = 0"), ("D", "D: A with alpha = lambda"))
_T3_SECOND = (("E", "E: rankers' defaults, authors' split"),
              ("G", "G: E, features drawn per run"), ("H", "H: G, 20 runs"),
              ("F", "F: G, authors' training (A)"),
              ("J", "J: G, authors' NMF start"),
              ("K", "K: J, authors' training (A)"))

def _protocols(runs):
    """``table3_protocols``' arguments: the best cells saved by ``runs``
    (the same with ``--quick``, whose runs save theirs)."""
    return tuple(f"{label}={{tmp}}/{key}.json" for key, label in runs)


#: Every committed result file (``benchmarks/results/<name>.md``).
REGISTRY = (
    Result("boost_speed", (
        Run("timing.bench_boost", (), ("--quick", "--repeats", "1"),
            flag="--out"),), hours=0.25),
    Result("boost_objectives", (
        Run("experiments.boost_objectives", quick=("--splits", "1", "--quick"),
            flag=None, heading="PApKBoostRanker's objectives at its default trees "
                               "(MovieLens 100K)"),), data=True, hours=0.1),
    Result("boost_defaults", (
        Run("experiments.boost_defaults", (), ("--seeds", "1", "--quick"),
            flag="--out"),), hours=0.05),
    Result("boost_user_weights", (
        Run("experiments.boost_user_weights", quick=("--splits", "1", "--quick"),
            flag=None),), data=True, hours=0.1),
    Result("boost_lambda_papk", (
        Run("experiments.boost_lambda_papk", quick=("--splits", "1", "--quick"),
            flag=None),), data=True, hours=0.15),
    Result("boost_refine", (
        Run("experiments.boost_refine", quick=("--splits", "1", "--quick"),
            flag=None),), data=True, hours=0.1),
    Result("compare_peers", (
        Run("experiments.compare_peers", quick=("--quick",)),), data=True,
        hours=0.6),
    Result("early_stopping_movielens", (
        Run("experiments.early_stopping", ("--runs", "5"),
            ("--runs", "1", "--max-iter", "5")),), data=True),
    Result("figure1_surrogates", (
        Run("experiments.reproduce_figure1",
            ("--csv", "{results}/figure1_surrogates.csv",
             "--png", "{results}/figure1_surrogates.png"),
            ("--n-iter", "60", "--csv", "{results}/figure1_surrogates.csv",
             "--png", "{results}/figure1_surrogates.png")),),
        extra_files=("figure1_surrogates.csv", "figure1_surrogates.png")),
    Result("table2", (
        Run("experiments.reproduce_table2", ("--n-jobs", "1"),
            ("--runs", "5", "--max-iter", "50", "--n-jobs", "1")),
        Run("experiments.reproduce_table2",
            ("--init", "random", "--eta0", "0.01", "--n-jobs", "1"),
            ("--init", "random", "--eta0", "0.01", "--runs", "5", "--max-iter",
             "50", "--n-jobs", "1"),
            heading="A random start and a small step"),), hours=0.1),
    Result("table3_movielens", tuple(
        Run(_T3, args + ("--save-best", f"{{tmp}}/{key}.json"),
            quick + ("--save-best", f"{{tmp}}/{key}.json"), heading=heading)
        for key, args, quick, heading in _T3_RUNS) + (
        Run("experiments.table3_protocols", _protocols(_T3_FIRST),
            _protocols(_T3_FIRST),
            heading="The training protocols side by side"),
        Run("experiments.table3_protocols", _protocols(_T3_SECOND),
            _protocols(_T3_SECOND),
            heading="The split, the features and the noise of one draw, side "
                    "by side")), data=True, hours=2.2),  # 128 min, 2 cores
    Result("linear_rankers_why", (
        Run("experiments.why_hinge_surrogates", ("--lp",), (), flag=None,
            heading="Why the paper's linear rankers do not learn on MovieLens "
                    "100K"),
        Run("experiments.linear_rankers", ("--splits", "3"), ("--splits", "1",
                                                              "--quick"),
            flag=None, heading="The remedy, measured: which linear ranker beats "
                               "logistic regression"),
    ), data=True, hours=0.3),
    Result("core_speed", (
        Run("timing.bench_metrics", (), ("--n-rows", "20000", "--n-groups", "200",
                                         "--repeat", "1"), flag=None),
        Run("timing.bench_fit", ("--scale", "both"),
            ("--scale", "movielens", "--epochs", "2", "--repeats", "1"),
            flag=None, heading="Training epochs of the linear rankers"),
        Run("timing.bench_scale", (), ("--n-rows", "20000", "--epochs", "1",
                                       "--chunks", "2"),
            flag=None, heading="A fit on a million rows, dense and sparse"),
    ), hours=0.05),
    Result("long_lists", (
        Run("timing.bench_long_lists", (), ("--quick",), flag="--out"),),
        hours=0.1),
    Result("cli", (
        Run("timing.bench_cli", ("--compare", "--default-compare", "3"),
            ("--rows", "20000", "--users", "200", "--repeat", "1"), flag="--out"),),
        hours=0.1),
    Result("dask", (
        Run("timing.bench_dask", ("--worker-mmap-threshold", "33554432"),
            ("--rows", "20000", "--users", "200", "--partitions", "4",
             "--epochs", "1"), flag="--out"),
        Run("timing.bench_dask", (), ("--rows", "20000", "--users", "200",
                                      "--partitions", "4", "--epochs", "1"),
            flag="--out", heading="The same command with dask's default worker "
                                  "environment"),
    ), hours=0.1),
)


def _demote(text):
    """A later part: its title line dropped, its headings under the part's.

    The part's heading is level 2, so its shallowest heading moves to level 3
    and the others keep their distance to it.
    """
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    levels = [len(m.group(1)) for line in lines
              if (m := re.match(r"(#+) ", line))]
    shift = max(0, 3 - min(levels)) if levels else 0
    return "\n".join("#" * shift + line if re.match(r"#+ ", line) else line
                     for line in lines).strip("\n")


def _run(run, quick, results, tmp, log):
    """The Markdown part written (or printed) by one run."""
    fmt = {"results": str(results), "tmp": str(tmp)}
    args = [a.format(**fmt) for a in (run.quick if quick else run.args)]
    part = tmp / f"part{len(list(tmp.glob('part*')))}.md"
    command = [sys.executable, "-m", f"benchmarks.{run.module}", *args]
    if run.flag is not None:
        command += [run.flag, str(part)]
    log(f"$ {shlex.join(command[1:])}")
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, text=True, stdout=subprocess.PIPE)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        raise SystemExit(f"benchmarks.{run.module} failed (exit {proc.returncode}); "
                         f"no result file was written.")
    log(f"  done in {time.perf_counter() - start:.0f} s")
    if run.flag is None:
        return proc.stdout
    return part.read_text()


def build(result, quick, out, log):
    """Run every part of ``result`` and write ``out/<name>.md``."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        results = tmp / "results"  # the extra files, moved once all is done
        results.mkdir()
        texts = []
        for i, run in enumerate(result.runs):
            text = _run(run, quick, results, tmp, log).strip("\n")
            if i == 0:
                if not text.startswith("# "):
                    text = f"# {run.heading}\n\n{text}"
                texts.append(text)
            else:
                texts.append(f"## {run.heading}\n\n{_demote(text)}")
        missing = [name for name in result.extra_files
                   if not (results / name).is_file()]
        if missing:
            raise SystemExit(f"{result.name}: the runs wrote no {', '.join(missing)} "
                             f"(see their output above: a missing package?); "
                             f"no result file was written.")
        for name in result.extra_files:
            shutil.move(results / name, out / name)
            log(f"wrote {out / name}")
    path = out / f"{result.name}.md"
    path.write_text(_with_notes("\n\n".join(texts), result, quick))
    log(f"wrote {path}")


#: The line between the runs' output and the notes of a result file.
NOTES_MARK = "<!-- the notes follow: benchmarks/notes/{name}.md -->"


def _with_notes(runs_text, result, quick=False):
    """The result file: the runs' output, the marker, the notes, the footer."""
    texts = [runs_text, NOTES_MARK.format(name=result.name)]
    if result.notes.exists():
        texts.append(result.notes.read_text().strip("\n"))
    texts.append(f"---\n\nWritten by `python -m benchmarks run-all --only "
                 f"{result.name}`{' --quick' if quick else ''}: its runs above, "
                 f"in order, then `benchmarks/notes/{result.name}.md`; no hand "
                 f"edits.")
    return "\n\n".join(texts) + "\n"


def renote(result, out, log):
    """Replace the notes of ``out/<name>.md`` by the current notes file."""
    path = out / f"{result.name}.md"
    mark = NOTES_MARK.format(name=result.name)
    if not path.is_file():
        raise SystemExit(f"{path}: no such result file; write it with run-all "
                         f"--only {result.name}"
                         + (f" --out {out}" if out != RESULTS else "") + ".")
    text = path.read_text()
    if text.count(mark) != 1:
        raise SystemExit(f"{path} has {text.count(mark) or 'no'} line"
                         f"{'s' * (text.count(mark) > 1)} {mark!r} where one "
                         f"is written (it was written before renote existed, or "
                         f"edited); regenerate it with run-all --only "
                         f"{result.name}.")
    runs_text, after = text.split(mark)
    runs_text = runs_text.rstrip("\n")
    footer = after.rstrip("\n").rsplit("\n", 1)[-1]  # the last line
    quick = f"run-all --only {result.name}` --quick" in footer
    path.write_text(_with_notes(runs_text, result, quick))
    log(f"re-attached {result.notes} to {path}")


def _folder(text):
    """``--out``: a folder (created if missing), as an absolute path: the runs
    work in the repository root."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a folder, got an empty name")
    path = Path(text).expanduser().resolve()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file; give a folder")
    return path


def _check_data():
    """``SKPAPK_DATA`` as an absolute path to MovieLens 100K's ``u.data`` (or
    its folder), checked before any run; the runs work in the repository
    root."""
    value = os.environ.get("SKPAPK_DATA", "")
    path = Path(value).expanduser().resolve() if value else None
    if path is None or not (path.is_file() or (path / "u.data").is_file()):
        raise SystemExit(
            (f"SKPAPK_DATA={value!r} is neither MovieLens 100K's u.data nor a "
             f"folder holding it" if value else "SKPAPK_DATA is not set")
            + "; set it to that file or folder (never copy it into the "
            "repository).")
    os.environ["SKPAPK_DATA"] = str(path)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.splitlines()[0])
    names = [r.name for r in REGISTRY]
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the result files and the runs that write them")
    run_all = sub.add_parser("run-all", help="regenerate the result files")
    run_all.add_argument("--only", nargs="+", metavar="NAME", choices=names,
                         help="these result files only, of: " + ", ".join(names))
    run_all.add_argument("--quick", action="store_true",
                         help="tiny settings, into a temporary folder (a smoke "
                              "test; the numbers mean nothing)")
    run_all.add_argument("--out", type=_folder, default=None,
                         help="write here instead of benchmarks/results/")
    notes = sub.add_parser("renote", help="re-attach edited notes to result "
                                          "files, without rerunning them")
    notes.add_argument("only", nargs="+", metavar="NAME", choices=names,
                       help="of: " + ", ".join(names))
    notes.add_argument("--out", type=_folder, default=None,
                       help="the folder of the result files (default: "
                            "benchmarks/results/)")
    args = parser.parse_args(argv)
    if args.command == "renote":
        for result in REGISTRY:
            if result.name in args.only:
                renote(result, args.out or RESULTS, print)
        return
    chosen = [r for r in REGISTRY if args.command == "list" or args.only is None
              or r.name in args.only]
    if args.command == "list":
        for result in chosen:
            print(f"{result.name}.md (about {result.hours:g} h on 2 cores"
                  f"{', reads SKPAPK_DATA' if result.data else ''}):")
            # a shell expands the temporary folder: not quoted by shlex
            tmp = "SKPAPKTMPDIR"
            fmt = {"results": "benchmarks/results", "tmp": tmp}
            for i, run in enumerate(result.runs):  # as run-all runs them
                part = [run.flag, f"{tmp}/part{i}.md"] if run.flag else []
                command = shlex.join([f"benchmarks.{run.module}",
                                      *[a.format(**fmt) for a in run.args], *part])
                print("   python -m " + command.replace(tmp, "${TMPDIR:-/tmp}"))
        return
    if any(r.data for r in chosen):
        _check_data()
    if args.quick and args.out == RESULTS.resolve():
        run_all.error("--quick writes numbers that mean nothing: not into "
                     "benchmarks/results/; leave --out out, or give another "
                     "folder")
    out = (args.out if args.out is not None
           else Path(tempfile.mkdtemp(prefix="skpapk-bench-")) if args.quick
           else RESULTS)
    out.mkdir(parents=True, exist_ok=True)
    for result in chosen:
        print(f"== {result.name} ("
              f"{'--quick' if args.quick else f'about {result.hours:g} h'})",
              flush=True)
        build(result, args.quick, out,
              lambda line: print(line, flush=True))
    print(f"results in {out}")


if __name__ == "__main__":
    main()
