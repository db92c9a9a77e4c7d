"""LightEval custom-task modules for the minimal-pair and BLM datasets this project builds.

For every built dataset folder with task configs (the same configs ``poetic-eval
harness-tasks`` covers: :func:`poetic_eval.integrations.harness_tasks.dataset_tasks`) one
self-contained Python module is written (it imports only lighteval)::

    OUT/poetic_eval_bpomp.py    TASKS_TABLE: poetic_eval_bpomp_line_swap, ...

and run with LightEval's transformers backend::

    lighteval accelerate "model_name=PATH,dtype=float32,add_special_tokens=False,..." \
        "poetic_eval_bpomp_line_swap|0" --custom-tasks OUT/poetic_eval_bpomp.py

A minimal pair is a two-choice loglikelihood task whose ``acc`` equals
:func:`poetic_eval.pairs.pair_preference` over :func:`poetic_eval.lm.score_pairs` (sum
reduction) for the same model, as the harness tasks do:

* the choices are ``[bad, good]`` with gold 1: LightEval's ``loglikelihood_acc`` takes
  ``np.argmax`` of the summed log-probabilities (no normalisation), the first maximum, so a tie
  counts as wrong, as in pair_preference;
* the query is the text of the model's document-start token
  (:func:`poetic_eval.lm.document_start_token_id`, e.g. ``<|endoftext|>`` for the default
  SmolLM2 model), tokenized as that one special token; with ``add_special_tokens=False`` the
  backend adds nothing else, so each sentence is scored after exactly the token poetic-eval
  conditions it on. The start token is the model's, so the module is written for a model
  (``--model``). LightEval drops a context that ends in the tokenizer's EOS token, so a model
  whose start token is its EOS (GPT-2 style) is refused: use the harness tasks for it;
* ``override_chat_template=False``: an instruct model's chat template would wrap the query.

A BLM config is an 8-way loglikelihood task scored as ``poetic-eval blm-eval --method
candidates`` scores it (:func:`poetic_eval.blm.evaluation.prompts.running_context` and
``candidate_continuations``): START, the 7 context sentences as running text (numbers
stripped, a full stop added where a sentence has none), then each answer (letter stripped, the
same full stop) after a space; its ``acc`` is that method's accuracy (sum reduction).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidValueError
from ..files import atomic_folder, check_output_folder, recover_folder
from ..files.dataset_cards import find_built_card
from ..files.names import inside
from ..hub import built_dataset_folders
from .harness_tasks import ConfigTask, check_hub_owner, dataset_tasks

HEADER = "# Written by `poetic-eval lighteval-tasks`; rewrite with the same command, do not edit.\n"
#: The --model-args under which the tasks' accuracy equals score-pairs (the path goes first).
MODEL_ARGS = "dtype=float32,add_special_tokens=False,override_chat_template=False"

_MODULE = '''{header}"""LightEval tasks for the poetic-eval dataset {dataset!r}: {count} task(s).

Run with LightEval's transformers backend, e.g.::

    lighteval accelerate "model_name=MODEL,{model_args}" \\\\
        "{first}|0" --custom-tasks THIS_FILE

Minimal pairs: choices [bad, good], gold 1, loglikelihood_acc (a tie is wrong), each sentence
scored after START, the document-start token of {model!r}; acc then equals poetic-eval's
pair_preference over score_pairs for that model. BLM: the 8 answers, each as the sentence after
the 7 context sentences, as `poetic-eval blm-eval --method candidates` scores them.
"""

import re

from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.requests import Doc

DATASET = {dataset_path!r}
#: the text of the document-start token of the model (one special token when tokenized):
#: {model}
START = {start!r}
LETTERS = "ABCDEFGH"


def minimal_pair(line, task_name=None, good="good", bad="bad"):
    return Doc(task_name=task_name, query=START, choices=[line[bad], line[good]], gold_index=1)


def sentence_pair(line, task_name=None):
    return minimal_pair(line, task_name, good="sentence_good", bad="sentence_bad")


NUMBER = re.compile(r"^\\s*[0-9]+\\t")
LETTER = re.compile(r"^\\s*[A-Za-z]\\t")


def sentence(text, prefix):
    """A BLM sentence without its number or letter, ending in a full stop (added when it has
    no final . ! or ?), as poetic-eval's blm-eval reads it."""
    text = prefix.sub("", text, count=1).strip()
    return text if text[-1] in ".!?" else text + "."


def blm_matrix(line, task_name=None):
    # as `poetic-eval blm-eval --method candidates`: the context as running text after START,
    # each answer scored as the next sentence (a leading space)
    context = " ".join(sentence(text, NUMBER) for text in line["Context"])
    return Doc(
        task_name=task_name,
        query=START + context,
        choices=[" " + sentence(text, LETTER) for text in line["Answer_set"]],
        gold_index=LETTERS.index(line["Correct_option"]),
    )


