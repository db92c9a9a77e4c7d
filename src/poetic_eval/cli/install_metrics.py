"""``poetic-eval install-metrics``: make ``evaluate.load("<name>")`` work by bare name.

Writes, for every metric of this package, a small pointer module into evaluate's module cache
(``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--<name>/``), the place evaluate
looks for a bare name that the hub does not have. Run it again after changing HF_HOME or
HF_MODULES_CACHE; ``--remove`` deletes exactly what it wrote.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..evaluate_modules.bare_names import install_metrics, metrics_cache_dir, remove_metrics


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval install-metrics``."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--remove", action="store_true", help="delete the pointers this command wrote"
    )


def run(args: argparse.Namespace) -> int:
    if args.remove:
        removed = remove_metrics()
        print(f"removed {len(removed)} pointer(s) from {metrics_cache_dir()}")
        return 0
    installed = install_metrics()
    for metric in installed:
        print(f"evaluate.load({metric.name!r}) -> {metric.module_folder}")
    print(f"{len(installed)} metric(s) loadable by bare name (pointers in {metrics_cache_dir()})")
    print(
        "offline or behind a stalled network, set HF_EVALUATE_OFFLINE=1: evaluate asks the hub "
        "first and ignores HF_HUB_OFFLINE (a network that never answers costs ~5 min per load)"
    )
    return 0
