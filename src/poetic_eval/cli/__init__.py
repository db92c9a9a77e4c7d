"""The ``poetic-eval`` command line.

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to the callable that runs it.
A user error ends any command with one line, ``poetic-eval COMMAND: error: ...``, and status 1;
``--debug`` shows the traceback (:mod:`poetic_eval.cli.command_errors`).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .command_errors import add_debug_flag, run_command

# sub-command module names, in the order --help lists them
COMMAND_MODULES = (
    "metrics",
    "install_metrics",
    "report",
    "analyze",
    "build",
    "publish",
    "score_pairs",
    "verb_agreement",
    "blm_eval",
    "harness_tasks",
    "demo",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="poetic-eval",
        description="Poetic and linguistic minimal-pair benchmarks and poetry-diversity metrics.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{module_name}").register(subparsers)
    add_debug_flag(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return run_command(args.func, args, f"poetic-eval {args.command}")


if __name__ == "__main__":
    sys.exit(main())
