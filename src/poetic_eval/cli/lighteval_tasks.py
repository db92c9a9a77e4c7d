"""``poetic-eval lighteval-tasks``: LightEval custom-task modules for the built datasets.

Writes one module ``poetic_eval_<dataset>.py`` per dataset folder ``make build`` wrote (a task
per minimal-pair or BLM config) into --out, with the dataset read from the local folder or,
with --org, the published hub repo. The minimal pairs are scored after --model's
document-start token, so that LightEval's accuracy equals ``poetic-eval score-pairs --model M``
(M = "default": the default SmolLM2 model). Then run, offline::

    lighteval accelerate "model_name=PATH,dtype=float32,add_special_tokens=False,\
override_chat_template=False" "poetic_eval_bpomp_line_swap|0" \
        --custom-tasks OUT/poetic_eval_bpomp.py

LightEval is the optional ``lighteval`` extra (it pins nltk and, through inspect-ai, fsspec
below this project's pins: install it in its own environment; docs/publishing.md).
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from pathlib import Path

from ..errors import InvalidValueError


def add_arguments(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """The options of ``poetic-eval lighteval-tasks``."""
    parser.description = __doc__.split("\n\n")[1]
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--datasets", default="datasets", help="built dataset folders (default: datasets)"
    )
    parser.add_argument("--out", required=True, help="folder for the task modules")
    parser.add_argument("--org", default=None, help="read the datasets from <org>/<dataset>")
    parser.add_argument(
        "--model",
        default="default",
        help="the model the tasks are scored with: its start token goes into the modules "
        '(default: "default", the default SmolLM2 model)',
    )


def run(args: argparse.Namespace) -> int:
    from ..integrations.lighteval_tasks import MODEL_ARGS, start_token_text, write_lighteval_tasks
    from ..lm import default_model_cache_dir, load_language_model

    default = args.model == "default"
    lm = load_language_model(None if default else args.model)
    if lm.kind != "causal":
        raise InvalidValueError(f"{lm.name} is a {lm.kind} LM; LightEval's tasks score causal LMs")
    written = write_lighteval_tasks(
        args.datasets, args.out, start=start_token_text(lm), model=lm.name, org=args.org
    )
    out = Path(args.out).resolve()
    for module, tasks in written.items():
        print(f"{module}: {len(tasks)} tasks -> {out / module}")
    path = str(default_model_cache_dir()) if default else args.model
    print("run (offline: HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1), e.g.:")
    for module, tasks in written.items():
        command = [
            "lighteval", "accelerate", f"model_name={path},{MODEL_ARGS}",
            ",".join(f"{task}|0" for task in tasks), "--custom-tasks", str(out / module),
        ]  # fmt: skip
        print("  " + shlex.join(command))
    return 0
