"""pair_preference: accuracy, ties, bootstrap intervals, categories, paired comparison, module."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import poetic_eval
from poetic_eval.pairs import compare_pair_preferences, pair_preference


def random_scores(n: int, seed: int, skill: float = 0.5):
    rng = np.random.default_rng(seed)
    good = rng.normal(0, 1, n).round(1)  # rounding makes ties
    bad = (good - rng.normal(skill, 1, n)).round(1)
    categories = rng.choice(["rhyme", "agreement", "swap"], size=n).tolist()
    return good, bad, categories


def index_bootstrap(right: np.ndarray, n_bootstrap: int, seed: int) -> np.ndarray:
    """Reference: resample pair indices with replacement, one resample at a time."""
    rng = np.random.default_rng(seed)
    return np.array(
        [right[rng.integers(0, right.size, right.size)].mean() for _ in range(n_bootstrap)]
    )


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("pair_preference")


def test_accuracy_ties_and_categories_match_a_loop():
    good, bad, categories = random_scores(500, seed=1)
    result = pair_preference(good, bad, categories=categories)
    right = [g > b for g, b in zip(good, bad)]
    assert result["accuracy"] == pytest.approx(sum(right) / 500)
    assert result["ties"] == sum(g == b for g, b in zip(good, bad)) > 0
    assert result["n"] == 500
    for name in ("rhyme", "agreement", "swap"):
        rows = [i for i, c in enumerate(categories) if c == name]
        entry = result["by_category"][name]
        assert entry["n"] == len(rows)
        assert entry["accuracy"] == pytest.approx(sum(right[i] for i in rows) / len(rows))
        assert entry["ties"] == sum(good[i] == bad[i] for i in rows)
        assert entry["ci_low"] <= entry["accuracy"] <= entry["ci_high"]
    assert pair_preference(good, bad)["by_category"] == {}


def test_bootstrap_matches_index_resampling():
    good, bad, _ = random_scores(300, seed=2)
    right = good > bad
    result = pair_preference(good, bad, n_bootstrap=4000, seed=3)
    reference = np.quantile(index_bootstrap(right, 4000, seed=4), [0.025, 0.975])
    assert result["ci_low"] == pytest.approx(reference[0], abs=0.012)
    assert result["ci_high"] == pytest.approx(reference[1], abs=0.012)


def test_bootstrap_interval_properties():
    good, bad, _ = random_scores(400, seed=5)
    first = pair_preference(good, bad, seed=7)
    assert first == pair_preference(good, bad, seed=7)
    assert first["ci_low"] <= first["accuracy"] <= first["ci_high"]
    wide = pair_preference(good[:40], bad[:40], seed=7)
    assert wide["ci_high"] - wide["ci_low"] > first["ci_high"] - first["ci_low"]
    narrow = pair_preference(good, bad, seed=7, confidence=0.5)
    assert narrow["ci_high"] - narrow["ci_low"] < first["ci_high"] - first["ci_low"]
    perfect = pair_preference([2.0, 3.0], [1.0, 0.0])
    assert (perfect["accuracy"], perfect["ci_low"], perfect["ci_high"]) == (1.0, 1.0, 1.0)


def test_tensors_on_any_device_and_dtype_are_accepted():
    good, bad, categories = random_scores(64, seed=6)
    expected = pair_preference(good, bad, categories=categories)
    as_tensor = pair_preference(
        torch.tensor(good, requires_grad=True),
        torch.tensor(bad, dtype=torch.float64),
        categories=categories,
    )
    assert as_tensor == expected
    half = pair_preference(torch.tensor([1.0, 2.0], dtype=torch.bfloat16), [0.5, 2.0])
    assert (half["accuracy"], half["ties"]) == (0.5, 1)


def test_bad_inputs_name_rows_and_arguments():
    with pytest.raises(
        ValueError, match=r"bad_scores has 2 NaN or infinite value\(s\), at rows 1, 3"
    ):
        pair_preference([1.0, 2.0, 3.0, 4.0], [0.0, float("nan"), 1.0, float("-inf")])
    with pytest.raises(ValueError, match="same length"):
        pair_preference([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="empty"):
        pair_preference([], [])
    with pytest.raises(TypeError, match="good_scores must be numbers"):
        pair_preference(["a"], [1.0])
    with pytest.raises(ValueError, match="one entry per pair"):
        pair_preference([1.0, 2.0], [0.0, 0.0], categories=["a"])
    with pytest.raises(ValueError, match="n_bootstrap must be >= 1"):
        pair_preference([1.0], [0.0], n_bootstrap=0)


def exact_mcnemar(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the binomial distribution, by hand."""
    n = a_only + b_only
    smaller = min(a_only, b_only)
    tail = sum(math.comb(n, k) for k in range(smaller + 1)) / 2**n
    return min(1.0, 2 * tail)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paired_comparison_mcnemar_and_bootstrap(seed):
    good, bad, _ = random_scores(200, seed=seed, skill=0.8)
    rng = np.random.default_rng(seed + 10)
    good_b = good + rng.normal(0, 0.6, good.size)
    result = compare_pair_preferences(good, bad, good_b, bad, n_bootstrap=3000, seed=seed)
    right_a, right_b = good > bad, good_b > bad
    a_only = sum(a and not b for a, b in zip(right_a, right_b))
    b_only = sum(b and not a for a, b in zip(right_a, right_b))
    assert (result["a_only"], result["b_only"]) == (a_only, b_only)
    assert result["mcnemar_p_value"] == pytest.approx(exact_mcnemar(a_only, b_only), rel=1e-9)
    assert result["difference"] == pytest.approx(right_a.mean() - right_b.mean())
    loop_rng = np.random.default_rng(seed + 20)
    differences = []
    for _ in range(3000):
        rows = loop_rng.integers(0, good.size, good.size)
        differences.append(right_a[rows].mean() - right_b[rows].mean())
    reference = np.quantile(differences, [0.025, 0.975])
    assert result["ci_low"] == pytest.approx(reference[0], abs=0.012)
    assert result["ci_high"] == pytest.approx(reference[1], abs=0.012)


