"""lm-evaluation-harness task configs for the minimal-pair datasets this project builds.

For every built dataset folder (``make build`` writes ``datasets/<name>/``: a README card with
``configs:`` and parquet under ``data/<config>/``) every config whose columns match a
:data:`TASK_FAMILIES` entry becomes a harness task, written as the harness's own BLiMP tasks
are: one template per family, one small YAML per config, and a group per dataset::

    TASKS/poetic_eval_bpomp/_minimal_pairs_template_yaml   shared fields of the family
    TASKS/poetic_eval_bpomp/line_swap.yaml                  task poetic_eval_bpomp_line_swap
    TASKS/poetic_eval_bpomp/_poetic_eval_bpomp.yaml         group poetic_eval_bpomp

Minimal pairs score each sentence with an empty context, as BLiMP in the harness does, so that
``acc`` equals :func:`poetic_eval.pairs.pair_preference` over
:func:`poetic_eval.lm.score_pairs` for the same model:

* the choices are ``[bad, good]`` with target 1: the harness takes the first maximum, so a tie
  counts as wrong, as ours does (BLiMP's ``[good, bad]`` with target 0 counts ties as right);
* ``target_delimiter`` is empty: the sentence is scored as it is, without the leading space
  the harness's default delimiter adds;
* the harness conditions the first token of an empty-context continuation on
  ``prefix_token_id`` (its tokenizer's BOS, else EOS), our scoring on the document-start token
  (:func:`poetic_eval.lm.document_start_token_id`); they differ only where a model
  sets its own start token (the default SmolLM2 model), which :func:`harness_model_args` passes.

The group averages its tasks weighted by size, so the group's ``acc`` is the accuracy over all
pairs of the dataset. BLM configs (``Context``, ``Answer_set``, ``Correct_option``) become
multiple-choice tasks over the 8 answers after the 7 context sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import InvalidValueError
from ..files import atomic_folder, check_output_folder, recover_folder
from ..files.dataset_cards import BuiltCard, find_built_card
from ..files.names import inside
from ..files.parquet_files import config_columns
from ..hub import built_dataset_folders
from ..hub.config_kinds import CONFIG_KINDS, config_kind

TASK_PREFIX = "poetic_eval"
HEADER = "# Written by `poetic-eval harness-tasks`; rewrite with the same command, do not edit.\n"
_LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class TaskFamily:
    """A kind of config (recognised by its columns) and the harness fields its tasks share."""

    name: str
    columns: tuple[str, ...]
    fields: dict[str, Any]
    description: str


def _pair_family(name: str, good: str, bad: str) -> TaskFamily:
    return TaskFamily(
        name=name,
        columns=CONFIG_KINDS[name],
        fields={
            "output_type": "multiple_choice",
            "doc_to_text": "",
            # [bad, good], target 1: the harness's argmax keeps the first maximum, so a tie is
            # wrong, as in pair_preference
            "doc_to_choice": "{{[" + bad + ", " + good + "]}}",
            "doc_to_target": 1,
            "target_delimiter": "",
            "num_fewshot": 0,
            "should_decontaminate": True,
            "doc_to_decontamination_query": "{{" + good + "}} {{" + bad + "}}",
            "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        },
        description=f"minimal pairs ({good}/{bad}): right when log p({good}) > log p({bad})",
    )


_BLM_CONTEXT = (
    "{% for sentence in Context %}{{ sentence | regex_replace('^[0-9]+\\t', '') }}"
    "{% if not loop.last %}\n{% endif %}{% endfor %}"
)
_BLM_ANSWERS = "{{ Answer_set | map('regex_replace', '^[A-H]\\t', '') | list }}"

TASK_FAMILIES: dict[str, TaskFamily] = {
    family.name: family
    for family in (
        _pair_family("minimal_pairs", "good", "bad"),
        _pair_family("sentence_pairs", "sentence_good", "sentence_bad"),
        TaskFamily(
            name="blm",
            columns=CONFIG_KINDS["blm"],
            fields={
                "output_type": "multiple_choice",
                "doc_to_text": _BLM_CONTEXT,
                "doc_to_choice": _BLM_ANSWERS,
                "doc_to_target": "{{ '" + _LETTERS + "'.index(Correct_option) }}",
                "target_delimiter": "\n",
                "num_fewshot": 0,
                "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
            },
            description=(
                "Blackbird Language Matrices: the answer (of 8, letters stripped) with the "
                "highest log-likelihood after the 7 context sentences, one per line"
            ),
        ),
    )
}


@dataclass(frozen=True)
class ConfigTask:
    """One dataset config as a harness task."""

    dataset: str
    config: str
    family: TaskFamily
    test_split: str
    fewshot_split: str | None

    @property
    def task_name(self) -> str:
        return f"{TASK_PREFIX}_{self.dataset}_{self.config}"


def group_name(dataset: str) -> str:
    return f"{TASK_PREFIX}_{dataset}"


def _family_of(columns: Sequence[str]) -> TaskFamily | None:
    kind = config_kind(columns)
    return None if kind is None else TASK_FAMILIES[kind]


def dataset_tasks(card: BuiltCard) -> list[ConfigTask]:
    """The configs of a built dataset folder (``card``: its parsed card) that some task family
    covers, in card order.

    Configs of no family (e.g. agreement's ``verbs`` list) are left out; a config with no
    existing file is refused (:func:`~poetic_eval.files.parquet_files.config_columns`).
    """
    tasks = []
    for name, splits, columns in config_columns(card):
        family = _family_of(columns)
        if family is None:
            continue
        test_split = "test" if "test" in splits else next(iter(splits))
        fewshot = "train" if "train" in splits and test_split != "train" else None
        tasks.append(ConfigTask(card.folder.name, name, family, test_split, fewshot))
    return tasks


def _dump(fields: dict[str, Any]) -> str:
    return HEADER + yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=100)


def dataset_task_files(tasks: Sequence[ConfigTask], dataset_path: str) -> dict[str, str]:
    """File name -> YAML text for one dataset's tasks: templates, task files and the group."""
    files: dict[str, str] = {}
    for family in dict.fromkeys(task.family.name for task in tasks):
        fields = {"dataset_path": dataset_path, **TASK_FAMILIES[family].fields}
        fields["metadata"] = {"version": 1.0, "description": TASK_FAMILIES[family].description}
        files[f"_{family}_template_yaml"] = _dump(fields)
    for task in tasks:
        fields = {
            "include": f"_{task.family.name}_template_yaml",
            "task": task.task_name,
            "dataset_name": task.config,
            "test_split": task.test_split,
        }
        if task.fewshot_split:
            fields["fewshot_split"] = task.fewshot_split
        files[f"{task.config}.yaml"] = _dump(fields)
    dataset = tasks[0].dataset
    files[f"_{group_name(dataset)}.yaml"] = _dump(
        {
            "group": group_name(dataset),
            "task": [task.task_name for task in tasks],
            # weighted by size: the group's acc is the accuracy over all pairs of the dataset
            "aggregate_metric_list": [
                {"metric": "acc", "aggregation": "mean", "weight_by_size": True}
            ],
            "metadata": {"version": 1.0},
        }
    )
    return files


def write_harness_tasks(
    datasets_dir: str | Path, out_dir: str | Path, *, org: str | None = None
) -> dict[str, list[str]]:
    """Write the task configs of every built dataset under ``datasets_dir`` into ``out_dir``.

    ``dataset_path`` is the dataset folder (absolute) or, with ``org``, the hub repo
    ``<org>/<dataset>``. Each dataset's folder ``out_dir/poetic_eval_<dataset>`` is written
    beside and swapped in whole; a folder there that this function did not write is refused.
    Returns ``{group name: [task names]}``.
    """
    out_dir = check_output_folder(out_dir, "out_dir")
    if org is not None:
        check_hub_owner(org, "org")
    planned: dict[str, tuple[list, dict[str, str]]] = {}
    for folder in built_dataset_folders(datasets_dir):
        card = find_built_card(folder)  # read once; a card that does not parse is an error
        if card is None:
            continue  # a README without configs: (not a dataset folder built here)
        tasks = dataset_tasks(card)
        if not tasks:
            continue
        path = f"{org}/{folder.name}" if org else str(folder.resolve())
        target = out_dir / group_name(folder.name)
        recover_folder(target)
        if target.exists() and not _written_here(target):  # every target before any write
            raise InvalidValueError(
                f"{target} exists and was not written by poetic-eval harness-tasks; "
                "choose another --out or remove it"
            )
        planned[group_name(folder.name)] = (tasks, dataset_task_files(tasks, path))
    if not planned:
        raise InvalidValueError(
            f"no minimal-pair or BLM config in the dataset folders under {datasets_dir} "
            f"(families: {', '.join(TASK_FAMILIES)})"
        )
    for group, (_, files) in planned.items():
        with atomic_folder(out_dir / group) as staging:  # swapped in whole, or not at all
            for name, text in files.items():
                inside(staging, name).write_text(text, encoding="utf-8")
    return {group: [task.task_name for task in tasks] for group, (tasks, _) in planned.items()}


def check_hub_owner(owner: str, argument: str) -> str:
    """``owner`` when it can own a hub repo (a user or organisation name, as
    ``huggingface_hub.utils.validate_repo_id`` accepts it in ``<owner>/<name>``), else an
    :class:`~poetic_eval.errors.InvalidValueError` naming ``argument``: a path such as
    ``../my org`` would be written into every task's ``dataset_path``."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        if not isinstance(owner, str) or "/" in owner:
            raise HFValidationError("a single name without '/'")
        validate_repo_id(f"{owner}/dataset")
    except HFValidationError as error:
        reason = " ".join(str(error).split())
        raise InvalidValueError(
            f"{argument} {owner!r} is not a hub user or organisation name (letters, digits, "
            f"'-', '_' and '.', not starting or ending with '-' or '.', no '--' or '..'): {reason}"
        ) from None
    return owner


def _written_here(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    return all(
        f.is_file() and f.read_text(encoding="utf-8", errors="replace").startswith(HEADER)
        for f in folder.iterdir()
    )
