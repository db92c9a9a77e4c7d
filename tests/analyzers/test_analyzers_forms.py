"""Shipped forms: real sonnets and limericks pass, the same lines shuffled across poems fail."""

from __future__ import annotations

import csv
import random

import pytest

from poetic_eval.analyzers import evaluate_poem
from poetic_eval.analyzers.forms import form_description, form_expectations, form_names
from poetic_eval.analyzers.poem import Poem
from poetic_eval.resources import seed_poems

# Measured with the rhyme module's default (the learned method) and a rhyme window of 5:
# the project's 45 seed limericks: 45/45 pass; shuffled: 0/45 (rhyme scheme fails all,
# syllable shape fails 20). Public-domain poems labelled "sonnet" (585): 443 pass (75.7 %);
# the 507 with 14 lines: 443 (87.4 %); shuffled: 0 (no shuffled scheme is within 4 lines).
# (441 before the windows of a long poem were decoded jointly instead of pair by pair; with
# perfect rhyme, the default before: 424 (72.5 %) and 424 (83.6 %).)
LIMERICK_FLOOR, SHUFFLED_LIMERICK_CEILING = 0.9, 0.1
SONNET_FLOOR, SONNET_14_FLOOR, SHUFFLED_SONNET_CEILING = 0.65, 0.78, 0.05


def shuffled_across_poems(poems: list[str], seed: int) -> list[str]:
    """The same poems' lines shuffled across all of them, each poem keeping its stanza shape
    (so line and stanza counts stay right and only what the lines say and rhyme changes)."""
    parsed = [Poem(poem) for poem in poems]
    pool = [line for poem in parsed for line in poem.lines]
    random.Random(seed).shuffle(pool)
    lines = iter(pool)
    return [
        "\n\n".join("\n".join(next(lines) for _ in stanza) for stanza in poem.stanzas)
        for poem in parsed
    ]


def pass_rate(poems: list[str], form: str) -> float:
    return sum(evaluate_poem(poem, form).passed for poem in poems) / len(poems)


def test_shipped_forms_are_described():
    assert form_names() == ["haiku", "limerick", "quatrain", "sonnet"]
    for name in form_names():
        assert form_description(name) and form_expectations(name)
    assert form_expectations("sonnet")["line_count"] == {"equals": 14}


def test_seed_limericks_pass_and_shuffled_ones_fail():
    limericks = seed_poems("limericks.txt")
    assert len(limericks) == 45
    real = pass_rate(limericks, "limerick")
    shuffled = pass_rate(shuffled_across_poems(limericks, 0), "limerick")
    print(f"limericks: real {real:.3f}, shuffled {shuffled:.3f}")
    assert real >= LIMERICK_FLOOR and shuffled <= SHUFFLED_LIMERICK_CEILING


def test_quatrain_and_haiku_forms():
    assert evaluate_poem(
        "the night is long\nthe sea is deep\nI sing my song\nand then I sleep", "quatrain"
    ).passed
    assert not evaluate_poem(
        "the night is long\nthe sea is deep\nI sing\nand wake", "quatrain"
    ).passed
    haiku = "an old silent pond\na frog jumps into the pond\nsplash! silence again"
    result = evaluate_poem(haiku, "haiku")
    assert result.passed and result.checks["syllables_per_line"].value == [5, 7, 5]
    assert not evaluate_poem("an old pond\na frog jumps in\nsplash", "haiku").passed


def test_custom_expectations_and_options():
    limerick = seed_poems("limericks.txt")[0]
    result = evaluate_poem(
        limerick, {"line_count": 5, "rhyme_scheme": {"AABBA", "ABABA"}}, rhyme_window=None
    )
    assert result.form is None and result.passed
    with pytest.raises(ValueError, match="collection analyzer"):
        evaluate_poem(limerick, {"inter_novelty": {"keys": {}}})


def _public_domain_sonnets(shared_data) -> list[str]:
    path = (
        shared_data / "sonnet_or_not_public_domain_poems/poetry-evaluation_public-domain-poems.csv"
    )
    csv.field_size_limit(10**8)
    with open(path, encoding="utf-8", newline="") as stream:
        return [row["poem_text"] for row in csv.DictReader(stream) if row["form"] == "sonnet"]


@pytest.mark.needs_shared_data
def test_public_domain_sonnets_pass_and_shuffled_ones_fail(shared_data):
    sonnets = _public_domain_sonnets(shared_data)
    fourteen = [s for s in sonnets if len(Poem(s).lines) == 14]
    real, real_14 = pass_rate(sonnets, "sonnet"), pass_rate(fourteen, "sonnet")
    shuffled = pass_rate(shuffled_across_poems(fourteen, 0), "sonnet")
    print(f"sonnets: all {real:.3f}, 14 lines {real_14:.3f}, shuffled {shuffled:.3f}")
    assert len(sonnets) == 585
    assert real >= SONNET_FLOOR and real_14 >= SONNET_14_FLOOR
    assert shuffled <= SHUFFLED_SONNET_CEILING