def task(name, config, prompt, split, splits):
    return LightevalTaskConfig(
        name=name,
        prompt_function=prompt,
        hf_repo=DATASET,
        hf_subset=config,
        hf_avail_splits=splits,
        evaluation_splits=[split],
        few_shots_split=None,
        few_shots_select=None,
        metrics=[Metrics.loglikelihood_acc],
        version=1,
    )


TASKS_TABLE = [
{tasks}]
'''

_PROMPTS = {"minimal_pairs": "minimal_pair", "sentence_pairs": "sentence_pair", "blm": "blm_matrix"}


def module_name(dataset: str) -> str:
    return f"poetic_eval_{dataset}"


def module_source(tasks: Sequence[ConfigTask], dataset_path: str, start: str, model: str) -> str:
    """The Python source of one dataset's LightEval task module."""
    entries = "".join(
        f"    task({task.task_name!r}, {task.config!r}, {_PROMPTS[task.family.name]}, "
        f"{task.test_split!r}, {[task.test_split]!r}),\n"
        for task in tasks
    )
    return _MODULE.format(
        header=HEADER,
        dataset=tasks[0].dataset,
        count=len(tasks),
        model_args=MODEL_ARGS,
        first=tasks[0].task_name,
        model=model,
        dataset_path=dataset_path,
        start=start,
        tasks=entries,
    )


def start_token_text(lm: Any) -> str:
    """The text of the model's document-start token, checked to tokenize back to that one token
    and not to be the EOS LightEval strips from a context."""
    from ..lm import document_start_token_id

    start_id = document_start_token_id(lm)
    tokenizer = lm.tokenizer
    if start_id == tokenizer.eos_token_id:
        raise InvalidValueError(
            f"{lm.name}: its document-start token is its EOS token, which LightEval's "
            "transformers backend removes from the end of a context (tok_encode_pair), so "
            "LightEval would score the first token unconditioned and its accuracy would not "
            "equal score-pairs; use `poetic-eval harness-tasks` for this model"
        )
    text = tokenizer.convert_ids_to_tokens(start_id)
    if tokenizer.encode(text, add_special_tokens=False) != [start_id]:
        raise InvalidValueError(
            f"{lm.name}: its document-start token {text!r} does not tokenize back to itself; "
            "LightEval cannot be given it as text"
        )
    return text


def write_lighteval_tasks(
    datasets_dir: str | Path,
    out_dir: str | Path,
    *,
    start: str,
    model: str,
    org: str | None = None,
) -> dict[str, list[str]]:
    """Write ``out_dir/poetic_eval_<dataset>.py`` for every built dataset with task configs.

    ``start`` is the model's document-start token text (:func:`start_token_text`), ``model``
    the name the modules mention; the dataset is read from its folder (absolute path) or, with
    ``org``, from the hub repo ``<org>/<dataset>``. The folder is written beside and swapped in
    whole; an ``out_dir`` holding files this function did not write is refused. Returns
    ``{module file name: [task names]}``.
    """
    out_dir = check_output_folder(out_dir, "--out")
    if org is not None:
        check_hub_owner(org, "org")
    sources: dict[str, tuple[list[ConfigTask], str]] = {}
    for folder in built_dataset_folders(datasets_dir):
        card = find_built_card(folder)  # read once; a card that does not parse is an error
        if card is None:
            continue  # a README without configs: (not a dataset folder built here)
        tasks = dataset_tasks(card)
        if tasks:
            path = f"{org}/{folder.name}" if org else str(folder.resolve())
            sources[f"{module_name(folder.name)}.py"] = (
                tasks,
                module_source(tasks, path, start, model),
            )
    if not sources:
        raise InvalidValueError(
            f"no minimal-pair or BLM config in the dataset folders under {datasets_dir}"
        )
    recover_folder(out_dir)
    if out_dir.exists() and not _written_here(out_dir):
        raise InvalidValueError(
            f"{out_dir} holds files poetic-eval lighteval-tasks did not write; choose another --out"
        )
    with atomic_folder(out_dir) as staging:
        for name, (_, source) in sources.items():
            inside(staging, name).write_text(source, encoding="utf-8")
    return {name: [task.task_name for task in tasks] for name, (tasks, _) in sources.items()}


def _written_here(folder: Path) -> bool:
    return folder.is_dir() and all(
        path.is_file() and path.read_text(encoding="utf-8", errors="replace").startswith(HEADER)
        for path in folder.iterdir()
        if path.name != "__pycache__"
    )
