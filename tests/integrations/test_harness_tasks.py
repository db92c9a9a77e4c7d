"""lm-evaluation-harness tasks: written for built folders, run in-process, equal to our scoring."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml
from tiny_language_models import random_minimal_pairs, random_sentences, tiny_causal_lm

import poetic_eval.builders.agreement as agreement_builder
import poetic_eval.builders.bpomp as bpomp_builder
from poetic_eval.cli import main
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.integrations.harness_models import harness_lm
from poetic_eval.integrations.harness_tasks import TASK_FAMILIES, write_harness_tasks
from poetic_eval.lm import score_pairs
from poetic_eval.pairs import pair_preference

lm_eval = pytest.importorskip(
    "lm_eval", reason="the harness extra: pip install 'poetic-eval[harness]'"
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _write(folder, name, configs, tmp_path):
    card = tmp_path / f"{name}_card.md"
    card.write_text("A tiny test dataset.\n")
    dataset = HubDataset(name=name, pretty_name=name, configs=configs, seed=0, card_template=card)
    return write_hub_dataset(dataset, folder / name, build_command="test")


def _bpomp_rows(good, bad):
    corruption = {
        "type": "t",
        "lines": [1],
        "original_words": [],
        "new_words": [],
        "synset": "",
        "pos": "",
    }
    return [
        {"id": str(i), "source_id": str(i), "good": g, "bad": b, "corruption": corruption}
        for i, (g, b) in enumerate(zip(good, bad))
    ]


def _agreement_rows(good, bad):
    return [
        {"sentence_good": g, "sentence_bad": b, "label": i % 2, "family": "f", "case": "c"}
        for i, (g, b) in enumerate(zip(good, bad))
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """bpomp (two configs) and agreement (two pair configs + verbs) written by the builders'
    own writer, with pairs of the tiny model's vocabulary; agreement holds two exact ties."""
    tmp_path = tmp_path_factory.mktemp("built")
    root = tmp_path / "datasets"
    pairs = {}
    good, bad = random_minimal_pairs(60, seed=11)
    bpomp = {"line_swap": (good[:30], bad[:30]), "rhyme_word_swap": (good[30:], bad[30:])}
    _write(
        root,
        "bpomp",
        [
            ConfigData(name, bpomp_builder.FEATURES, {"test": _bpomp_rows(*texts)})
            for name, texts in bpomp.items()
        ],
        tmp_path,
    )
    good, bad = random_minimal_pairs(40, seed=12)
    bad[3], bad[25] = good[3], good[25]  # ties: wrong for both
    agreement = {"simple_agrmt": (good[:20], bad[:20]), "vp_coord": (good[20:], bad[20:])}
    verbs = [{"lemma": "swim", "singular": "swims", "plural": "swim", "frequency": 4.0}]
    _write(
        root,
        "agreement",
        [
            *(
                ConfigData(name, agreement_builder.PAIR_FEATURES, {"test": _agreement_rows(*texts)})
                for name, texts in agreement.items()
            ),
            ConfigData("verbs", agreement_builder.VERB_FEATURES, {"test": verbs}),
        ],
        tmp_path,
    )
    pairs.update({("bpomp", k): v for k, v in bpomp.items()})
    pairs.update({("agreement", k): v for k, v in agreement.items()})
    return root, pairs


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny_llama")
    lm = tiny_causal_lm(seed=3)
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder, lm


def _evaluate(model, tasks_dir, tasks, **options):
    from lm_eval.tasks import TaskManager

    manager = TaskManager(include_path=str(tasks_dir), include_defaults=False)
    return lm_eval.simple_evaluate(
        model=model,
        tasks=tasks,
        task_manager=manager,
        bootstrap_iters=0,
        log_samples=True,
        **options,
    )


