"""The ``tbdse`` command: run and validate experiment files, list what exists.

tbdse run experiments/quickstart.yaml -o results/quickstart
tbdse run experiments/quickstart.yaml seed=3 'grid.gpu.sms=[15,30]'   # overrides; -o optional
tbdse run experiments/quickstart.yaml -o out replicates=2 --trace 5   # overrides anywhere
tbdse validate experiments/quickstart.yaml
tbdse plot results/quickstart                 # figures again, from the results store
tbdse adopt results/quickstart                # trust a folder an earlier tbdse wrote
tbdse list [schemes|gpus|workloads|costs|metrics]
tbdse example [NAME -o DIR]                   # the packaged examples: list, or run one
tbdse completion bash > /etc/bash_completion.d/tbdse       # or zsh
python -m tbdse ...                                         # the same command

Exit status: 0 success; 1 a run failed (or runs recorded as failed that the
file does not expect); 2 bad input (a ConfigError: the file, its values, the
output folder); 130 interrupted (Ctrl-C); 143 / 129 stopped by SIGTERM / SIGHUP,
which clean up as Ctrl-C does (temporary files removed, finished runs kept).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

from tbdse._util.excerpts import show_input
from tbdse.errors import ConfigError, SimulationError, SweepInterrupted
from tbdse.experiment.listing import list_table
from tbdse.experiment.trace_pick import trace_arg, trace_words

LISTS = ("schemes", "gpus", "workloads", "costs", "metrics")
OVERRIDES_HELP = (
    "change the file's values first, in OmegaConf's dotlist grammar: scheme.node_buffer=64 "
    "'grid.gpu.sms=[15,30]' seed=3, or ~KEY to remove a key"
)


def provenance(file: str, overrides: Sequence[str]) -> dict[str, object]:
    """What made a run, for its manifest: command line, overrides, tbdse's
    version, the experiment file's git commit (when it is in a repository),
    host and start time."""
    from pathlib import Path

    from tbdse import _core

    commit = None
    try:
        folder = Path(file).resolve().parent
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        commit = (done.stdout.strip() or None) if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        pass
    return {
        "command": " ".join(sys.argv)[:2000],
        "overrides": list(overrides),
        "tbdse_version": _core.__version__,
        "git_commit": commit,
        "host": socket.gethostname(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _threads(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 4096; got {text!r}")
    return value


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, with KEY=VALUE overrides anywhere after the file (as
    Hydra takes them): argparse stops a positional list at the first option,
    so the words it leaves over are overrides; a leftover option is refused."""
    parser = _parser()
    words = trace_words(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(words)
    if extra:
        takes = args.command in ("run", "validate")
        stray = [w for w in extra if not takes or w.startswith("-")]
        if stray:
            parser.error(f"unrecognized arguments: {' '.join(stray)}")
        args.overrides = [*args.overrides, *extra]
    return args


def _progress_flags(command: argparse.ArgumentParser) -> None:
    shown = command.add_mutually_exclusive_group()
    shown.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar even when stderr is not a terminal (default: on a terminal, "
        "for sweeps over a second)",
    )
    shown.add_argument("--no-progress", action="store_true", help="never show a progress bar")


def _parser() -> argparse.ArgumentParser:
    from tbdse import _core

    parser = argparse.ArgumentParser(
        prog="tbdse", description="Design-space exploration of GPU thread-block scheduling."
    )
    parser.add_argument("--version", action="version", version=f"tbdse {_core.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = sub.add_parser("run", help="run an experiment file")
    run.add_argument("file", help="experiment YAML file")
    run.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help=OVERRIDES_HELP)
    run.add_argument(
        "-o",
        "--out",
        help="output folder (default: results/<experiment>/<date-time>, made new)",
    )
    run.add_argument(
        "--threads", type=_threads, default=None, help="worker threads (default: all cores)"
    )
    run.add_argument(
        "--resume",
        action="store_true",
        help="kept for compatibility: runs in --out's results store are always reused",
    )
    run.add_argument(
        "--overwrite",
        action="store_true",
        help="replace another experiment's results in --out (only files tbdse can prove it "
        "wrote are removed)",
    )
    _progress_flags(run)
    run.add_argument(
        "--trace",
        nargs="?",
        const="0",
        type=trace_arg,
        metavar="RUN",
        help="also write OUT/trace.json: a run's timeline for ui.perfetto.dev (TB schemes and "
        "worklists; not the VGIW machines). RUN is a row number of the results (default 0: "
        "the first run) or a configuration hash (config_hash, or its first 4+ hex digits)",
    )
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on the Dask cluster of this scheduler (tcp://host:8786)",
    )
    plot = sub.add_parser(
        "plot", help="redraw an experiment's figures from its results store, without simulating"
    )
    plot.add_argument("folder", help="the output folder of `tbdse run`")
    plot.add_argument(
        "-f",
        "--file",
        help="experiment file whose plots to draw (default: the folder's resolved.yaml)",
    )
    adopt = sub.add_parser(
        "adopt",
        help="sign an output folder or results store that an earlier tbdse (or this user "
        "elsewhere) wrote, so tbdse may replace its files: only files that still match their "
        "recorded hashes",
    )
    adopt.add_argument("folder", help="output folder of `tbdse run`, or a results store")
    val = sub.add_parser("validate", help="check an experiment file without running it")
    val.add_argument("file")
    val.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help=OVERRIDES_HELP)
    comp = sub.add_parser("completion", help="print a shell completion script")
    comp.add_argument("shell", choices=("bash", "zsh"))
    for command in (run, val, plot):
        command.add_argument(
            "--input-root",
            metavar="DIR",
            help="refuse any input file the experiment names (graphs, task lists, ...) that "
            "does not lie below DIR (an experiment file reads the paths it names, like code)",
        )
        command.add_argument(
            "--allow-policy-imports",
            action="store_true",
            help="let the experiment's schemes import user policies (policy: pkg.mod:fn), "
            "which runs their code",
        )
    lst = sub.add_parser("list", help="list schemes, GPU presets, workload generators, ...")
    lst.add_argument("what", nargs="?", choices=LISTS, default="schemes")
    ex = sub.add_parser("example", help="list the packaged example experiments, or run one")
    ex.add_argument("name", nargs="?", help="the example to run as `tbdse run` would")
    ex.add_argument("-o", "--out", help="output folder (default: results/<example>/<date-time>)")
    _progress_flags(ex)
    ex.set_defaults(file=None, overrides=[], threads=None, overwrite=False, scheduler=None)
    ex.set_defaults(trace=None, input_root=None, allow_policy_imports=False)
    for command in (run, val, plot, lst, comp, ex, adopt):
        talk = command.add_mutually_exclusive_group()
        talk.add_argument("-v", "--verbose", action="store_true", help="say more")
        talk.add_argument("-q", "--quiet", action="store_true", help="say only warnings and errors")
    # Error messages quote input files only when asked (before or after the command).
    show_help = "let error messages quote short, escaped excerpts of input files"
    parser.add_argument("--show-input", action="store_true", help=show_help)
    for command in sub.choices.values():
        command.add_argument(
            "--show-input", action="store_true", default=argparse.SUPPRESS, help=show_help
        )
    return parser


