"""LightEval custom-task modules: what they declare, and (slow) LightEval's transformers backend
on the CPU with the default model saved as a folder, whose accuracy and per-pair log-probs
equal pair_preference over score_pairs for the same pairs.

LightEval runs in its own environment (``.venv-lighteval``, `make lighteval-venv`: LightEval
0.13 pins nltk and, through inspect-ai, fsspec below this project's pins; docs/publishing.md),
driven by tests/lighteval_runner.py; the slow test skips, saying so, without one."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from tiny_language_models import random_minimal_pairs, tiny_causal_lm

from poetic_eval.builders import agreement as agreement_builder
from poetic_eval.builders import bpomp as bpomp_builder
from poetic_eval.cli import main
from poetic_eval.files.dataset_cards import read_built_card
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.integrations.harness_tasks import dataset_tasks
from poetic_eval.integrations.lighteval_tasks import (
    MODEL_ARGS,
    start_token_text,
    write_lighteval_tasks,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
RUNNER = REPO_ROOT / "tests" / "lighteval_runner.py"


def lighteval_python() -> str | None:
    """$POETIC_EVAL_LIGHTEVAL_PYTHON, this interpreter if it has lighteval, else
    ``.venv-lighteval/bin/python``; None when there is none."""
    chosen = os.environ.get("POETIC_EVAL_LIGHTEVAL_PYTHON")
    if chosen:
        return chosen
    if importlib.util.find_spec("lighteval") is not None:
        return sys.executable
    candidate = REPO_ROOT / ".venv-lighteval" / "bin" / "python"
    return str(candidate) if candidate.is_file() else None


def _write(root, name, configs, tmp_path):
    card = tmp_path / f"{name}_card.md"
    card.write_text("A tiny test dataset.\n")
    dataset = HubDataset(name=name, pretty_name=name, configs=configs, seed=0, card_template=card)
    return write_hub_dataset(dataset, root / name, build_command="test")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """bpomp (two configs) and agreement (one pair config and verbs), tiny."""
    tmp_path = tmp_path_factory.mktemp("built")
    root = tmp_path / "datasets"
    good, bad = random_minimal_pairs(8, seed=1)
    corruption = {"type": "t", "lines": [1], "original_words": [], "new_words": [], "synset": "",
                  "pos": ""}  # fmt: skip
    rows = [
        {"id": str(i), "source_id": str(i), "good": g, "bad": b, "corruption": corruption}
        for i, (g, b) in enumerate(zip(good, bad))
    ]
    _write(
        root, "bpomp",
        [ConfigData(n, bpomp_builder.FEATURES, {"test": rows}) for n in ("line_swap", "swap_two")],
        tmp_path,
    )  # fmt: skip
    pairs = [
        {"sentence_good": g, "sentence_bad": b, "label": 0, "family": "f", "case": "c"}
        for g, b in zip(good, bad)
    ]
    verbs = [{"lemma": "swim", "singular": "swims", "plural": "swim", "frequency": 4.0}]
    _write(
        root, "agreement",
        [ConfigData("simple_agrmt", agreement_builder.PAIR_FEATURES, {"test": pairs}),
         ConfigData("verbs", agreement_builder.VERB_FEATURES, {"test": verbs})],
        tmp_path,
    )  # fmt: skip
    return root


def declared_tasks(source: str) -> list[tuple]:
    """(name, config, prompt, split) of each task(...) call in TASKS_TABLE, read from the source."""
    table = next(
        node.value
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and node.targets[0].id == "TASKS_TABLE"
    )
    return [
        (call.args[0].value, call.args[1].value, call.args[2].id, call.args[3].value)
        for call in table.elts
    ]


def constant(source: str, name: str):
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise KeyError(name)


def test_a_module_per_dataset_with_the_harness_configs(built, tmp_path):
    written = write_lighteval_tasks(built, tmp_path / "tasks", start="<s>", model="tiny")
    assert sorted(written) == ["poetic_eval_agreement.py", "poetic_eval_bpomp.py"]
    for dataset in ("bpomp", "agreement"):
        source = (tmp_path / "tasks" / f"poetic_eval_{dataset}.py").read_text(encoding="utf-8")
        harness = dataset_tasks(read_built_card(built / dataset))  # as the harness tasks
        assert declared_tasks(source) == [
            (
                task.task_name,
                task.config,
                "minimal_pair" if dataset == "bpomp" else "sentence_pair",
                task.test_split,
            )
            for task in harness
        ]
        assert written[f"poetic_eval_{dataset}.py"] == [task.task_name for task in harness]
        assert constant(source, "START") == "<s>"
        assert constant(source, "DATASET") == str((built / dataset).resolve())
        assert MODEL_ARGS in source  # the run line in its docstring


def lighteval_stand_in(monkeypatch) -> None:
    """Modules named as LightEval's, holding just what a task module imports (Doc, Metrics,
    LightevalTaskConfig), so the module's prompt functions run here; the slow test runs real
    LightEval."""

    class Doc:
        def __init__(self, query, choices, gold_index, task_name=""):
            self.query, self.choices, self.gold_index = query, choices, gold_index

    class LightevalTaskConfig(dict):
        def __init__(self, **fields):
            super().__init__(fields)

    parts = {
        "lighteval.metrics.metrics": {"Metrics": types.SimpleNamespace(loglikelihood_acc="acc")},
        "lighteval.tasks.lighteval_task": {"LightevalTaskConfig": LightevalTaskConfig},
        "lighteval.tasks.requests": {"Doc": Doc},
    }
    for name in ("lighteval", "lighteval.metrics", "lighteval.tasks", *parts):
        module = types.ModuleType(name)
        module.__dict__.update(parts.get(name, {}))
        monkeypatch.setitem(sys.modules, name, module)


def load_module(path: Path, monkeypatch):
    lighteval_stand_in(monkeypatch)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_blm_documents_are_what_blm_eval_candidates_scores(tmp_path, monkeypatch):
    """A BLM task's query and choices are the running context and the candidate sentences of
    `poetic-eval blm-eval --method candidates`, after the start token, on a real BLM build."""
    from poetic_eval.blm.evaluation.prompts import candidate_continuations, running_context
    from poetic_eval.blm.item_sources import load_evaluation_sets

    datasets = tmp_path / "datasets"
    assert main(["build", "blm", "--out", str(datasets / "blm"), "--no-progress"]) == 0
    write_lighteval_tasks(datasets, tmp_path / "t", start="<|endoftext|>", model="m")
    module = load_module(tmp_path / "t" / "poetic_eval_blm.py", monkeypatch)
    assert [task["prompt_function"] for task in module.TASKS_TABLE] == [module.blm_matrix] * 6
    import datasets as hf_datasets

    for evaluation_set in load_evaluation_sets(datasets / "blm", limit=5):
        rows = hf_datasets.load_dataset(str(datasets / "blm"), evaluation_set.name, split="test")
        for row, item in zip(rows, evaluation_set.items):
            doc = module.blm_matrix(row)
            assert doc.query == "<|endoftext|>" + running_context(item)
            assert doc.choices == candidate_continuations(item)
            assert doc.gold_index == item.correct_index


def test_the_start_token_and_a_context_tokenize_as_blm_eval_does():
    """LightEval encodes START + context as one string; blm-eval puts the start token before
    the context's own tokens: the same ids for the default model's tokenizer."""
    from poetic_eval.lm import document_start_token_id, load_language_model

    lm = load_language_model(None)
    start = start_token_text(lm)
    for context in ("La ragazza mangia la mela.", " Il cane dorme. I gatti dormono."):
        joined = lm.tokenizer.encode(start + context, add_special_tokens=False)
        alone = lm.tokenizer.encode(context, add_special_tokens=False)
        assert joined == [document_start_token_id(lm), *alone]


def test_hub_paths_and_a_foreign_folder_is_refused(built, tmp_path):
    write_lighteval_tasks(built, tmp_path / "tasks", start="<s>", model="m", org="poets")
    source = (tmp_path / "tasks" / "poetic_eval_bpomp.py").read_text(encoding="utf-8")
    assert constant(source, "DATASET") == "poets/bpomp"
    write_lighteval_tasks(built, tmp_path / "tasks", start="<s>", model="m")  # rewritten
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match="did not write; choose another --out"):
        write_lighteval_tasks(built, tmp_path / "mine", start="<s>", model="m")
    assert (tmp_path / "mine" / "notes.py").read_text() == "x = 1\n"


def test_the_start_token_is_the_one_score_pairs_conditions_on():
    from poetic_eval.lm import document_start_token_id

    lm = tiny_causal_lm(seed=1)
    text = start_token_text(lm)
    assert lm.tokenizer.encode(text, add_special_tokens=False) == [document_start_token_id(lm)]


def test_a_model_that_starts_documents_with_its_eos_is_refused():
    lm = tiny_causal_lm(seed=1)
    lm.tokenizer.eos_token = lm.tokenizer.convert_ids_to_tokens(2)
    lm.start_token_id = lm.tokenizer.eos_token_id
    with pytest.raises(ValueError, match="its document-start token is its EOS token"):
        start_token_text(lm)


@pytest.mark.slow
def test_lighteval_accuracy_equals_pair_preference_for_the_default_model(tmp_path):
    """LightEval's transformers backend on the CPU, the default SmolLM2 model saved as a folder
    (its converted copy), on two configs of a real bpomp build: per-pair log-probabilities and
    each task's acc equal score_pairs and pair_preference."""
    python = lighteval_python()
    if python is None:
        pytest.skip("no LightEval environment: `make lighteval-venv` builds .venv-lighteval")
    from poetic_eval.lm import default_model_cache_dir, load_language_model, score_pairs
    from poetic_eval.pairs import collect_pairs, load_pair_tables, pair_preference

    datasets = tmp_path / "datasets"
    assert main(["build", "bpomp", "--out", str(datasets / "bpomp"), "--n-pairs", "12",
                 "--no-progress"]) == 0  # fmt: skip
    assert main(["lighteval-tasks", "--datasets", str(datasets), "--out", str(tmp_path / "t")]) == 0
    lm = load_language_model(None)
    configs = ("line_swap", "rhyme_word_swap")
    tasks = ",".join(f"poetic_eval_bpomp_{config}|0" for config in configs)
    model_args = f"model_name={default_model_cache_dir()},{MODEL_ARGS},batch_size=8,device=cpu"
    finished = subprocess.run(
        [python, str(RUNNER), str(tmp_path / "t" / "poetic_eval_bpomp.py"), model_args, tasks],
        check=False, cwd=tmp_path, capture_output=True, text=True, timeout=1500,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"},
    )  # fmt: skip
    lines = [line for line in finished.stdout.splitlines() if line.startswith("RESULTS ")]
    assert finished.returncode == 0 and lines, finished.stderr[-3000:]
    found = json.loads(lines[-1].removeprefix("RESULTS "))
    for config in configs:
        rows = collect_pairs(load_pair_tables(str(datasets / "bpomp"), [config], None), None, None)
        good, bad = score_pairs([r["good"] for r in rows], [r["bad"] for r in rows], model=lm)
        logprobs = found["logprobs"][f"poetic_eval_bpomp_{config}|0"]
        assert sorted(map(int, logprobs)) == list(range(len(rows)))
        for index, (good_score, bad_score) in enumerate(zip(good, bad)):
            theirs_bad, theirs_good = logprobs[str(index)]  # choices [bad, good]
            assert theirs_good == pytest.approx(good_score, abs=1e-3)
            assert theirs_bad == pytest.approx(bad_score, abs=1e-3)
        accuracy = found["results"][f"poetic_eval_bpomp_{config}:0"]["acc"]
        assert accuracy == pytest.approx(pair_preference(good, bad)["accuracy"], abs=1e-12)