def test_harness_accuracy_equals_pair_preference(built, model_folder, tmp_path):
    """The `lm_eval --model hf` path on a saved model: every config's acc and each pair's
    log-likelihoods equal score_pairs; ties are wrong on both sides; verbs is no task."""
    root, pairs = built
    folder, lm = model_folder
    written = write_harness_tasks(root, tmp_path / "tasks")
    assert written == {
        "poetic_eval_agreement": [
            "poetic_eval_agreement_simple_agrmt",
            "poetic_eval_agreement_vp_coord",
        ],
        "poetic_eval_bpomp": ["poetic_eval_bpomp_line_swap", "poetic_eval_bpomp_rhyme_word_swap"],
    }
    results = _evaluate(
        "hf",
        tmp_path / "tasks",
        list(written),
        model_args=f"pretrained={folder},dtype=float32",
        device="cpu",
        batch_size=8,
    )
    for dataset in ("bpomp", "agreement"):
        all_good, all_bad = [], []
        for (name, config), (good, bad) in pairs.items():
            if name != dataset:
                continue
            good_scores, bad_scores = score_pairs(good, bad, lm, show_progress=False)
            expected = pair_preference(good_scores, bad_scores)
            task = f"poetic_eval_{dataset}_{config}"
            assert results["results"][task]["acc,none"] == expected["accuracy"]
            samples = sorted(results["samples"][task], key=lambda sample: sample["doc_id"])
            assert [s["arguments"][1][1] for s in samples] == good  # scored as is: no delimiter
            harness = np.array([[response[0][0] for response in s["resps"]] for s in samples])
            np.testing.assert_allclose(harness[:, 1], good_scores, atol=1e-4)
            np.testing.assert_allclose(harness[:, 0], bad_scores, atol=1e-4)
            all_good.append(good_scores)
            all_bad.append(bad_scores)
        pooled = pair_preference(np.concatenate(all_good), np.concatenate(all_bad))
        group = results["results"][f"poetic_eval_{dataset}"]["acc,none"]
        assert group == pytest.approx(pooled["accuracy"], abs=1e-12)
    assert (
        pair_preference(
            *score_pairs(*pairs[("agreement", "simple_agrmt")], lm, show_progress=False)
        )["ties"]
        == 1
    )


def test_in_process_model_object_uses_our_start_token(built, tmp_path):
    """harness_lm wraps a loaded model with poetic-eval's start token: a model whose start token
    is not its tokenizer's BOS (as the default SmolLM2) still gives score_pairs' numbers."""
    root, pairs = built
    lm = tiny_causal_lm(seed=4)
    lm.start_token_id = lm.tokenizer.convert_tokens_to_ids("[EOS]")
    write_harness_tasks(root, tmp_path / "tasks")
    results = _evaluate(
        harness_lm(lm, batch_size=4), tmp_path / "tasks", ["poetic_eval_bpomp_line_swap"]
    )
    good, bad = pairs[("bpomp", "line_swap")]
    good_scores, bad_scores = score_pairs(good, bad, lm, show_progress=False)
    samples = sorted(results["samples"]["poetic_eval_bpomp_line_swap"], key=lambda s: s["doc_id"])
    harness = np.array([[response[0][0] for response in s["resps"]] for s in samples])
    np.testing.assert_allclose(harness[:, 1], good_scores, atol=1e-4)
    assert (
        results["results"]["poetic_eval_bpomp_line_swap"]["acc,none"]
        == pair_preference(good_scores, bad_scores)["accuracy"]
    )


def _blm_record(index, sentences):
    """A record in the BLM-It release's format (issue 9): numbered context, lettered answers."""
    context = [f"{n}\t{sentences[(index * 7 + n) % len(sentences)]}" for n in range(1, 8)]
    answers = [
        f"{letter}\t{sentences[(index * 5 + k) % len(sentences)]} {k}"
        for k, letter in enumerate("ABCDEFGH")
    ]
    correct = "ABCDEFGH"[index % 8]
    return {
        "ID": str(index),
        "Context": context,
        "Context_concatenated": "\n".join(context),
        "Answer_set": answers,
        "Answer_concatenated": "\n".join(answers),
        "Correct_option": correct,
        "Correct_answer": answers["ABCDEFGH".index(correct)].split("\t", 1)[1],
    }


