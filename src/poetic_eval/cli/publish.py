"""``poetic-eval publish``: push the built datasets and the metric Spaces to the hub.

Every built dataset folder goes to the dataset repo ``<org>/<name>`` (its card and the data
files the card lists; nothing else) and every metric to the Space ``<org>/<metric>``
(evaluate's layout, so ``evaluate.load("<org>/<metric>")`` works), one commit per repo, and
only for repos whose files changed. The token is ``--token``, else huggingface_hub's own
(``HF_TOKEN``, then the login saved by ``hf auth login``), and is never printed. Without one,
or with ``--dry-run``, nothing touches the network: the command lists the operations of each
repo's commit, with sizes, and warns of broken data files (which a real publish refuses). A
publish that stopped halfway is finished by running it again.

Each dataset repo gets an ``eval.yaml`` naming its tasks (the Hub then shows a leaderboard on its
page). With --eval-results DIR --model-repo OWNER/NAME it pushes only a model's
``.eval_results/*.yaml`` (written by ``poetic-eval report --eval-results DIR``) to that model
repo, as a pull request unless the token's user or one of its organisations owns it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..errors import InvalidValueError
from ..evaluate_modules.spaces import plan_metric_spaces
from ..hub import describe_plan, plan_dataset_uploads, publish
from ..hub.publish import DEFAULT_TIMEOUT, HOW_TO_LOG_IN
from ..hub.upload_plan import plan_eval_results


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval publish``."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
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
    parser.add_argument(
        "--token",
        default=None,
        help="hub token with write access (default: HF_TOKEN, then the `hf auth login` one; "
        "prefer those: a command-line argument is visible to other users of the machine)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"longest wait for the hub on any one request (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("--dry-run", action="store_true", help="only list what would be pushed")
    parser.add_argument("--private", action="store_true", help="create new repos as private")
    parser.add_argument(
        "--skip-datasets", action="store_true", help="publish the metric Spaces only"
    )
    parser.add_argument("--skip-metrics", action="store_true", help="publish the datasets only")
    parser.add_argument(
        "--eval-results",
        type=Path,
        metavar="DIR",
        help="instead, push DIR/.eval_results/*.yaml (`poetic-eval report --eval-results DIR`) "
        "to --model-repo in one commit: a pull request unless the token's user or org owns it",
    )
    parser.add_argument(
        "--model-repo", metavar="OWNER/NAME", help="the model repo the eval results belong to"
    )


def run(args: argparse.Namespace) -> int:
    plans = planned_repos(args)
    if not plans:
        raise InvalidValueError("nothing to publish: --skip-datasets and --skip-metrics together")
    # a blank --token counts as none; a dry run does not even look for the saved token
    token = (args.token or "").strip() or (None if args.dry_run else find_token())
    if args.dry_run or not token:
        reason = "--dry-run" if args.dry_run else f"no Hugging Face token found: {HOW_TO_LOG_IN}"
        print(f"dry run ({reason}): nothing is uploaded")
        print(describe_plan(plans))
        return 0
    # a PublishError is a UserError: run_command prints it as one line and exits with 1
    publish(
        plans,
        token=token,
        private=args.private,
        timeout=args.timeout,
        on_result=lambda result: print(result.summary(), flush=True),
    )
    return 0


def planned_repos(args: argparse.Namespace) -> list:
    """The model repo of --eval-results; else the dataset repos and the metric Spaces."""
    if args.eval_results is not None or args.model_repo is not None:
        if args.eval_results is None or args.model_repo is None:
            raise InvalidValueError("--eval-results DIR and --model-repo OWNER/NAME go together")
        return [plan_eval_results(args.eval_results, args.model_repo)]
    plans = [] if args.skip_datasets else plan_dataset_uploads(args.datasets, args.org)
    if not args.skip_metrics:
        plans += plan_metric_spaces(args.org)
    return plans


def find_token() -> str | None:
    """huggingface_hub's token: ``HF_TOKEN``, then the one ``hf auth login`` saved."""
    from huggingface_hub import get_token

    return get_token()
