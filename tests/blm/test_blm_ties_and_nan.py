"""BLM answers tied between candidates are counted, not given to letter A, and a model that
gives NaN is refused, as ``score-pairs`` refuses it (issue 39, item 3)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch
from blm_eval_items import RECORDS, RELEASE_ITEM, bigram_lm, italian_lm

from poetic_eval.blm import LETTERS, blm_results, evaluate_blm
from poetic_eval.cli import main

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _identical_candidates():
    record = copy.deepcopy(RELEASE_ITEM)
    record["Answer_set"] = [record["Correct_answer"]] * 8
    return record


def test_eight_identical_candidates_are_a_tie_not_an_answer(lm):
    result = evaluate_blm([_identical_candidates()], lm, method="candidates", show_progress=False)
    assert result["ties"] == 1 and result["accuracy"] == 0.0
    assert result["predictions"][0]["predicted"] is None
    assert result["predictions"][0]["label"] is None
    assert result["f1_by_letter"]["A"]["recall"] == 0.0 and result["macro_f1"] == 0.0


def test_a_model_that_cannot_tell_the_letters_apart_answers_nothing():
    uniform = bigram_lm({})  # every next token equally likely: the 8 letters score alike
    result = evaluate_blm(RECORDS, uniform, method="prompt", show_progress=False)
    assert result["ties"] == len(RECORDS) and result["accuracy"] == 0.0
    assert {p["predicted"] for p in result["predictions"]} == {None}


def test_untied_items_keep_their_letters(lm):
    result = evaluate_blm(RECORDS, lm, method="candidates", show_progress=False)
    assert result["ties"] == 0 and all(p["predicted"] in LETTERS for p in result["predictions"])


def _reference_f1(predictions, references):
    """Per-letter F1 counted by hand: a None prediction is a miss of its reference letter."""
    letters = sorted(set(references) | {p for p in predictions if p is not None})
    scores = []
    for letter in letters:
        tp = sum(p == r == letter for p, r in zip(predictions, references))
        fp = sum(p == letter != r for p, r in zip(predictions, references))
        fn = sum(r == letter != p for p, r in zip(predictions, references))
        scores.append(2 * tp / (2 * tp + fp + fn))
    return float(np.mean(scores))


def test_ties_in_the_scores_against_an_independent_count():
    rng = np.random.default_rng(3)
    for _ in range(40):
        n = int(rng.integers(1, 30))
        references = [str(letter) for letter in rng.choice(list(LETTERS), n)]
        predictions = [
            None if rng.random() < 0.3 else (r if rng.random() < 0.5 else str(rng.choice(LETTERS)))
            for r in references
        ]
        result = blm_results(predictions, references)
        assert result["ties"] == predictions.count(None)
        hits = sum(p == r for p, r in zip(predictions, references))
        assert result["accuracy"] == pytest.approx(hits / n)
        assert result["macro_f1"] == pytest.approx(_reference_f1(predictions, references))
        assert None not in result["f1_by_letter"] and "-" not in result["f1_by_letter"]


@pytest.mark.filterwarnings("ignore:.*a cached shared prefix does not reproduce")
def test_blm_eval_refuses_a_model_that_gives_nan(tmp_path, capsys):
    broken = italian_lm(seed=0)
    with torch.no_grad():
        broken.model.lm_head.weight.fill_(float("nan"))
    folder = tmp_path / "nan_model"
    broken.model.save_pretrained(folder)
    broken.tokenizer.save_pretrained(folder)
    source = tmp_path / "items.json"
    source.write_text(json.dumps(RECORDS, ensure_ascii=False), encoding="utf-8")
    for method in ("prompt", "candidates"):
        command = ["blm-eval", "--items", str(source), "--model", str(folder), "--device", "cpu"]
        assert main([*command, "--method", method]) == 1
        captured = capsys.readouterr()
        assert "accuracy" not in captured.out
        assert "gave NaN or infinite scores" in captured.err.strip().splitlines()[-1]


def test_the_table_and_the_report_show_ties(tmp_path, capsys):
    from poetic_eval.report.sections.blm import blm_section

    source = tmp_path / "items.json"
    source.write_text(json.dumps([_identical_candidates()], ensure_ascii=False))
    folder = tmp_path / "model"
    model = italian_lm(seed=0)
    model.model.save_pretrained(folder)
    model.tokenizer.save_pretrained(folder)
    command = ["blm-eval", "--items", str(source), "--model", str(folder), "--device", "cpu"]
    assert main([*command, "--method", "candidates"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[-1] == "ties" and lines[2].split()[-1] == "1"
    result = evaluate_blm(
        [_identical_candidates()], model, method="candidates", show_progress=False
    )
    table = blm_section([{**result, "config": "items"}]).tables[0]
    assert table.rows[0][table.columns.index("ties")] == 1