def test_blm_multiple_choice_over_the_answers_after_the_context(tmp_path):
    """A BLM folder with the BLM-It record format: 8 choices without their letters, after the 7
    context sentences without their numbers, target = the Correct_option's index."""
    import datasets

    features = datasets.Features(
        {
            "ID": datasets.Value("string"),
            "Context": datasets.List(datasets.Value("string")),
            "Context_concatenated": datasets.Value("string"),
            "Answer_set": datasets.List(datasets.Value("string")),
            "Answer_concatenated": datasets.Value("string"),
            "Correct_option": datasets.Value("string"),
            "Correct_answer": datasets.Value("string"),
        }
    )
    sentences = random_sentences(40, seed=2, min_words=3, max_words=6)
    records = [_blm_record(i, sentences) for i in range(12)]
    root = tmp_path / "datasets"
    _write(
        root,
        "blm",
        [
            ConfigData(name, features, {"train": records[:2], "test": records[2:]})
            for name in ("agr_ii", "caus_iii")
        ],
        tmp_path,
    )
    written = write_harness_tasks(root, tmp_path / "tasks")
    assert written == {"poetic_eval_blm": ["poetic_eval_blm_agr_ii", "poetic_eval_blm_caus_iii"]}
    task_file = yaml.safe_load((tmp_path / "tasks/poetic_eval_blm/agr_ii.yaml").read_text())
    assert task_file["fewshot_split"] == "train" and task_file["test_split"] == "test"
    results = _evaluate(
        harness_lm(tiny_causal_lm(seed=5), batch_size=8), tmp_path / "tasks", ["poetic_eval_blm"]
    )
    samples = sorted(results["samples"]["poetic_eval_blm_agr_ii"], key=lambda s: s["doc_id"])
    assert len(samples) == 10
    right = []
    for sample, record in zip(samples, records[2:]):
        contexts = {argument[0] for argument in sample["arguments"]}
        assert contexts == {"\n".join(line.split("\t", 1)[1] for line in record["Context"])}
        assert [argument[1] for argument in sample["arguments"]] == [
            "\n" + answer.split("\t", 1)[1] for answer in record["Answer_set"]
        ]
        assert sample["target"] == "ABCDEFGH".index(record["Correct_option"])
        scores = [response[0][0] for response in sample["resps"]]
        right.append(int(np.argmax(scores)) == sample["target"])
    assert results["results"]["poetic_eval_blm_agr_ii"]["acc,none"] == np.mean(right)


def test_blm_builder_folder(tmp_path):
    """The blm builder's own records (Italian, numbered context, lettered answers, six configs)
    become six 8-way tasks with the letters and numbers stripped."""
    from poetic_eval.builders import blm

    config = blm.Config(agreement_items=6, agreement_few_shot=2, items_per_verb=3, max_verbs=2)
    dataset = blm.build(config)
    write_hub_dataset(dataset, tmp_path / "datasets" / "blm", build_command="test")
    written = write_harness_tasks(tmp_path / "datasets", tmp_path / "tasks")
    configs = ["agr_ii", "agr_iii", "caus_ii", "caus_iii", "od_ii", "od_iii"]
    assert written == {"poetic_eval_blm": [f"poetic_eval_blm_{c}" for c in configs]}
    task = "poetic_eval_blm_caus_iii"
    results = _evaluate(harness_lm(tiny_causal_lm(seed=6)), tmp_path / "tasks", [task], limit=2)
    test_rows = next(c for c in dataset.configs if c.name == "caus_iii").splits["test"]
    for sample in results["samples"][task]:
        record = test_rows[sample["doc_id"]]
        context, _ = sample["arguments"][0]
        assert context.split("\n") == [line.split("\t", 1)[1] for line in record["Context"]]
        choices = [argument[1].removeprefix("\n") for argument in sample["arguments"]]
        assert choices == [answer.split("\t", 1)[1] for answer in record["Answer_set"]]
        assert choices[sample["target"]] == record["Correct_answer"]


def test_cli_writes_hub_paths_and_refuses_foreign_folders(built, tmp_path, capsys):
    root, _ = built
    out = tmp_path / "tasks"
    assert (
        main(["harness-tasks", "--datasets", str(root), "--out", str(out), "--org", "someone"]) == 0
    )
    printed = capsys.readouterr().out
    assert "poetic_eval_bpomp: 2 tasks" in printed and "--include_path" in printed
    template = yaml.safe_load((out / "poetic_eval_bpomp/_minimal_pairs_template_yaml").read_text())
    assert template["dataset_path"] == "someone/bpomp"
    assert template == {
        "dataset_path": "someone/bpomp",
        **TASK_FAMILIES["minimal_pairs"].fields,
        "metadata": template["metadata"],
    }
    group = yaml.safe_load((out / "poetic_eval_agreement/_poetic_eval_agreement.yaml").read_text())
    assert group["group"] == "poetic_eval_agreement" and len(group["task"]) == 2
    assert main(["harness-tasks", "--datasets", str(root), "--out", str(out)]) == 0  # rewrite
    local = yaml.safe_load((out / "poetic_eval_bpomp/_minimal_pairs_template_yaml").read_text())
    assert local["dataset_path"] == str((root / "bpomp").resolve())
    foreign = tmp_path / "other" / "poetic_eval_bpomp"
    foreign.mkdir(parents=True)
    (foreign / "mine.yaml").write_text(json.dumps({"task": "mine"}))
    assert main(["harness-tasks", "--datasets", str(root), "--out", str(foreign.parent)]) == 1
    assert "was not written by poetic-eval harness-tasks" in capsys.readouterr().err
    assert (foreign / "mine.yaml").is_file()
    assert main(["harness-tasks", "--datasets", str(tmp_path / "none"), "--out", str(out)]) == 1
