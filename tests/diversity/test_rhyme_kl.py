"""rhyme_kl: scheme distributions, entropy, KL and cross-entropy against scipy, and the module."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy.stats import entropy as scipy_entropy

import poetic_eval
from poetic_eval.diversity import rhyme_divergence
from poetic_eval.diversity.rhyme_distribution import scheme_distribution
from poetic_eval.rhyme import QUATRAIN_SCHEMES

GROUPS = [
    ["cat", "hat", "mat", "flat"],
    ["day", "way", "play", "grey"],
    ["night", "light", "sight", "bright"],
    ["tree", "sea", "free", "three"],
]
FILLERS = ["the old", "beneath a", "I saw the", "we kept the", "and then a"]


def quatrain(scheme: str, rng: random.Random, *, repeat: bool = False) -> str:
    """A quatrain with rhyme scheme ``scheme``; ``repeat`` reuses a word for a rhyming pair."""
    groups = rng.sample(range(len(GROUPS)), len(set(scheme)))
    by_letter = {letter: rng.sample(GROUPS[g], 4) for letter, g in zip(sorted(set(scheme)), groups)}
    words = [by_letter[letter].pop() for letter in scheme]
    if repeat:
        letter = next(ch for ch in scheme if scheme.count(ch) > 1)
        first, second = [i for i, ch in enumerate(scheme) if ch == letter][:2]
        words[second] = words[first]
    return "\n".join(f"{rng.choice(FILLERS)} {word}" for word in words)


def sample(rng: random.Random, size: int, weights: list[float]) -> tuple[list[str], list[str]]:
    schemes = rng.choices(QUATRAIN_SCHEMES, weights=weights, k=size)
    return [quatrain(s, rng) for s in schemes], schemes


def smoothed(counts: dict[str, float], smoothing: float) -> np.ndarray:
    p = np.array([counts[label] for label in QUATRAIN_SCHEMES], dtype=float)
    return (p + smoothing) / (p + smoothing).sum()


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("rhyme_kl")


def test_generated_quatrains_have_their_scheme():
    """Uniformly drawn schemes (ABAC as often as ABAB): perfect rhyme counts exactly what was
    generated. (The learned default reads "day" / "free" as a slant rhyme, and may read such an
    ABAC as ABAB; its accuracy is tested on verse in test_rhyme_learned.py.)"""
    rng = random.Random(1)
    poems, schemes = sample(rng, 200, [1.0] * 15)
    distribution = scheme_distribution(poems, method="perfect")
    assert list(distribution) == list(QUATRAIN_SCHEMES)
    for label in QUATRAIN_SCHEMES:
        assert distribution[label] == pytest.approx(schemes.count(label) / len(schemes))


@pytest.mark.floors
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("smoothing", [1e-9, 1e-3, 0.5])
def test_matches_scipy_on_generated_samples(seed, smoothing):
    rng = random.Random(seed)
    predictions, _ = sample(rng, rng.randint(20, 120), [rng.random() for _ in range(15)])
    references, _ = sample(rng, rng.randint(20, 120), [rng.random() for _ in range(15)])
    base = rng.choice([2, math.e, 10])
    result = rhyme_divergence(predictions, references, base=base, smoothing=smoothing)
    p = smoothed(result["scheme_distribution"], smoothing)
    q = smoothed(result["reference_scheme_distribution"], smoothing)
    assert result["rhyme_entropy"] == pytest.approx(scipy_entropy(p, base=base), abs=1e-12)
    assert result["reference_rhyme_entropy"] == pytest.approx(
        scipy_entropy(q, base=base), abs=1e-12
    )
    assert result["rhyme_kl"] == pytest.approx(scipy_entropy(p, q, base=base), abs=1e-12)
    cross = -(p * np.log(q)).sum() / np.log(base)
    assert result["rhyme_cross_entropy"] == pytest.approx(cross, abs=1e-12)
    assert result["rhyme_kl"] >= 0
    assert result["rhyme_cross_entropy"] == pytest.approx(
        result["rhyme_entropy"] + result["rhyme_kl"]
    )


def test_identical_inputs():
    rng = random.Random(3)
    poems, _ = sample(rng, 80, [rng.random() for _ in range(15)])
    result = rhyme_divergence(poems, poems)
    assert result["rhyme_kl"] == 0.0
    assert result["rhyme_cross_entropy"] == result["rhyme_entropy"]
    assert result["rhyme_entropy"] == result["reference_rhyme_entropy"]
    assert result["scheme_distribution"] == result["reference_scheme_distribution"]


def test_entropy_bounds_and_base():
    rng = random.Random(4)
    uniform = [quatrain(s, rng) for s in QUATRAIN_SCHEMES]
    perfect = {"method": "perfect"}
    assert rhyme_divergence(uniform, uniform, **perfect)["rhyme_entropy"] == pytest.approx(
        math.log2(15)
    )
    single = [quatrain("ABAB", rng) for _ in range(5)]
    assert rhyme_divergence(single, uniform, smoothing=0)["rhyme_entropy"] == 0.0
    in_nats = rhyme_divergence(uniform, uniform, base=math.e, **perfect)["rhyme_entropy"]
    assert in_nats == pytest.approx(math.log(15))


def test_zero_smoothing_gives_infinite_kl():
    rng = random.Random(5)
    predictions = [quatrain("ABAB", rng), quatrain("AABB", rng)]
    references = [quatrain("ABAB", rng)]
    result = rhyme_divergence(predictions, references, smoothing=0)
    assert result["rhyme_kl"] == math.inf and result["rhyme_cross_entropy"] == math.inf
    assert math.isfinite(rhyme_divergence(predictions, references)["rhyme_kl"])


def test_real_rhymes_and_repetitions():
    rng = random.Random(6)
    poems = (
        [quatrain("ABCD", rng) for _ in range(2)]
        + [quatrain("ABAB", rng, repeat=True) for _ in range(3)]
        + [quatrain("AABB", rng) for _ in range(5)]
    )
    result = rhyme_divergence(poems, poems)
    assert result["repetitions"] == pytest.approx(0.3)
    assert result["real_rhymes"] == pytest.approx(1 - 0.2 - 0.3)
    assert result["reference_real_rhymes"] == result["real_rhymes"]


def test_non_quatrains_are_skipped_and_counted():
    rng = random.Random(7)
    quatrains = [quatrain("ABAB", rng) for _ in range(4)]
    limerick = "a cat\na hat\nthe day\nthe way\na flat"
    result = rhyme_divergence(quatrains + [limerick], quatrains)
    assert result["quatrain_predictions"] == 4 and result["non_quatrain_predictions"] == 1
    assert result["non_quatrain_references"] == 0
    assert result["scheme_distribution"]["ABAB"] == 1.0
    with pytest.raises(ValueError, match=r"predictions\[4\] has 5 non-empty lines"):
        rhyme_divergence(quatrains + [limerick], quatrains, non_quatrains="error")
    with pytest.raises(ValueError, match="references has no quatrain"):
        rhyme_divergence(quatrains, [limerick])


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"predictions": "one poem"}, TypeError, "predictions must be a list"),
        ({"predictions": []}, ValueError, "predictions is empty"),
        ({"predictions": ["a\nb\nc\nd", 3]}, TypeError, r"predictions\[1\] must be a string"),
        ({"references": ["a\nb\nc\nd", "  "]}, ValueError, r"references\[1\] is empty"),
        ({"base": 1}, ValueError, "base must be positive"),
        ({"base": -2}, ValueError, "base must be positive"),
        ({"base": "2"}, TypeError, "base must be a number"),
        ({"smoothing": -1e-3}, ValueError, "smoothing must be >= 0"),
        ({"smoothing": float("nan")}, ValueError, "smoothing must be >= 0"),
        ({"non_quatrains": "keep"}, ValueError, "unknown non_quatrains policy 'keep'; .*choices: "),
    ],
)
def test_bad_inputs(kwargs, error, message):
    arguments = {
        "predictions": ["the cat\nthe hat\nthe day\nthe way"],
        "references": ["a\nb\nc\nd"],
    }
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        rhyme_divergence(**arguments)


def test_module_equals_core_and_add_batch(metric):
    rng = random.Random(8)
    predictions, _ = sample(rng, 60, [rng.random() for _ in range(15)])
    references, _ = sample(rng, 90, [rng.random() for _ in range(15)])
    expected = rhyme_divergence(predictions, references)
    assert metric.compute(predictions=predictions, references=references) == expected
    for start in range(0, len(predictions), 17):
        metric.add_batch(predictions=predictions[start : start + 17])
    assert metric.compute(references=references) == expected
    base_e = metric.compute(predictions=predictions, references=references, base=math.e)
    assert base_e["rhyme_kl"] == pytest.approx(expected["rhyme_kl"] * math.log(2))


def test_module_requires_references(metric):
    with pytest.raises(ValueError, match="references"):
        metric.compute(predictions=["the cat\nthe hat\nthe day\nthe way"])


def test_wider_rhyme_options_reach_the_schemes(metric):
    """weak / near / historical pass from the module through the core to the classifier."""
    eye_rhymes = "the winding worm\nwe kept the day\nbeneath the storm\nand went away"
    historical = "I saw the eye\nwe kept the day\nof symmetry\nand went away"
    plain = metric.compute(
        predictions=[eye_rhymes, historical], references=[eye_rhymes], method="perfect"
    )
    assert plain["scheme_distribution"]["ABCB"] == 1.0
    learned = metric.compute(predictions=[eye_rhymes, historical], references=[eye_rhymes])
    assert learned["scheme_distribution"]["ABAB"] == 1.0  # the default knows both
    near = metric.compute(predictions=[eye_rhymes, historical], references=[eye_rhymes], near=True)
    assert near["scheme_distribution"]["ABAB"] == 0.5 and near["scheme_distribution"]["ABCB"] == 0.5
    both = rhyme_divergence([eye_rhymes, historical], [eye_rhymes], near=True, historical=True)
    assert both["scheme_distribution"]["ABAB"] == 1.0
    assert both["reference_scheme_distribution"]["ABAB"] == 1.0


def test_scheme_reading_options_stay_keywords():
    """rhyme_divergence's scheme options (a SchemeReading) are checked by name and type."""
    poems = ["a\nb\nc\nd"] * 2
    with pytest.raises(TypeError, match="'neer'; did you mean 'near'"):
        rhyme_divergence(poems, poems, neer=True)
    with pytest.raises(TypeError, match="weak must be True or False"):
        rhyme_divergence(poems, poems, weak="yes")
    assert "historical" in poetic_eval.diversity.DIMENSIONS["rhyme"].options()
