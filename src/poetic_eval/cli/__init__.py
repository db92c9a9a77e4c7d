"""The ``poetic-eval`` command line.

Each sub-command lives in its own module of this package, listed with its one-line help in
:data:`COMMANDS`, and exposes ``add_arguments(parser, words)`` (its options; ``words`` are the
command-line words after the command's name) and ``run(args)``. Only the module of the command
that runs is imported, so ``--help`` and the light commands start at once: a module imports
what its ``run`` needs inside ``run``.

A user error ends any command with one line, ``poetic-eval COMMAND: error: ...``, and status 1;
``--debug`` shows the traceback (:mod:`poetic_eval.cli.command_errors`). Output into a closed
pipe (``poetic-eval metrics | head -3``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..checks.names import unknown_name_message
from .arguments import first_word
from .command_errors import add_debug_flag, run_command

#: sub-command -> (its module in this package, one-line help), in the order --help lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "metrics": ("metrics", "list the metric modules and their folders"),
    "install-metrics": (
        "install_metrics",
        'make evaluate.load("<name>") find every metric by its bare name',
    ),
    "report": (
        "report",
        "write report.json, report.md and figures comparing generated with human poems",
    ),
    "analyze": (
        "analyze",
        "analyze a poem or a folder of poems (stanzas, syllables, stress, rhyme, novelty)",
    ),
    "build": ("build", "build a hub-ready dataset folder (bpomp, agreement, ... or all)"),
    "publish": (
        "publish",
        "push built datasets and metric Spaces to the hub (dry run without a token)",
    ),
    "score-pairs": (
        "score_pairs",
        "score a minimal-pair dataset with a language model and report accuracy",
    ),
    "verb-agreement": (
        "verb_agreement",
        "TSE / EW / MW of a language model on subject-verb agreement pairs",
    ),
    "blm-eval": (
        "blm_eval",
        "evaluate a causal LM on BLM-It items (prompting or candidate likelihood)",
    ),
    "harness-tasks": (
        "harness_tasks",
        "write lm-evaluation-harness task configs for the built datasets",
    ),
    "lighteval-tasks": (
        "lighteval_tasks",
        "write LightEval custom-task modules for the built datasets",
    ),
    "demo": (
        "demo",
        "build the datasets from the bundled seeds, score the default model, write a report",
    ),
}


def command_module(command: str):
    """The module of ``command`` (a key of :data:`COMMANDS`), imported now."""
    return importlib.import_module(f"{__name__}.{COMMANDS[command][0]}")


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for ``argv``: every command listed, the options of the one ``argv`` names."""
    parser = argparse.ArgumentParser(
        prog="poetic-eval",
        description="Poetic and linguistic minimal-pair benchmarks and poetry-diversity metrics.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = first_word(argv)
    if chosen is not None and chosen not in COMMANDS:
        parser.error(unknown_name_message(chosen, COMMANDS, "command"))
    for command, (_, help_line) in COMMANDS.items():
        subparser = subparsers.add_parser(command, help=help_line, description=help_line)
        # only the chosen command's options are built: the others' modules are never imported
        if command == chosen:
            words = argv[list(argv).index(chosen) + 1 :]
            command_module(command).add_arguments(subparser, words)
    add_debug_flag(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    run = command_module(args.command).run  # looked up now: tests replace it
    return run_command(run, args, f"poetic-eval {args.command}")


if __name__ == "__main__":
    sys.exit(main())
