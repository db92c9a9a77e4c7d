"""``poetic-eval build``: build hub-ready dataset folders, one or all of them.

    poetic-eval build bpomp --source limericks.json --out datasets/bpomp --seed 0 --n-pairs 10000
    poetic-eval build all --out datasets --seed 0 [--bpomp-source PATH] [--n-pairs N]

Each builder's options are generated from its declared config (:mod:`poetic_eval.builders`);
only the module of the builder that runs is imported. A single build writes the folder at
``--out``; ``all`` writes ``DIR/<name>`` for every registered builder, after checking every
target. The card records the equivalent single-builder command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..builders import BUILDERS
from ..builders.options import BuildConfig, OptionSpec, declared_options
from ..checks.names import unknown_name_message
from .arguments import first_word

ALL = "all"


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """One sub-command per registered builder, plus ``all``; only the chosen one's options."""
    subparsers = parser.add_subparsers(dest="dataset", metavar="DATASET", required=True)
    chosen = first_word(words)
    if chosen is not None and chosen not in (*BUILDERS, ALL):
        parser.error(unknown_name_message(chosen, [*BUILDERS, ALL], "builder"))
    for name, builder in BUILDERS.items():
        subparser = subparsers.add_parser(
            name, help=builder.description, description=builder.description
        )
        if chosen == name:
            subparser.add_argument(
                "--out", type=Path, required=True, metavar="DIR",
                help="dataset folder to write (replaced atomically)",
            )  # fmt: skip
            add_options(subparser, declared_options(builder.load().Config))
    everything = subparsers.add_parser(ALL, help="build every dataset into DIR/<name>")
    if chosen == ALL:
        add_all_options(everything)


def add_options(parser: argparse.ArgumentParser, specs: Sequence[OptionSpec]) -> None:
    """A command-line option per declared option (a boolean: a switch off its default)."""
    for spec in specs:
        if spec.kind is bool:
            action = "store_false" if spec.default else "store_true"
            parser.add_argument(spec.flag, dest=spec.name, action=action, help=spec.help)
            continue
        metavar = spec.metavar or ("{" + ",".join(spec.choices) + "}" if spec.choices else None)
        parser.add_argument(
            spec.flag, dest=spec.name, type=spec.kind, default=spec.default, metavar=metavar,
            help=spec.help,
        )  # fmt: skip


def add_all_options(parser: argparse.ArgumentParser) -> None:
    """``all``: the common options, ``--<name>-source`` per builder and the shared options."""
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR",
        help="folder receiving one sub-folder per dataset",
    )  # fmt: skip
    common = {"seed", "show_progress"}
    add_options(parser, [s for s in declared_options(BuildConfig) if s.name in common])
    for name in BUILDERS:
        parser.add_argument(
            f"--{name}-source", dest=f"{name}_source", type=Path, default=None, metavar="PATH",
            help=f"source of {name} (default: its bundled source)",
        )  # fmt: skip
    shared: dict[str, tuple[OptionSpec, list[str]]] = {}
    for name, builder in BUILDERS.items():
        for spec in declared_options(builder.load().Config):
            if spec.in_all:
                shared.setdefault(spec.name, (spec, []))[1].append(name)
    for spec, receivers in shared.values():
        parser.add_argument(
            spec.flag, dest=spec.name, type=spec.kind, default=None,
            help=f"{spec.help} (builders: {', '.join(receivers)})",
        )  # fmt: skip


def config_from(args: argparse.Namespace, name: str) -> BuildConfig:
    """The config of builder ``name`` from a single build's command line."""
    config_class = BUILDERS[name].load().Config
    specs = declared_options(config_class)
    return config_class(**{spec.name: getattr(args, spec.name) for spec in specs})


def run(args: argparse.Namespace) -> int:
    if args.dataset == ALL:
        return run_all(args)
    build_into(args.dataset, config_from(args, args.dataset), args.out)
    return 0


def run_all(args: argparse.Namespace) -> int:
    from ..hub import check_replaceable

    configs = {name: all_config(args, name) for name in BUILDERS}
    for name in BUILDERS:  # every target first: nothing is built when one would be refused
        check_replaceable(args.out / name, "--out")
    for name, config in configs.items():
        build_into(name, config, args.out / name)
    return 0


def all_config(args: argparse.Namespace, name: str) -> BuildConfig:
    """Builder ``name``'s config in ``build all``: the common options, its source and the
    shared options given on the command line (the others keep the builder's defaults)."""
    config_class = BUILDERS[name].load().Config
    values: dict[str, Any] = {
        "seed": args.seed, "show_progress": args.show_progress,
        "source": getattr(args, f"{name}_source"),
    }  # fmt: skip
    for spec in declared_options(config_class):
        if spec.in_all and getattr(args, spec.name, None) is not None:
            values[spec.name] = getattr(args, spec.name)
    return config_class(**values)


def build_into(name: str, config: BuildConfig, out: Path) -> None:
    """Build ``config`` with builder ``name`` into the folder ``out``; print the report."""
    from ..builders import build_dataset
    from ..builders.options import recorded_command
    from ..hub import check_replaceable, write_hub_dataset

    check_replaceable(out, "--out")  # before the build: a refused --out wastes no work
    dataset = build_dataset(name, config)
    write_hub_dataset(dataset, out, build_command=recorded_command(name, config, out))
    for line in dataset.report:
        print(f"{dataset.name}: {line}", file=sys.stderr)
    counts = ", ".join(
        f"{data.name}={sum(len(rows) for rows in data.splits.values())}" for data in dataset.configs
    )
    print(f"{dataset.name}: wrote {out} ({counts})")
