"""The baseline's diagnosis agrees with the baseline itself, on a small seeded build."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from poetic_eval.blm import BlmSizes, generate_config
from poetic_eval.blm.generator.baseline_diagnosis import diagnose_baseline, diagnosis_text
from poetic_eval.blm.generator.shortcut_baseline import (
    fit_baseline,
    held_out_accuracy,
    split_rows,
)

SIZES = BlmSizes(agreement_items=200, agreement_few_shot=4, items_per_verb=8)
ROOT = Path(__file__).resolve().parents[2]


@cache
def rows(config: str) -> list[dict]:
    return generate_config(config, seed=3, sizes=SIZES)["test"]


@pytest.mark.parametrize("config", ["agr_ii", "caus_ii", "od_iii"])
@pytest.mark.parametrize("protocol", ["random_half", "verb_split"])
def test_the_diagnosis_accounts_for_the_baseline_s_choices(config, protocol):
    diagnosis = diagnose_baseline(rows(config), protocol, seed=1, top=5)
    train, held_out = split_rows(rows(config), protocol, 1)
    assert diagnosis.items == len(held_out) == sum(diagnosis.picked.values())
    assert diagnosis.accuracy == pytest.approx(held_out_accuracy(train, held_out))
    per_verb = diagnosis.per_verb.values()
    assert sum(n for _, n in per_verb) == len(held_out)
    assert sum(a * n for a, n in per_verb) / len(held_out) == pytest.approx(diagnosis.accuracy)
    assert set(diagnosis.per_verb) == {row["Verb"] for row in held_out}
    # an answer picked over the correct one scores above it, so a label picked in k items
    # leaves the correct answer above it in at most n - k
    for label, share in diagnosis.beats.items():
        assert share <= 1 - diagnosis.picked.get(label, 0) / len(held_out) + 1e-12
    weights = fit_baseline(train).weights[:-1]
    toward = [w for _, w in diagnosis.toward_correct]
    against = [w for _, w in diagnosis.against_correct]
    assert toward == sorted(toward, reverse=True) and against == sorted(against)
    assert toward[0] == pytest.approx(np.max(weights))
    assert against[0] == pytest.approx(np.min(weights))
    assert len(toward) == len(against) == 5
    assert f"accuracy {diagnosis.accuracy:.3f}" in diagnosis_text(diagnosis)


def test_the_script_prints_a_diagnosis():
    done = subprocess.run(
        [sys.executable, "scripts/diagnose_blm_baseline.py", "caus_ii", "--top", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "# caus_ii, build seed 0" in done.stdout
    assert "random_half, split seed 0:" in done.stdout
    assert "correct scores above:" in done.stdout and "I-Int" in done.stdout
