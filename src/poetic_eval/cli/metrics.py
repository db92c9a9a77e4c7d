"""``poetic-eval metrics``: list the metric modules and where they are."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..evaluate_modules.locations import available_metrics, metric_path


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval metrics``."""


def run(args: argparse.Namespace) -> int:
    for name in available_metrics():
        print(f"{name}\t{metric_path(name)}")
    return 0
