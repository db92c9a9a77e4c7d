"""Accuracy of perfect rhyme and its options on real poems: gold stanzas (EPG64), held-out
sonnet quatrains and random line pairs of the public-domain poems (skipped without the shared
corpora)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from scheme_reference import restricted_growth

from poetic_eval.rhyme import rhyme_scheme, rhymes
from poetic_eval.text import final_word

# Measured on the 57 gold 4-line stanzas of EPG64 (see metrics/rhyme_kl/README.md): 48/57
# (84.2 %) with method="perfect", 50/57 (87.7 %) with weak rhymes. The floors allow one stanza less.
QUATRAIN_ACCURACY_FLOOR = 47 / 57
QUATRAIN_ACCURACY_FLOOR_WEAK = 49 / 57
# The target, 90 % exact scheme on 4-line stanzas, for the annotator-style options:
# weak + near rhymes score 53/57 (93.0 %) on the adjudicated gold (GOLD_CORRECTIONS), and weak +
# near + historical rhymes 52/57 (91.2 %) on the gold as published.
TARGET_ACCURACY = 0.90
# Pairwise rhyme links over all 162 stanzas whose rhyme attribute matches their line count:
# precision 0.960, recall 0.868 with method="perfect"; 0.924 / 0.948 with weak + near rhymes.
PAIR_PRECISION_FLOOR = 0.95
PAIR_RECALL_FLOOR = 0.85
PAIR_F1_FLOOR_WEAK_NEAR = 0.93
# Held out (never used to design the rules): quatrains 1-3 of Shakespeare's 14-line sonnets are
# ABAB by the form. Measured 273/444 (61.5 %) perfect, 361/444 (81.3 %) weak + near, 371/444
# (83.6 %) weak + near + historical: Early Modern pronunciation, not the classifier's bugs,
# keeps these low ("love" / "prove", "memory" / "die" are rhymes there).
SONNET_FLOOR = 0.60
SONNET_FLOOR_WEAK_NEAR = 0.78
SONNET_FLOOR_HISTORICAL = 0.80
# Chance of calling two line-final words from different poems a rhyme (20,000 seeded pairs):
# 0.88 % perfect, 1.64 % weak + near, 1.73 % weak + near + historical.
RANDOM_PAIR_RHYME_CEILING = 0.02


# --- accuracy on gold stanzas (EPG64) -------------------------------------------------------------

_TEI = "{http://www.tei-c.org/ns/1.0}"
# The TEI text splits clitics off ("blunder 'd"); rejoin them before taking final words.
_SPLIT_CLITIC = re.compile(r"\s+(['\u2019](?:d|s|st|ll|n|t)\b)")


def gold_stanzas(folder: Path) -> list[tuple[str, list[str]]]:
    """(gold scheme, lines) of every stanza whose rhyme attribute has one letter per line."""
    found = []
    for path in sorted(folder.glob("*.xml")):
        for group in ET.parse(path).getroot().iter(f"{_TEI}lg"):
            gold = group.get("rhyme")
            verses = [
                _SPLIT_CLITIC.sub(r"\1", "".join(verse.itertext()).strip())
                for verse in group.findall(f"{_TEI}l")
            ]
            if gold and len(gold) == len(verses):
                found.append((restricted_growth(tuple(gold)), verses))
    return found


@pytest.fixture(scope="module")
def epg64(shared_data) -> list[tuple[str, list[str]]]:
    return gold_stanzas(shared_data / "epg64_english_poetry")


# Stanzas whose gold omits a perfect rhyme, keyed by their line-final words. Both are from
# Dickinson's "I felt a Funeral, in my Brain", whose other stanzas are annotated ABCB (common
# measure), and both pairs rhyme in CMUdict ("drum" D R AH1 M / "numb" N AH1 M, "soul" S OW1 L /
# "toll" T OW1 L). The published gold says ABCD for both.
GOLD_CORRECTIONS = {
    ("seated", "drum", "thought", "numb"): "ABCB",
    ("box", "soul", "again", "toll"): "ABCB",
}


def adjudicated(stanzas):
    corrected = []
    for gold, verses in stanzas:
        key = tuple(final_word(verse).lower() for verse in verses)
        corrected.append((GOLD_CORRECTIONS.get(key, gold), verses))
    return corrected


def exact_accuracy(stanzas, **options) -> tuple[int, int]:
    quatrains = [(gold, verses) for gold, verses in stanzas if len(verses) == 4]
    correct = sum(rhyme_scheme("\n".join(v), **options) == gold for gold, v in quatrains)
    return correct, len(quatrains)


def pair_precision_recall(stanzas, **options) -> tuple[float, float]:
    true_pos = false_pos = false_neg = 0
    for gold, verses in stanzas:
        predicted = rhyme_scheme("\n".join(verses), **options)
        for i in range(len(verses)):
            for j in range(i + 1, len(verses)):
                same_gold, same_predicted = gold[i] == gold[j], predicted[i] == predicted[j]
                true_pos += same_gold and same_predicted
                false_pos += same_predicted and not same_gold
                false_neg += same_gold and not same_predicted
    return true_pos / (true_pos + false_pos), true_pos / (true_pos + false_neg)


@pytest.mark.needs_shared_data
def test_quatrain_accuracy_on_gold_stanzas(epg64):
    correct, total = exact_accuracy(epg64, method="perfect")
    print(f"EPG64 4-line stanzas: {correct}/{total} = {correct / total:.3f} exact scheme")
    assert total == 57
    assert correct / total >= QUATRAIN_ACCURACY_FLOOR


@pytest.mark.needs_shared_data
def test_quatrain_accuracy_with_weak_rhymes(epg64):
    correct, total = exact_accuracy(epg64, weak=True)
    print(f"EPG64 4-line stanzas, weak rhymes: {correct}/{total} = {correct / total:.3f}")
    assert correct / total >= QUATRAIN_ACCURACY_FLOOR_WEAK


@pytest.mark.needs_shared_data
def test_gold_corrections_apply_to_exactly_two_stanzas(epg64):
    changed = [a for a, b in zip(adjudicated(epg64), epg64) if a[0] != b[0]]
    assert len(changed) == len(GOLD_CORRECTIONS) == 2
    for gold, verses in changed:
        assert rhyme_scheme("\n".join(verses), method="perfect") == gold  # no option needed


@pytest.mark.needs_shared_data
def test_target_accuracy_with_annotator_style_rhymes(epg64):
    correct, total = exact_accuracy(adjudicated(epg64), weak=True, near=True)
    print(f"EPG64 adjudicated, weak + near: {correct}/{total} = {correct / total:.3f}")
    assert correct / total >= TARGET_ACCURACY
    correct, total = exact_accuracy(epg64, weak=True, near=True, historical=True)
    print(
        f"EPG64 as published, weak + near + historical: {correct}/{total} = {correct / total:.3f}"
    )
    assert correct / total >= TARGET_ACCURACY


@pytest.mark.needs_shared_data
def test_pairwise_rhyme_precision_recall_on_all_gold_stanzas(epg64):
    precision, recall = pair_precision_recall(epg64, method="perfect")
    print(f"EPG64 {len(epg64)} stanzas, rhyme pairs: precision {precision:.3f} recall {recall:.3f}")
    assert len(epg64) == 162
    assert precision >= PAIR_PRECISION_FLOOR and recall >= PAIR_RECALL_FLOOR
    precision, recall = pair_precision_recall(epg64, weak=True, near=True)
    f1 = 2 * precision * recall / (precision + recall)
    print(f"weak + near: precision {precision:.3f} recall {recall:.3f} F1 {f1:.3f}")
    assert f1 >= PAIR_F1_FLOOR_WEAK_NEAR


@pytest.fixture(scope="module")
def public_domain_poems(shared_data):
    import pandas as pd

    path = (
        shared_data
        / "sonnet_or_not_public_domain_poems"
        / "poetry-evaluation_public-domain-poems.csv"
    )
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return pd.read_csv(path)


def sonnet_quatrains(poems) -> list[list[str]]:
    """Quatrains 1-3 of every 14-line Shakespeare sonnet (the form makes each ABAB)."""
    sonnets = poems[
        poems.author.str.contains("Shakespeare", na=False)
        & poems.poem_title.str.contains(r"\(Sonnet \d+\)", na=False)
    ]
    quatrains = []
    for text in sonnets.poem_text:
        verses = [line for line in text.splitlines() if line.strip()]
        if len(verses) == 14:
            quatrains.extend(verses[start : start + 4] for start in (0, 4, 8))
    return quatrains


@pytest.mark.needs_shared_data
def test_held_out_sonnet_quatrains(public_domain_poems):
    quatrains = sonnet_quatrains(public_domain_poems)
    assert len(quatrains) == 444
    floors = [
        ({"method": "perfect"}, SONNET_FLOOR),
        ({"weak": True, "near": True}, SONNET_FLOOR_WEAK_NEAR),
        ({"weak": True, "near": True, "historical": True}, SONNET_FLOOR_HISTORICAL),
    ]
    for options, floor in floors:
        share = sum(rhyme_scheme("\n".join(q), **options) == "ABAB" for q in quatrains) / len(
            quatrains
        )
        print(f"Shakespeare sonnet quatrains, {options or 'default'}: {share:.3f} ABAB")
        assert share >= floor


@pytest.mark.needs_shared_data
def test_wider_rhymes_stay_rare_between_unrelated_lines(public_domain_poems):
    rng = random.Random(0)
    others = public_domain_poems[~public_domain_poems.author.str.contains("Shakespeare", na=False)]
    ends = [
        [final_word(line) for line in text.splitlines() if line.strip()]
        for text in others.poem_text
    ]
    pairs = []
    while len(pairs) < 20_000:
        a, b = rng.sample(range(len(ends)), 2)
        if ends[a] and ends[b]:
            pairs.append((rng.choice(ends[a]), rng.choice(ends[b])))
    for options in (
        {"method": "perfect"},
        {"weak": True, "near": True},
        {"weak": True, "near": True, "historical": True},
    ):
        rate = sum(rhymes(a, b, **options) for a, b in pairs) / len(pairs)
        print(f"random line-final pairs rhyming, {options or 'default'}: {rate:.4f}")
        assert rate <= RANDOM_PAIR_RHYME_CEILING
