"""Inputs that used to be truncated, give NaN silently or fail with a traceback (issue 24, items
14 and 15): non-integer ids and labels, all -inf logits, meta tensors, huge bootstraps."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from poetic_eval import load_metric
from poetic_eval.pairs import compare_pair_preferences, pair_preference, verb_weighted_agreement
from poetic_eval.pairs.statistics import MAX_BOOTSTRAP_DRAWS

VOCAB = 10
VERBS = [[2, 3], [4, 5], [6, 7]]
LABELS = [-1, -2, -1, -2]
CORRECT = [2, 5, 6, 3]
INCORRECT = [3, 4, 7, 2]


def logits():
    return np.random.default_rng(0).normal(size=(4, VOCAB))


def agreement(**changes):
    inputs = {
        "logits": logits(),
        "labels": LABELS,
        "correct_ids": CORRECT,
        "incorrect_ids": INCORRECT,
        "verb_token_ids": VERBS,
    }
    inputs.update(changes)
    return verb_weighted_agreement(**inputs)


@pytest.mark.parametrize(
    "changes, where",
    [
        (
            {"verb_token_ids": np.asarray(VERBS, dtype=float) + 0.7},
            r"verb_token_ids\[0, 0\] = 2\.7",
        ),
        (
            {"verb_token_ids": torch.tensor(VERBS, dtype=torch.float32) + 0.5},
            r"verb_token_ids\[0, 0\]",
        ),
        ({"correct_ids": [2.7, 5, 6, 3]}, r"correct_ids\[0\] = 2\.7"),
        ({"incorrect_ids": [3, 4, np.nan, 2]}, r"incorrect_ids\[2\]"),
    ],
)
def test_non_integer_ids_are_refused_not_truncated(changes, where):
    with pytest.raises(TypeError, match=where + r".*not a whole number"):
        agreement(**changes)


def test_whole_float_ids_still_count_as_integers():
    expected = agreement()
    floats = agreement(
        verb_token_ids=np.asarray(VERBS, dtype=float), correct_ids=np.asarray(CORRECT, dtype=float)
    )
    assert floats["mw"] == expected["mw"] and floats["ew"] == expected["ew"]


def test_the_metric_module_refuses_float_labels_and_ids_before_evaluate_casts_them():
    metric = load_metric("verb_weighted_agreement")
    base = {
        "logits": logits(),
        "labels": LABELS,
        "correct_ids": CORRECT,
        "incorrect_ids": INCORRECT,
        "verb_token_ids": VERBS,
    }
    with pytest.raises(TypeError, match=r"labels\[0\] = -1\.7"):
        metric.compute(**{**base, "labels": [-1.7, -2, -1, -2]})
    with pytest.raises(TypeError, match=r"correct_ids\[1\] = 5\.5"):
        metric.compute(**{**base, "correct_ids": [2, 5.5, 6, 3]})
    assert metric.compute(**base)["mw"] == pytest.approx(agreement()["mw"])


def test_a_row_of_minus_infinity_is_a_clear_error_not_nan():
    rows = logits()
    rows[1] = -np.inf
    with pytest.raises(ValueError, match=r"logits\[1\] is -inf everywhere"):
        agreement(logits=rows)
    with pytest.raises(ValueError, match=r"logits\[0\] is -inf everywhere.*all 4 such rows"):
        agreement(logits=np.full((4, VOCAB), -np.inf))


def test_meta_device_tensors_are_named():
    meta = torch.empty(4, device="meta")
    with pytest.raises(ValueError, match="good_scores is a tensor on the 'meta' device"):
        pair_preference(meta, [0.0] * 4)
    with pytest.raises(ValueError, match="logits is a tensor on the 'meta' device"):
        agreement(logits=torch.empty(4, VOCAB, device="meta"))
    with pytest.raises(ValueError, match="good_scores is a tensor on the 'meta' device"):
        load_metric("pair_preference").compute(good_scores=meta, bad_scores=[0.0] * 4)


def test_a_bootstrap_too_big_to_hold_is_refused_before_drawing():
    good, bad = [1.0, 0.0, 1.0], [0.0, 1.0, 0.5]
    with pytest.raises(ValueError, match="n_bootstrap .* is too many resamples for 1 group"):
        pair_preference(good, bad, n_bootstrap=MAX_BOOTSTRAP_DRAWS + 1)
    with pytest.raises(ValueError, match="for 3 group"):
        pair_preference(good, bad, categories=["a", "b", "a"], n_bootstrap=MAX_BOOTSTRAP_DRAWS // 2)
    with pytest.raises(ValueError, match="for 4 group"):
        compare_pair_preferences(good, bad, bad, good, n_bootstrap=MAX_BOOTSTRAP_DRAWS)
    categories = (label for label in ["a", "b", "a"])  # a generator is read once, as before
    assert (
        pair_preference(good, bad, categories=categories, n_bootstrap=100)["by_category"]["a"]["n"]
        == 2
    )
