"""``poetic-eval metrics``: list the metric modules and where they are."""

from __future__ import annotations

import argparse

from ..evaluate_modules.locations import available_metrics, metric_path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("metrics", help="list the metric modules and their folders")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name in available_metrics():
        print(f"{name}\t{metric_path(name)}")
    return 0