def _completion(shell: str) -> None:
    try:
        import shtab
    except ImportError:
        raise ConfigError("shell completion needs shtab: pip install shtab") from None
    print(shtab.complete(_parser(), shell=shell))


def _logger(args: argparse.Namespace) -> logging.Logger:
    """The 'tbdse' logger, printing plain lines to stdout at the chosen level."""
    log = logging.getLogger("tbdse")
    for handler in list(log.handlers):
        log.removeHandler(handler)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(handler)
    log.propagate = False
    verbose, quiet = getattr(args, "verbose", False), getattr(args, "quiet", False)
    log.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    return log


def _default_out(name: str) -> str:
    """results/<experiment>/<date-time>, a folder that does not exist yet."""
    from pathlib import Path

    from tbdse.experiment.file import name_problem

    why = name_problem(name)  # checked when the file was read; kept below results/ regardless
    if why is not None:
        raise ConfigError(f"the experiment's name {why}; pass -o to choose the output folder")
    base = Path("results") / name / time.strftime("%Y%m%d-%H%M%S")
    out, n = base, 1
    while out.exists():
        out, n = base.with_name(f"{base.name}-{n}"), n + 1
    return str(out)


def _run(args: argparse.Namespace) -> int:
    from tbdse import experiment
    from tbdse.simulation.mechanisms import never_acted
    from tbdse.simulation.results import failure_summary

    log = _logger(args)
    if args.command == "list":
        list_table(args.what)
        return 0
    if args.command == "completion":
        _completion(args.shell)
        return 0
    if args.command == "adopt":
        from tbdse.experiment.adopt import adopt

        adopt(args.folder, echo=log.info)
        return 0
    if args.command == "plot":
        from pathlib import Path

        if args.file is None:  # the folder's own resolved.yaml: only from a record we can read
            _refuse_earlier_format(Path(args.folder))
        source = args.file or str(Path(args.folder) / "resolved.yaml")
        experiment.load(source, input_root=args.input_root).plot(args.folder, echo=log.info)
        return 0
    if args.command == "example":  # a packaged experiment file, then as `tbdse run FILE`
        from tbdse.experiment import examples

        if args.name is None:
            for name in examples.names():
                print(f"{name:<30} {examples.describe(name)}")
            return 0
        args.file = str(examples.path(args.name))
    exp = experiment.load(args.file, input_root=args.input_root, overrides=args.overrides)
    if args.command == "validate":
        log.info(f"{args.file}: OK ({experiment.count_runs(exp)} runs)")
        return 0
    if args.out is None:  # said before the run, which may be long
        args.out = _default_out(exp.name)
        log.info(f"output folder: {args.out}")
    asked = True if args.progress else False if args.no_progress or args.quiet else None
    frame = exp.run(
        args.out,
        overwrite=args.overwrite,
        threads=args.threads,
        progress=asked,
        executor=args.scheduler,
        echo=log.debug,  # what was reused and written: with -v; the summary says the rest
        provenance=provenance(args.file, args.overrides),
        trace=False if args.trace is None else args.trace,
    )
    problems = failure_summary(frame)
    for line in problems:
        print(line, file=sys.stderr)
    idle = never_acted(frame)  # a mechanism switched on that did nothing (a quiet zero else)
    for line in idle:
        print(f"warning: {line}", file=sys.stderr)
    # Runs stopped at the file's timeout_s are what it asked for, not failures.
    failed = int((~frame["status"].isin(["ok", "timed_out"])).sum()) if problems else 0
    timed_out = int((frame["status"] == "timed_out").sum()) if problems else 0
    log.info(summary_line(exp.name, frame, failed, timed_out, args.out, len(idle)))
    if failed and not exp.expect_failures:
        print(
            f"error: {failed} run(s) failed; if failures are expected, say "
            "'expect_failures: true' in the experiment file",
            file=sys.stderr,
        )
        return 1
    return 0


