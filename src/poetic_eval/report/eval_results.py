"""A diversity report's headline scores as the Hub's evaluation results (``.eval_results/``).

The Hub shows a model's scores on its page, and on the leaderboard of the benchmark dataset
they were measured on, when the model repo holds ``.eval_results/*.yaml`` files (Hub docs,
"Evaluation Results"; huggingface_hub's ``EvalResultEntry``). Each file is a YAML list of
entries::

    - dataset:
        id: ORG/quatrain                 # the benchmark dataset on the Hub
        task_id: en_quatrains-rhyme_kl   # a task of that dataset's eval.yaml
      value: 0.0123
      date: '2026-12-06T16:40:00Z'
      source: {url: ..., name: ...}      # only with a source URL
      evaluation_framework: poetic-eval
      notes: ...

What the report says maps onto that schema so: the *model* is the repo the files are pushed to
(``poetic-eval publish --eval-results DIR --model-repo OWNER/NAME``); the *dataset* is the
benchmark whose human corpus the report compared against (``--eval-dataset ID:CONFIG:SPLIT``);
*config* and *metric* together are the task (:func:`diversity_task_id`, the ids
:mod:`poetic_eval.hub.eval_yaml` declares in that dataset's ``eval.yaml``); *value* is the
report's score; *source* an optional link (e.g. the published report), and the report's
settings go to ``notes``. One file per metric: ``.eval_results/<task_id>.yaml``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from ..errors import InvalidValueError
from ..files import atomic_folder, check_output_folder
from ..files.names import inside

EVAL_RESULTS_FOLDER = ".eval_results"
#: ``evaluation_framework`` of the entries and of the datasets' eval.yaml (the docs: the two
#: should agree; "could be your own").
EVAL_FRAMEWORK = "poetic-eval"
_HEADER = "# Written by poetic-eval (`poetic-eval report --eval-results`); Hub eval results.\n"


@dataclass(frozen=True)
class DiversityMetric:
    """A headline score of the diversity report that becomes a leaderboard task."""

    key: str  # the key in report.json's "scores"
    better: str  # "lower" or "higher": which way a leaderboard should read it
    description: str


#: The scores published as tasks, one leaderboard each (the report holds many more).
DIVERSITY_METRICS: tuple[DiversityMetric, ...] = (
    DiversityMetric("memorization_quatrain", "lower", "share of generated quatrains copied"),
    DiversityMetric("memorization_couplet", "lower", "share of generated couplets copied"),
    DiversityMetric("memorization_verse", "lower", "share of generated verses copied"),
    DiversityMetric(
        "length_histogram_intersection", "higher", "overlap of the poem-length histograms"
    ),
    DiversityMetric("rhyme_kl", "lower", "KL divergence of the rhyme-scheme distributions"),
    DiversityMetric("mtld", "higher", "lexical diversity (MTLD, tokens)"),
    DiversityMetric("mattr", "higher", "moving-average type-token ratio"),
    DiversityMetric("within_max_sim", "lower", "mean max. similarity among generated poems"),
    DiversityMetric("across_max_sim", "lower", "mean max. similarity to the human poems"),
)


@dataclass(frozen=True)
class BenchmarkTarget:
    """The benchmark dataset config and split a report's human corpus is."""

    dataset_id: str
    config: str
    split: str

    @classmethod
    def parse(cls, text: str) -> BenchmarkTarget:
        """``OWNER/NAME:CONFIG:SPLIT`` (e.g. ``me/quatrain:en_quatrains:train``)."""
        parts = text.split(":")
        if len(parts) != 3 or not all(parts) or not re.fullmatch(r"[\w.-]+/[\w.-]+", parts[0]):
            raise InvalidValueError(
                f"--eval-dataset {text!r}: give OWNER/NAME:CONFIG:SPLIT, the Hub dataset, config "
                "and split of the human corpus (e.g. me/quatrain:en_quatrains:train)"
            )
        return cls(*parts)


def diversity_task_id(config: str, metric: str) -> str:
    """The eval.yaml task id of one diversity metric on one config of a poem dataset."""
    return f"{config}-{metric}"


def report_notes(report: dict[str, Any]) -> str:
    """The report's protocol in one line (the entry's ``notes``)."""
    inputs, settings = report.get("inputs", {}), report.get("settings", {})
    generated = inputs.get("generated", {}).get("poems")
    human = inputs.get("human", {}).get("poems")
    samples = settings.get("human_samples")
    protocol = f"{samples} human samples" if samples else "the whole human corpus"
    return (
        f"poetic-eval {report.get('poetic_eval_version')} diversity report: {generated} generated "
        f"vs {human} human poems, {protocol}, seed {settings.get('seed')}"
    )


def eval_result_entries(
    report: dict[str, Any],
    target: BenchmarkTarget,
    *,
    source_url: str | None = None,
    date: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """task id -> the entries of its file, for every headline score the report holds (a
    dimension left out of the report gives no file; a NaN score is refused)."""
    from huggingface_hub import EvalResultEntry, eval_result_entries_to_yaml

    scores = report.get("scores") or {}
    date = date or datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    files = {}
    for metric in DIVERSITY_METRICS:
        value = scores.get(metric.key)
        if value is None:
            continue
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InvalidValueError(f"the report's {metric.key} is {value!r}, not a finite number")
        task_id = diversity_task_id(target.config, metric.key)
        entry = EvalResultEntry(
            dataset_id=target.dataset_id,
            task_id=task_id,
            value=float(value),
            date=date,
            source_url=source_url,
            source_name="poetic-eval diversity report" if source_url else None,
            notes=report_notes(report),
        )
        (data,) = eval_result_entries_to_yaml([entry])
        # documented, not yet in huggingface_hub's class: ties the result to the eval.yaml
        data["evaluation_framework"] = EVAL_FRAMEWORK
        files[task_id] = [data]
    if not files:
        names = ", ".join(metric.key for metric in DIVERSITY_METRICS)
        raise InvalidValueError(f"the report has none of the published scores ({names})")
    return files


def write_eval_results(
    report: dict[str, Any],
    out_dir: str | Path,
    target: BenchmarkTarget,
    *,
    source_url: str | None = None,
) -> list[Path]:
    """Write ``out_dir/.eval_results/<task_id>.yaml`` for the report's headline scores (the
    folder staged and swapped in whole; one this code did not write is refused)."""
    out_dir = check_output_folder(out_dir, "--eval-results")
    files = eval_result_entries(report, target, source_url=source_url)
    out_dir.mkdir(exist_ok=True)
    folder = out_dir / EVAL_RESULTS_FOLDER
    if folder.exists() and not _written_here(folder):
        raise InvalidValueError(
            f"{folder} holds files poetic-eval did not write; choose another --eval-results"
        )
    with atomic_folder(folder) as staging:
        for task_id, entries in files.items():
            text = _HEADER + yaml.safe_dump(entries, sort_keys=False, allow_unicode=True)
            inside(staging, f"{task_id}.yaml").write_text(text, encoding="utf-8")
    return [folder / f"{task_id}.yaml" for task_id in files]


def _written_here(folder: Path) -> bool:
    return folder.is_dir() and all(
        path.is_file() and path.read_text(encoding="utf-8", errors="replace").startswith(_HEADER)
        for path in folder.iterdir()
    )