def test_paired_comparison_of_identical_models():
    good, bad, _ = random_scores(50, seed=4)
    result = compare_pair_preferences(good, bad, good, bad)
    assert result["mcnemar_p_value"] == 1.0 and result["difference"] == 0.0
    assert result["ci_low"] == result["ci_high"] == 0.0
    with pytest.raises(ValueError, match="same pairs"):
        compare_pair_preferences(good, bad, good[:10], bad[:10])


def test_module_add_batch_equals_one_compute(metric):
    good, bad, categories = random_scores(90, seed=8)
    expected = pair_preference(good, bad, categories=categories)
    for start in range(0, 90, 25):
        metric.add_batch(
            good_scores=torch.tensor(good[start : start + 25]),
            bad_scores=bad[start : start + 25].tolist(),
            categories=categories[start : start + 25],
        )
    assert metric.compute() == expected
    assert metric.compute(good_scores=good, bad_scores=bad, categories=categories) == expected
    without = metric.compute(good_scores=good, bad_scores=bad, n_bootstrap=50, seed=1)
    assert without == pair_preference(good, bad, n_bootstrap=50, seed=1)


def test_module_rejects_nan_and_partial_categories(metric):
    with pytest.raises(ValueError, match="at rows 1"):
        metric.compute(good_scores=[1.0, float("nan")], bad_scores=[0.0, 0.0])
    with pytest.raises(
        ValueError, match=r"at rows 0; .* \(rows counted within this add_batch call\)"
    ):
        metric.add_batch(good_scores=[float("inf")], bad_scores=[0.0])
    metric.add_batch(good_scores=[1.0], bad_scores=[0.0], categories=["rhyme"])
    metric.add_batch(good_scores=[1.0], bad_scores=[0.0])
    with pytest.raises(ValueError, match="categories are missing for 1 of 2 pairs"):
        metric.compute()
