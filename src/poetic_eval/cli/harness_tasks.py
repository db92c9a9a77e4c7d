"""``poetic-eval harness-tasks``: lm-evaluation-harness task configs for the built datasets.

Writes one folder per dataset under --out (a template per task family, one YAML per minimal-pair
or BLM config, a group ``poetic_eval_<dataset>``) for the folders ``make build`` wrote, with
``dataset_path`` the local folder or, with --org, the published hub repo. Then run, offline::

    lm_eval --model hf --model_args pretrained=PATH,dtype=float32 --include_path TASKS \
        --tasks poetic_eval_bpomp

--model M prints the --model_args under which the harness's accuracy equals
``poetic-eval score-pairs --model M`` (M = "default" for the default SmolLM2 model).
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval harness-tasks``."""
    parser.description = __doc__.split("\n\n")[1]
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--datasets", default="datasets", help="built dataset folders (default: datasets)"
    )
    parser.add_argument("--out", required=True, help="folder for the task configs (--include_path)")
    parser.add_argument(
        "--org",
        default=None,
        help="point dataset_path at <org>/<dataset> on the hub (a hub user or organisation name)",
    )
    parser.add_argument(
        "--model",
        default=None,
        help="also print the lm_eval --model_args matching poetic-eval scoring for this model "
        '("default": the default SmolLM2 model)',
    )


def run(args: argparse.Namespace) -> int:
    from ..integrations.harness_tasks import write_harness_tasks

    written = write_harness_tasks(args.datasets, args.out, org=args.org)
    out = Path(args.out).resolve()
    for group, tasks in written.items():
        print(f"{group}: {len(tasks)} tasks -> {out / group}")
    if args.model is not None:
        from ..integrations.harness_models import harness_model_args

        model_args = harness_model_args(None if args.model == "default" else args.model)
    else:
        model_args = "pretrained=PATH,dtype=float32"
        print(
            "note: for a model with its own document-start token (the default SmolLM2 among "
            "them), add --model PATH to get the --model_args whose accuracy equals score-pairs"
        )
    print("run (offline: HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1):")
    command = [
        "lm_eval", "--model", "hf", "--model_args", model_args,
        "--include_path", str(out), "--tasks", ",".join(written),
    ]  # fmt: skip
    print("  " + shlex.join(command))  # paths with spaces stay one argument
    return 0
