"""Length statistics, histogram intersection and Wasserstein against numpy/scipy computed here."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from scipy.stats import wasserstein_distance

import poetic_eval
from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import length_comparison
from poetic_eval.diversity.length import histogram_intersection, length_statistics, poem_lengths

STATS = ("mean", "median", "std", "min", "max")
WORDS = ["light", "night,", "sea", "ünder", "Rosé", "—", "O!", "don't", "grief;", "…"]


def random_poems(seed: int, count: int, mean_words: float) -> list[str]:
    """Poems of about ``mean_words`` of the tricky WORDS, cut into up to 3 lines."""
    return SyntheticPoems(seed).word_count_poems(count, mean_words, vocabulary=WORDS)


def reference_intersection(a, b, bins):
    """Independent HI: numpy's own bin edges over the joint range, normalised counts."""
    joint = np.concatenate([a, b]).astype(float)
    edges = np.histogram_bin_edges(joint, bins=bins, range=(joint.min(), joint.max()))
    p, _ = np.histogram(a, bins=edges, density=False)
    q, _ = np.histogram(b, bins=edges, density=False)
    return np.minimum(p / p.sum(), q / q.sum()).sum()


def test_lengths_remove_punctuation_as_the_paper():
    poem = "O! the night, — don't\nweep … for me"
    assert poem_lengths([poem])[0] == 7  # O the night dont weep for me: "—" and "…" vanish
    assert poem_lengths([poem], remove_punctuation=False)[0] == 9


@pytest.mark.parametrize("seed", range(4))
def test_comparison_against_numpy_scipy(seed):
    rng = random.Random(seed)
    generated = random_poems(seed, rng.randint(5, 300), 24)
    human = random_poems(seed + 100, rng.randint(5, 900), 28)
    bins = rng.choice([1, 5, 30, 64])
    result = length_comparison(generated, human, bins=bins)
    # WORDS hold letters and punctuation only, so deleting non-word characters is independent
    a = np.array([len(re.sub(r"[^\w\s]", "", p).split()) for p in generated])
    b = np.array([len(re.sub(r"[^\w\s]", "", p).split()) for p in human])
    assert result["histogram_intersection"] == pytest.approx(reference_intersection(a, b, bins))
    assert result["wasserstein"] == pytest.approx(wasserstein_distance(a, b))
    for prefix, values in (("length_", a), ("reference_length_", b)):
        assert result[prefix + "mean"] == pytest.approx(values.mean())
        assert result[prefix + "median"] == pytest.approx(np.median(values))
        assert result[prefix + "std"] == pytest.approx(values.std(ddof=0))
        assert result[prefix + "min"] == values.min()
        assert result[prefix + "max"] == values.max()
    assert set(result) == {
        "histogram_intersection",
        "wasserstein",
        *(f"{p}length_{s}" for p in ("", "reference_") for s in STATS),
    }


@pytest.mark.parametrize("seed", range(6))
def test_intersection_properties(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 60, size=rng.integers(1, 400))
    b = rng.integers(10, 80, size=rng.integers(1, 400))
    bins = int(rng.integers(1, 50))
    forward, backward = histogram_intersection(a, b, bins), histogram_intersection(b, a, bins)
    assert forward == pytest.approx(backward)
    assert 0.0 <= forward <= 1.0 + 1e-12
    assert histogram_intersection(a, a, bins) == pytest.approx(1.0)
    assert histogram_intersection(a, np.concatenate([a, a]), bins) == pytest.approx(1.0)


def test_intersection_disjoint_and_constant():
    assert histogram_intersection([1, 1, 2], [9, 10], bins=3) == 0.0
    assert histogram_intersection([5, 5], [5], bins=30) == 1.0


def test_identical_poem_sets_give_one():
    poems = random_poems(11, 50, 20)
    result = length_comparison(poems, list(reversed(poems)))
    assert result["histogram_intersection"] == pytest.approx(1.0)
    assert result["wasserstein"] == 0.0


def test_statistics_keys_and_values():
    stats = length_statistics(["a b c", "a b c d e", "a"])
    assert stats == {
        "mean": 3.0,
        "median": 3.0,
        "std": pytest.approx(np.std([3, 5, 1])),
        "min": 1.0,
        "max": 5.0,
    }


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"predictions": [], "references": ["a"]}, ValueError, "predictions is empty"),
        ({"predictions": ["a"], "references": []}, ValueError, "references is empty"),
        ({"predictions": ["a", None], "references": ["a"]}, TypeError, "predictions[1]"),
        ({"predictions": ["a"], "references": ["a", 7]}, TypeError, "references[1]"),
        ({"predictions": ["a", ""], "references": ["a"]}, ValueError, "predictions[1]"),
        ({"predictions": ["a"], "references": ["a"], "bins": 0}, ValueError, "bins"),
        ({"predictions": ["a"], "references": ["a"], "bins": 2.5}, TypeError, "bins"),
    ],
)
def test_bad_input(kwargs, error, fragment):
    with pytest.raises(error) as raised:
        length_comparison(**kwargs)
    assert fragment in str(raised.value)


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("histogram_intersection")


def test_module_add_batch_equals_compute(metric):
    generated, human = random_poems(20, 70, 22), random_poems(21, 500, 28)
    whole = metric.compute(predictions=generated, references=human, bins=12)
    for start in range(0, len(generated), 30):
        metric.add_batch(predictions=generated[start : start + 30])
    assert metric.compute(references=human, bins=12) == whole
    assert whole == length_comparison(generated, human, bins=12)


def test_module_bad_input(metric):
    with pytest.raises(ValueError, match="references"):
        metric.compute(predictions=["a b"])
    with pytest.raises(ValueError, match="bins"):
        metric.compute(predictions=["a b"], references=["a"], bins=0)
