"""``poetic-eval publish``: push every built dataset folder to the hub, one commit each.

The token is read from ``HF_TOKEN`` only and never printed. Without it, or with ``--dry-run``,
nothing touches the network: the command prints which files would go to which repo, with sizes.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..hub import describe_plan, plan_uploads, publish


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "publish",
        help="push built datasets to the Hugging Face hub (dry run without HF_TOKEN)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--datasets",
        type=Path,
        default=Path("datasets"),
        metavar="DIR",
        help="folder of built datasets, one sub-folder each (default: datasets)",
    )
    parser.add_argument(
        "--org",
        default=None,
        help="hub user or organisation owning the repos (default: the token's user)",
    )
    parser.add_argument("--dry-run", action="store_true", help="only print what would be uploaded")
    parser.add_argument("--private", action="store_true", help="create new repos as private")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    plans = plan_uploads(args.datasets, args.org)
    token = os.environ.get("HF_TOKEN", "").strip()
    if args.dry_run or not token:
        reason = "--dry-run" if args.dry_run else "HF_TOKEN is not set"
        print(f"dry run ({reason}): nothing is uploaded")
        print(describe_plan(plans))
        return 0
    for plan, url in zip(plans, publish(plans, token=token, private=args.private)):
        print(f"{plan.name}: published ({len(plan.files)} files) {url}")
    return 0
