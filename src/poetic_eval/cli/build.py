"""``poetic-eval build``: build a hub-ready dataset folder (same options as ``python -m builders``)."""

from __future__ import annotations

import argparse
import importlib
import sys

from ..module_paths import _CHECKOUT_ROOT


def _builders_command_line():
    """``builders.command_line``: installed with the wheel, or beside ``src/`` in a checkout."""
    try:
        return importlib.import_module("builders.command_line")
    except ModuleNotFoundError as error:
        if error.name != "builders" or not (_CHECKOUT_ROOT / "builders").is_dir():
            raise
    sys.path.insert(0, str(_CHECKOUT_ROOT))  # an editable install that maps only src/
    return importlib.import_module("builders.command_line")


def register(subparsers: argparse._SubParsersAction) -> None:
    command_line = _builders_command_line()
    parser = subparsers.add_parser(
        "build", help="build a hub-ready dataset folder (bpomp, agreement, ... or all)"
    )
    command_line.add_build_commands(
        parser.add_subparsers(dest="dataset", metavar="DATASET", required=True)
    )
