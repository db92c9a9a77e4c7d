"""``python -m builders`` (and ``poetic-eval build``): build one dataset, or all of them.

    python -m builders bpomp --source limericks.json --out datasets/bpomp --seed 0 --n-pairs 10000
    python -m builders all --out datasets --seed 0 [--bpomp-source PATH] [--n-pairs N]

A single build writes the hub-ready folder to ``--out``; ``all`` writes ``DIR/<name>`` for
every registered builder. The card records the equivalent single-builder command.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from poetic_eval.cli.command_errors import add_debug_flag, run_command
from poetic_eval.hub import HubDataset, check_replaceable, write_hub_dataset

from . import BUILDERS

# options of `all` that are forwarded to the builders listing them in `all_options`
_ALL_OPTIONS = {
    "n_pairs": {"flag": "--n-pairs", "type": int, "help": "pairs per config (builders: {names})"},
}


def available_builders() -> dict[str, ModuleType]:
    """Every registered builder's module, by name."""
    return {name: builder.load() for name, builder in BUILDERS.items()}


def add_common_arguments(parser: argparse.ArgumentParser, *, out_help: str) -> None:
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help=out_help)
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--no-progress", dest="progress", action="store_false", help="hide progress bars"
    )


def builder_parser(name: str, module: ModuleType, parser: argparse.ArgumentParser) -> None:
    """Fill ``parser`` with the options of one builder."""
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        metavar="PATH",
        help="source file (default: the builder's bundled or generated source)",
    )
    parser.add_argument(
        "--license",
        default=None,
        help="license of the built data, written into the card (default: cc-by-4.0 for the "
        "project's own data, 'other' for a source of yours: set it to your source's license)",
    )
    parser.add_argument(
        "--license-name",
        default=None,
        metavar="NAME",
        help="with license 'other': an id for your source's license (e.g. my-corpus-terms-1.0), "
        "written into the card as license_name",
    )
    parser.add_argument(
        "--license-link",
        default=None,
        metavar="URL",
        help="with license 'other': where your source's license is (a URL), written into the "
        "card as license_link",
    )
    add_common_arguments(parser, out_help="dataset folder to write (replaced atomically)")
    module.add_arguments(parser)
    parser.set_defaults(func=run_one, dataset=name, builder_parser=parser)


def add_build_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add one sub-command per available builder, plus ``all``."""
    modules = available_builders()
    for name, module in modules.items():
        builder_parser(name, module, subparsers.add_parser(name, help=module.DESCRIPTION))
    everything = subparsers.add_parser("all", help="build every dataset into DIR/<name>")
    add_common_arguments(everything, out_help="folder receiving one sub-folder per dataset")
    for name in modules:
        everything.add_argument(
            f"--{name}-source",
            type=Path,
            default=None,
            metavar="PATH",
            help=f"source of {name} (default: its bundled source)",
        )
    for dest, option in _ALL_OPTIONS.items():
        receivers = [
            b.name for b in BUILDERS.values() if dest in b.all_options and b.name in modules
        ]
        everything.add_argument(
            option["flag"],
            dest=dest,
            type=option["type"],
            default=None,
            help=option["help"].format(names=", ".join(receivers)),
        )
    everything.set_defaults(func=run_all)


def build_parser(prog: str = "python -m builders") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Build hub-ready dataset folders.")
    add_build_commands(parser.add_subparsers(dest="dataset", metavar="DATASET", required=True))
    return parser


def command_line(name: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The canonical ``poetic-eval build <name> ...`` command equivalent to ``args``.

    Paths appear by file name only: the card is published, and must depend neither on where
    it was built nor on the builder's folders and user name.
    """
    words = ["poetic-eval", "build", name]
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "progress"):
            continue  # display options do not change the data
        value = getattr(args, action.dest, None)
        if isinstance(action, argparse._StoreFalseAction):
            if value is False:
                words.append(action.option_strings[0])
        elif isinstance(action, argparse._StoreTrueAction):
            if value is True:
                words.append(action.option_strings[0])
        elif isinstance(value, Path):
            words += [action.option_strings[0], value.name]
        elif value is not None:
            words += [action.option_strings[0], str(value)]
    return shlex.join(words)


def with_license(dataset: HubDataset, args: argparse.Namespace) -> HubDataset:
    """``dataset`` with the ``--license``, ``--license-name`` and ``--license-link`` given."""
    given = {"--license-name": args.license_name, "--license-link": args.license_link}
    missing = [flag for flag, value in given.items() if not value]
    if len(missing) == 1:
        (present,) = set(given) - set(missing)
        raise ValueError(
            f"{present} needs {missing[0]} too (the hub wants both for license 'other')"
        )
    named = not missing
    license = args.license or dataset.license
    if named and license != "other":
        raise ValueError(
            f"--license-name and --license-link are for license 'other', not {license!r}: "
            "add --license other, or drop them"
        )
    if not (args.license or named):
        return dataset
    return replace(
        dataset,
        license=license,
        license_name=args.license_name or "",
        license_link=args.license_link or "",
    )


def run_one(args: argparse.Namespace) -> int:
    check_replaceable(args.out, "--out")  # before the build: a refused --out wastes no work
    module = available_builders()[args.dataset]
    dataset = module.from_arguments(args).without_empty_configs()
    dataset = with_license(dataset, args)
    if dataset.name != args.dataset:
        raise ValueError(f"builder {args.dataset!r} returned a dataset named {dataset.name!r}")
    command = command_line(args.dataset, args.builder_parser, args)
    write_hub_dataset(dataset, args.out, build_command=command)
    for line in dataset.report:
        print(f"{dataset.name}: {line}", file=sys.stderr)
    counts = ", ".join(
        f"{config.name}={sum(len(rows) for rows in config.splits.values())}"
        for config in dataset.configs
    )
    print(f"{dataset.name}: wrote {args.out} ({counts})")
    return 0


def run_all(args: argparse.Namespace) -> int:
    modules = available_builders()
    for name in modules:  # every target first: nothing is built when one would be refused
        check_replaceable(args.out / name, "--out")
    for name, module in modules.items():
        parser = argparse.ArgumentParser(prog=f"python -m builders {name}")
        builder_parser(name, module, parser)
        argv = ["--out", str(args.out / name), "--seed", str(args.seed)]
        if not args.progress:
            argv.append("--no-progress")
        source = getattr(args, f"{name}_source".replace("-", "_"))
        if source is not None:
            argv += ["--source", str(source)]
        for dest in BUILDERS[name].all_options:
            if getattr(args, dest, None) is not None:
                argv += [_ALL_OPTIONS[dest]["flag"], str(getattr(args, dest))]
        run_one(parser.parse_args(argv))
    return 0


def main(argv: list[str] | None = None, prog: str = "python -m builders") -> int:
    parser = build_parser(prog)
    add_debug_flag(parser)
    args = parser.parse_args(argv)
    return run_command(args.func, args, f"{prog} {args.dataset}")
