"""``poetic-eval build``: build a hub-ready dataset folder (as ``python -m builders`` does)."""

from __future__ import annotations

import argparse

from ..resources import builders_command_line


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "build", help="build a hub-ready dataset folder (bpomp, agreement, ... or all)"
    )
    builders_command_line().add_build_commands(
        parser.add_subparsers(dest="dataset", metavar="DATASET", required=True)
    )