def summary_line(
    name: str, frame: Any, failed: int, timed_out: int, out: str, warnings: int = 0
) -> str:
    """One line for the end of `tbdse run`: what ran now, what the results
    store already held, what failed, the warnings above it, and where it all is."""
    simulated = frame.attrs.get("runs_simulated", len(frame))
    reused = frame.attrs.get("runs_reused", 0)
    late = f", timed out {timed_out}" if timed_out else ""
    said = f", warnings {warnings} (above)" if warnings else ""
    return f"{name}: simulated {simulated}, reused {reused}, failed {failed}{late}{said} -> {out}"


STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # a kill, a closed terminal: stop as Ctrl-C does


@contextlib.contextmanager
def _stop_signals() -> Iterator[list[int]]:
    """While the block runs, SIGTERM and SIGHUP raise KeyboardInterrupt as
    SIGINT does, so temporary files are removed and finished rows kept; the
    list yielded holds the signal received.  A signal set to be ignored (nohup)
    stays ignored; a second one while unwinding is ignored, so clean-up ends."""
    got: list[int] = []

    def stop(signum: int, frame: object) -> None:
        if not got:
            got.append(signum)
            raise KeyboardInterrupt

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in STOP_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) == signal.SIG_DFL:
                previous[number] = signal.signal(number, stop)
    try:
        yield got
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _refuse_earlier_format(folder: Path) -> None:
    """A folder an earlier tbdse wrote keeps that release's resolved.yaml
    (with parameters today's runs refuse as unread): say to adopt it first,
    before reading its files."""
    import json

    from tbdse.experiment.outdir import FORMAT, MANIFEST
    from tbdse.io.ownership import adopt_hint

    try:
        with open(folder / MANIFEST, encoding="utf-8") as f:
            record = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return  # no readable record: Experiment.plot says what is missing
    found = record.get("format") if isinstance(record, dict) else None
    if isinstance(found, int) and found < FORMAT:
        raise ConfigError(
            f"{folder} was written by an earlier tbdse (format {found}). " + adopt_hint(folder)
        )


def main(argv: Sequence[str] | None = None) -> int:
    with _stop_signals() as got:
        return _main(argv, got)


def _main(argv: Sequence[str] | None, got: list[int]) -> int:
    try:
        args = _parse(argv)
        from tbdse.schemes.policies import allow_imports

        with (
            show_input(args.show_input),
            allow_imports(getattr(args, "allow_policy_imports", False)),
        ):
            return _run(args)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # SweepInterrupted too: it says what was kept
        by = f" by {signal.Signals(got[0]).name}" if got else ""
        said = str(exc) if isinstance(exc, SweepInterrupted) else "interrupted"
        print(f"\n{said}{by}", file=sys.stderr)
        return 128 + (got[0] if got else signal.SIGINT)  # the shells' convention
    except SimulationError as exc:
        print(f"simulation error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (tbdse list | head): stop quietly, and keep
        # Python from complaining when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:
        # A full or read-only disk, a file system refusing an operation: the
        # system's reason and the file, not a traceback.
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or type(exc).__name__}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
