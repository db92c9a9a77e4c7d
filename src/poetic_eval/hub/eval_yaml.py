"""The ``eval.yaml`` of a published dataset: its tasks, so that its page can show a leaderboard.

A dataset repo with an ``eval.yaml`` at its root is a benchmark on the Hub (Hub docs,
"Evaluation Results": ``name``, ``description``, ``evaluation_framework`` and ``tasks``, each
task an ``id``, the dataset ``config`` and the ``split``); model repos then point their
``.eval_results/*.yaml`` entries at ``dataset.id`` and a ``task_id`` of this file, and
``HfApi.get_dataset_leaderboard`` returns the ranking. ``make publish`` adds the file to every
dataset repo that has tasks (:func:`poetic_eval.hub.upload_plan.plan_dataset_uploads`):

- a minimal-pair config (columns good/bad or sentence_good/sentence_bad): task ``<config>``
  on its test split; the value is the share of pairs whose good sentence the model gives the
  higher log-probability (:func:`poetic_eval.pairs.pair_preference` over
  :func:`poetic_eval.lm.score_pairs`, ties wrong), as the harness and LightEval tasks compute;
- a BLM config (Context/Answer_set/Correct_option): task ``<config>``, the accuracy of the
  answer chosen among the 8;
- a poem config (text/lines: quatrain): one task per headline score of the diversity report
  (:data:`poetic_eval.report.eval_results.DIVERSITY_METRICS`) on its train split, the human
  corpus the generated poems are compared with; ``poetic-eval report --eval-results`` writes
  the matching results.

The Hub's schema has no field for a metric, so the description names each task's metric and
which way it is better.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from ..files.dataset_cards import BuiltCard
from ..files.parquet_files import config_columns
from .config_kinds import config_kind

EVAL_YAML = "eval.yaml"
POEM_COLUMNS = ("text", "lines")


@dataclass(frozen=True)
class BenchmarkTask:
    """One task of a dataset's eval.yaml and the metric its value is."""

    id: str
    config: str
    split: str
    metric: str

    def entry(self) -> dict[str, str]:
        return {"id": self.id, "config": self.config, "split": self.split}


def _config_tasks(config: str, columns: list[str], splits: list[str]) -> list[BenchmarkTask]:
    from ..report.eval_results import DIVERSITY_METRICS, diversity_task_id

    test = "test" if "test" in splits else splits[0]
    kind = config_kind(columns)
    if kind is not None:
        metric = "BLM accuracy" if kind == "blm" else "minimal-pair accuracy"
        return [BenchmarkTask(config, config, test, metric)]
    if all(column in columns for column in POEM_COLUMNS) and "train" in splits:
        return [
            BenchmarkTask(diversity_task_id(config, metric.key), config, "train", metric.key)
            for metric in DIVERSITY_METRICS
        ]
    return []


def benchmark_tasks(card: BuiltCard) -> list[BenchmarkTask]:
    """The tasks of a built dataset folder, in card order (configs of no kind are left out; a
    config with no existing file is refused, as for the harness tasks)."""
    tasks = []
    for name, splits, columns in config_columns(card):
        tasks += _config_tasks(name, columns, list(splits))
    return tasks


def _description(pretty_name: str, tasks: list[BenchmarkTask]) -> str:
    from ..report.eval_results import DIVERSITY_METRICS

    kinds = {task.metric for task in tasks}
    lines = [f"{pretty_name}, built and scored by poetic-eval."]
    if "minimal-pair accuracy" in kinds:
        lines.append(
            "Minimal-pair tasks (one per config, test split): the share of pairs whose good "
            "sentence gets the higher log-probability (ties count as wrong); higher is better."
        )
    if "BLM accuracy" in kinds:
        lines.append("BLM tasks: accuracy of the answer chosen among 8; higher is better.")
    for metric in DIVERSITY_METRICS:
        if metric.key in kinds:
            lines.append(
                f"<config>-{metric.key}: {metric.description}, generated poems against the "
                f"config's train split; {metric.better} is better."
            )
    return " ".join(lines)


def eval_yaml_text(card: BuiltCard) -> str | None:
    """The eval.yaml of a built dataset folder; None when it has no task."""
    from ..report.eval_results import EVAL_FRAMEWORK

    tasks = benchmark_tasks(card)
    if not tasks:
        return None
    pretty_name = card.card.data.get("pretty_name") or card.folder.name
    document: dict[str, Any] = {
        "name": pretty_name,
        "description": _description(pretty_name, tasks),
        "evaluation_framework": EVAL_FRAMEWORK,
        "tasks": [task.entry() for task in tasks],
    }
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
