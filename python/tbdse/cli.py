"""The ``tbdse`` command: run and validate experiment files, list what exists.

tbdse run experiments/quickstart.yaml -o results/quickstart
tbdse validate experiments/quickstart.yaml
tbdse list [schemes|gpus|workloads|costs|metrics]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import pandas as pd

from tbdse.errors import ConfigError, SimulationError, SweepInterrupted

LISTS = ("schemes", "gpus", "workloads", "costs", "metrics")


def _print_table(frame: pd.DataFrame) -> None:
    with pd.option_context(
        "display.max_rows",
        None,
        "display.max_columns",
        None,
        "display.width",
        200,
        "display.max_colwidth",
        70,
    ):
        print(frame.to_string(index=False))


def _list(what: str) -> None:
    import tbdse as td
    from tbdse.results import metric_info

    if what == "schemes":
        for name in td.schemes.names():
            meta = td.schemes.info(name)
            print(f"{name}: {meta['summary']} [{meta['paper_ref']}]")
            for p in meta["params"]:
                choices = f" (one of {', '.join(p['choices'])})" if p["choices"] else ""
                unit = f" {p['unit']}" if p["unit"] else ""
                print(f"    {p['name']} = {p['default']}{unit}{choices}: {p['doc']}")
            stats = ", ".join(s["name"] for s in meta["stats"])
            print(f"    reports: {stats}")
    elif what == "gpus":
        _print_table(td.gpus.list_presets().reset_index())
    elif what == "workloads":
        _print_table(td.workloads.list_generators().fillna(""))
    elif what == "costs":
        for kind, params in td.cost.kinds().items():
            args = ", ".join(f"{k}={v:g}" for k, v in params.items())
            print(f"{kind}({args})")
    else:
        _print_table(pd.DataFrame(metric_info().values()))


def _threads(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 4096; got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tbdse", description="Design-space exploration of GPU thread-block scheduling."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run an experiment file")
    run.add_argument("file", help="experiment YAML file")
    run.add_argument("-o", "--out", required=True, help="output directory")
    run.add_argument(
        "--threads", type=_threads, default=None, help="worker threads (default: all cores)"
    )
    run.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    run.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    val = sub.add_parser("validate", help="check an experiment file without running it")
    val.add_argument("file")
    lst = sub.add_parser("list", help="list schemes, GPU presets, workload generators, ...")
    lst.add_argument("what", nargs="?", choices=LISTS, default="schemes")
    args = parser.parse_args(argv)

    from tbdse import experiment

    try:
        if args.command == "list":
            _list(args.what)
            return 0
        exp = experiment.load(args.file)
        if args.command == "validate":
            print(f"{args.file}: OK ({experiment.count_runs(exp)} runs)")
            return 0
        frame = exp.run(
            args.out,
            resume=args.resume,
            threads=args.threads,
            progress=False if args.no_progress else None,
        )
        print(f"{exp.name}: {len(frame)} runs; results and figures are in {args.out}")
        return 0
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SweepInterrupted as exc:
        print(f"\n{exc}", file=sys.stderr)
        return 130
    except SimulationError as exc:
        print(f"simulation error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
