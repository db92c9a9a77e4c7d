"""rhyme_kl and poetic_diversity with language="de": German quatrains built here with known
schemes; distributions and KL against a hand computation and scipy, through evaluate.load of
the local metric and through the core."""

from __future__ import annotations

import math
import random

import evaluate
import numpy as np
import pytest
from scipy.stats import entropy as scipy_entropy

import poetic_eval
from poetic_eval.diversity import poetic_diversity, rhyme_divergence
from poetic_eval.diversity.rhyme_distribution import scheme_distribution
from poetic_eval.rhyme import QUATRAIN_SCHEMES

# Within a group every pair rhymes in German; across groups no pair does. Wald / kalt / bald /
# alt (final devoicing), Zeit / Leid (ei, devoicing), Bäume / Träume and Lieder / wieder
# (feminine rhymes) are what English rules do not hear.
GROUPS = [
    ["Nacht", "Macht", "lacht", "wacht"],
    ["Licht", "nicht", "Gedicht", "spricht"],
    ["Wald", "kalt", "bald", "alt"],
    ["Zeit", "weit", "Leid", "bereit"],
    ["Bäume", "Träume", "Säume", "Räume"],
    ["Lieder", "wieder", "nieder", "Glieder"],
]
FILLERS = ["Da kam die", "Ich sah das", "Und in der", "Wir hörten", "So ging es"]
# the schemes drawn in the random samples: every scheme whose letters the groups can fill
SCHEMES = [s for s in QUATRAIN_SCHEMES if len(set(s)) <= len(GROUPS)]


def quatrain(scheme: str, rng: random.Random) -> str:
    groups = rng.sample(range(len(GROUPS)), len(set(scheme)))
    by_letter = {letter: rng.sample(GROUPS[g], 4) for letter, g in zip(sorted(set(scheme)), groups)}
    words = [by_letter[letter].pop() for letter in scheme]
    return "\n".join(f"{rng.choice(FILLERS)} {word}," for word in words)


def quatrains(counts: dict[str, int], seed: int) -> list[str]:
    rng = random.Random(seed)
    schemes = [scheme for scheme, count in counts.items() for _ in range(count)]
    rng.shuffle(schemes)
    return [quatrain(scheme, rng) for scheme in schemes]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(poetic_eval.metric_path("rhyme_kl"))


PREDICTED = {"ABAB": 6, "AABB": 2}
REFERENCE = {"ABAB": 4, "AABB": 2, "ABCB": 2}


@pytest.mark.parametrize("method", [None, "perfect"])
def test_distribution_and_kl_equal_the_hand_computation(metric, method):
    predictions, references = quatrains(PREDICTED, 0), quatrains(REFERENCE, 1)
    options = {"language": "de", "smoothing": 0.0, **({"method": method} if method else {})}
    result = metric.compute(predictions=predictions, references=references, **options)
    assert rhyme_divergence(predictions, references, **options) == result
    p = {label: 0.0 for label in QUATRAIN_SCHEMES} | {"ABAB": 0.75, "AABB": 0.25}
    q = {label: 0.0 for label in QUATRAIN_SCHEMES} | {"ABAB": 0.5, "AABB": 0.25, "ABCB": 0.25}
    assert result["scheme_distribution"] == p
    assert result["reference_scheme_distribution"] == q
    # by hand, in bits: KL = 3/4 log2(0.75 / 0.5) + 1/4 log2(0.25 / 0.25)
    assert result["rhyme_kl"] == pytest.approx(0.75 * math.log2(1.5), abs=1e-12)
    # H(P) = -(3/4 log2 3/4 + 1/4 log2 1/4); H(P, Q) = -(3/4 log2 1/2 + 1/4 log2 1/4) = 1.25
    assert result["rhyme_entropy"] == pytest.approx(0.8112781244591328, abs=1e-12)
    assert result["rhyme_cross_entropy"] == pytest.approx(1.25, abs=1e-12)
    assert result["reference_rhyme_entropy"] == pytest.approx(1.5, abs=1e-12)
    assert result["real_rhymes"] == 1.0 and result["repetitions"] == 0.0


def test_english_rules_do_not_hear_these_german_rhymes():
    predictions = quatrains({"ABAB": 10, "AABB": 6}, 2)
    german = scheme_distribution(predictions, language="de")
    assert german["ABAB"] == 10 / 16 and german["AABB"] == 6 / 16
    assert scheme_distribution(predictions, language="en") != german


@pytest.mark.parametrize(("seed", "smoothing", "base"), [(3, 1e-9, 2), (4, 1e-3, math.e)])
def test_kl_and_entropy_equal_scipy_on_random_german_samples(metric, seed, smoothing, base):
    rng = random.Random(seed)
    draws = {
        side: rng.choices(SCHEMES, weights=[rng.random() for _ in SCHEMES], k=60)
        for side in ("p", "q")
    }
    predictions = [quatrain(s, rng) for s in draws["p"]]
    references = [quatrain(s, rng) for s in draws["q"]]
    result = metric.compute(
        predictions=predictions, references=references, language="de", method="perfect",
        smoothing=smoothing, base=base,
    )  # fmt: skip
    shares = {
        side: np.array([d.count(s) / 60 for s in QUATRAIN_SCHEMES]) for side, d in draws.items()
    }
    assert list(result["scheme_distribution"].values()) == pytest.approx(shares["p"], abs=1e-12)
    p, q = ((x + smoothing) / (x + smoothing).sum() for x in (shares["p"], shares["q"]))
    assert result["rhyme_kl"] == pytest.approx(scipy_entropy(p, q, base=base), rel=1e-9)
    assert result["rhyme_entropy"] == pytest.approx(scipy_entropy(p, base=base), rel=1e-9)


def test_poetic_diversity_reads_german_rhyme_and_reports_it_flat():
    predictions, references = quatrains(PREDICTED, 5), quatrains(REFERENCE, 6)
    scores = poetic_diversity(
        predictions, references, dimensions=["rhyme", "length"], language="de",
        rhyme_smoothing=0.0,
    )  # fmt: skip
    assert scores["scheme_distribution_ABAB"] == 0.75
    assert scores["reference_scheme_distribution_ABCB"] == 0.25
    assert scores["rhyme_kl"] == pytest.approx(0.75 * math.log2(1.5), abs=1e-12)
    module = evaluate.load(poetic_eval.metric_path("poetic_diversity"))
    through_module = module.compute(
        predictions=predictions, references=references, dimensions=["rhyme", "length"],
        language="de", rhyme_smoothing=0.0,
    )  # fmt: skip
    assert through_module == scores


def test_language_is_one_profile_option_and_is_checked():
    with pytest.raises(ValueError, match="did you mean 'de'"):
        poetic_diversity(["a\nb"], ["a\nb"], dimensions=["length"], language="dee")
    with pytest.raises(TypeError, match="one option of the whole profile; pass language='de'"):
        poetic_diversity(["a\nb"], ["a\nb"], dimensions=["rhyme"], rhyme_language="de")
