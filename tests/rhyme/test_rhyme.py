"""Rhyme core: pronunciations, perfect rhyme, rhyme schemes, and accuracy on gold stanzas."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from itertools import combinations, product
from pathlib import Path

import pronouncing
import pytest

from poetic_eval.rhyme import (
    QUATRAIN_SCHEMES,
    end_words,
    is_repetition,
    rhyme_part,
    rhyme_scheme,
    rhymes,
    same_word,
    scheme_letter,
    scheme_of_words,
)
from poetic_eval.rhyme.pronunciation import (
    estimate_syllables,
    in_dictionary,
    pronunciations,
    stress_pattern,
    syllable_count,
)
from poetic_eval.text import final_word

# Measured on the 57 gold 4-line stanzas of EPG64 (see metrics/rhyme_kl/README.md): 48/57
# (84.2 %) with the defaults, 50/57 (87.7 %) with weak rhymes. The floors allow one stanza less.
QUATRAIN_ACCURACY_FLOOR = 47 / 57
QUATRAIN_ACCURACY_FLOOR_WEAK = 49 / 57
# The target, 90 % exact scheme on 4-line stanzas, for the annotator-style options:
# weak + near rhymes score 53/57 (93.0 %) on the adjudicated gold (GOLD_CORRECTIONS), and weak +
# near + historical rhymes 52/57 (91.2 %) on the gold as published.
TARGET_ACCURACY = 0.90
# Pairwise rhyme links over all 162 stanzas whose rhyme attribute matches their line count:
# precision 0.960, recall 0.868 with the defaults; 0.924 / 0.948 with weak + near rhymes.
PAIR_PRECISION_FLOOR = 0.95
PAIR_RECALL_FLOOR = 0.85
PAIR_F1_FLOOR_WEAK_NEAR = 0.93
# Held out (never used to design the rules): quatrains 1-3 of Shakespeare's 14-line sonnets are
# ABAB by the form. Measured 273/444 (61.5 %) default, 361/444 (81.3 %) weak + near, 371/444
# (83.6 %) weak + near + historical: Early Modern pronunciation, not the classifier's bugs,
# keeps these low ("love" / "prove", "memory" / "die" are rhymes there).
SONNET_FLOOR = 0.60
SONNET_FLOOR_WEAK_NEAR = 0.78
SONNET_FLOOR_HISTORICAL = 0.80
# Chance of calling two line-final words from different poems a rhyme (20,000 seeded pairs):
# 0.88 % default, 1.64 % weak + near, 1.73 % weak + near + historical.
RANDOM_PAIR_RHYME_CEILING = 0.02
# Leave-one-out rhyme part of the analogy fallback on 1000 common CMUdict words (seed 0).
ANALOGY_FLOOR = 0.60
# Spelling-only syllable estimate on 2000 common CMUdict words (seed 0): 1876/2000 = 93.8 %.
SYLLABLE_ESTIMATE_FLOOR = 0.92

# Rhyme groups: any two words of a group rhyme; words of different groups do not.
RHYME_GROUPS = [
    ["cat", "hat", "mat", "that", "flat", "sat"],
    ["day", "way", "play", "grey", "stay", "away"],
    ["night", "light", "sight", "bright", "white", "delight"],
    ["tree", "sea", "free", "me", "three", "agree"],
    ["stone", "alone", "bone", "grown", "known", "shown"],
    ["heart", "part", "art", "start", "apart", "chart"],
    ["sing", "ring", "king", "spring", "thing", "wing"],
    ["fire", "desire", "higher", "choir", "liar", "entire"],
]
FILLERS = ["the old", "and so the", "beneath a", "I saw the", "we kept the"]


def restricted_growth(partition: tuple[int, ...]) -> str:
    """Letters by first occurrence of a sequence of group ids."""
    letters: dict[int, str] = {}
    return "".join(letters.setdefault(g, chr(65 + len(letters))) for g in partition)


# --- pronunciations -------------------------------------------------------------------------


def test_cmudict_words_use_cmudict():
    assert pronunciations("Love") == tuple(pronouncing.phones_for_word("love"))
    assert in_dictionary("night") and not in_dictionary("glimmerine")


@pytest.mark.parametrize(
    "word, rhymes_with",
    [
        ("lov'd", "shoved"),  # elided past tense
        ("o\u2019er", "more"),  # poetic elision, curly apostrophe
        ("heav'n", "seven"),
        ("pow'r", "hour"),
        ("sea-green", "seen"),  # hyphenated: last part
        ("singeth", "bringeth"),  # archaic -eth on a known stem
        ("Lenore's", "doors"),  # possessive of an out-of-dictionary name
        ("glimmerine", "tangerine"),  # coinage: pronunciation by analogy
        ("thro'", "true"),
    ],
)
def test_fallback_pronunciations_rhyme(word, rhymes_with):
    assert not in_dictionary(word)
    assert pronunciations(word), word
    assert rhymes(word, rhymes_with)


def test_no_pronunciation_for_non_words():
    assert pronunciations("") == ()
    assert pronunciations("--") == ()
    assert rhyme_part("1999") is None


def test_syllables_and_stress():
    assert syllable_count("liberty") == 3
    assert stress_pattern("liberty") == "102"
    assert syllable_count("lov'd") == 1 and stress_pattern("lov'd") == "1"
    assert syllable_count("glimmerine") == 3  # not in CMUdict: estimated from spelling
    assert stress_pattern("glimmerine") is None
    assert syllable_count("1999") == 0 and syllable_count("") == 0


@pytest.mark.parametrize(
    "word, expected",
    [("candle", 2), ("hope", 1), ("hoped", 1), ("wanted", 2), ("quiet", 2), ("nation", 2),
     ("lovely", 2), ("fibre", 2), ("going", 2), ("crwth", 1), ("", 0)],
)  # fmt: skip
def test_estimate_syllables_examples(word, expected):
    assert estimate_syllables(word) == expected


def test_estimate_syllables_against_cmudict():
    """Spelling-only estimate vs CMUdict on 2000 common words it was not tuned on (seeded)."""
    from wordfreq import zipf_frequency

    from poetic_eval.rhyme.pronunciation import _cmudict

    cmu = _cmudict()
    candidates = sorted(w for w in cmu if w.isalpha())
    random.Random(0).shuffle(candidates)
    sample = [w for w in candidates[20_000:40_000] if zipf_frequency(w, "en") >= 3][:2000]
    right = sum(
        estimate_syllables(w) in {sum(ph[-1].isdigit() for ph in p.split()) for p in cmu[w]}
        for w in sample
    )
    print(f"syllable estimate: {right}/{len(sample)} agree with a CMUdict pronunciation")
    assert len(sample) == 2000 and right / len(sample) >= SYLLABLE_ESTIMATE_FLOOR


# --- pairwise rhyme ---------------------------------------------------------------------------


def test_rhyme_part_from_last_stressed_vowel():
    assert rhyme_part("night") == ("AY", "T")
    assert rhyme_part("mortality") == ("AE", "L", "AH", "T", "IY")
    assert rhyme_part("liberty") == ("IY",)  # CMUdict: secondary stress on the last vowel


def test_rhymes_basic():
    assert rhymes("night", "light") and rhymes("NIGHT", "light")
    assert rhymes("free", "liberty")
    assert not rhymes("cat", "dog")
    assert not rhymes("day", "Day"), "identical words are repetitions, not rhymes"
    assert not rhymes("", "day") and not rhymes("day", "")


def test_same_word_ignores_case_and_apostrophe_style():
    assert same_word("Lov\u2019d", "lov'd") and same_word("'tis", "tis") and same_word("Day", "day")
    assert not same_word("day", "days")
    assert not rhymes("lov\u2019d", "Lov'd")


def test_any_pronunciation_pair_rhymes():
    assert rhymes("wind", "kind") and rhymes("wind", "sinned")
    assert not rhymes("kind", "sinned")


def test_r_coloured_vowels_and_reduced_forms():
    assert rhymes("hear", "fear")  # CMUdict: HH IY1 R vs F IH1 R
    assert rhymes("lyre", "higher") and rhymes("hour", "power")
    assert not rhymes("are", "her"), "the reduced form ER0 of 'are' must not rhyme"
    assert not rhymes("for", "were")


def test_weak_rhymes_only_on_request():
    assert not rhymes("be", "piety")
    assert rhymes("be", "piety", weak=True)
    assert rhymes("comedy", "tragedy", weak=True)
    assert not rhymes("fire", "her", weak=True)
    assert not rhymes("cat", "dog", weak=True)


def test_rhyme_groups_are_consistent():
    for g, group in enumerate(RHYME_GROUPS):
        for h, other in enumerate(RHYME_GROUPS):
            for a, b in product(group, other):
                assert rhymes(a, b) == (g == h and a != b), (a, b)


# --- schemes ------------------------------------------------------------------------------------


def test_quatrain_schemes_are_the_15_partitions():
    partitions = {restricted_growth(p) for p in product(range(4), repeat=4)}
    assert len(QUATRAIN_SCHEMES) == 15
    assert set(QUATRAIN_SCHEMES) == partitions
    assert list(QUATRAIN_SCHEMES) == sorted(QUATRAIN_SCHEMES)


def test_limerick_scheme():
    limerick = (
        "A baker who lived by the quay\n"
        "Baked bread that was harder than key;\n"
        "When a gull took a crust\n"
        "It went down with a thrust,\n"
        "And it sank like a stone in the sea."
    )
    assert rhyme_scheme(limerick) == "AABBA"


def test_lines_without_rhyme():
    assert rhyme_scheme("the cat\nthe dog\nthe house\nthe river") == "ABCD"
    assert rhyme_scheme("only one line") == "A"
    assert rhyme_scheme("") == ""
    assert rhyme_scheme("a line ending in dashes --\nand a number 42") == "AB"


def test_scheme_is_transitive_closure():
    # kind~wind and wind~sinned, but kind !~ sinned: union-find puts all three together.
    assert rhyme_scheme("be kind\nthe wind\nhad sinned\nno rhyme here") == "AAAB"


def test_scheme_letters_beyond_26_groups():
    assert [scheme_letter(i) for i in (0, 25, 26, 51, 52)] == ["A", "Z", "a", "z", "\u00c0"]
    words = ["cat", "dog", "house", "river", "apple", "window"]
    assert scheme_of_words(words) == "ABCDEF"
    assert len(rhyme_scheme("\n".join(f"line {i}" for i in range(60)))) == 60


def test_repetitions():
    assert rhyme_scheme("the sky\na cat\nthe sky\na dog") == "ABAC"
    assert rhyme_scheme("the sky\na cat\nthe sky\na dog", link_repetitions=False) == "ABCD"
    assert is_repetition("the sky\na cat\nthe sky\na dog")
    assert not is_repetition("the sky.\na cat\nthe Sky\na dog"), "case-sensitive, as in the paper"
    assert not is_repetition("the night\nthe light\nthe day\nthe way")
    assert not is_repetition("the cat\nthe dog\nthe house\nthe river")
    # punctuation set apart, as in digitised editions: the words decide, not the "!" tokens
    assert (
        rhyme_scheme(
            "I saw the light .\nand then the night -\na bird in flight ...\nwas gone from sight !"
        )
        == "AAAA"
    )
    assert not is_repetition(
        "I saw the light .\nand then the night -\na bird in flight ...\nwas gone from sight !"
    )
    assert is_repetition(
        "I saw the light .\nand then the night -\nI saw the light ...\nwas gone from sight !"
    )


def test_end_words_keep_inner_apostrophes_and_hyphens():
    poem = (
        "Bright star, would I were stedfast as thou art\u2014\n"
        "he lov\u2019d.\nthe marriage-hearse!\n"
    )
    assert end_words(poem) == ["art", "lov\u2019d", "marriage-hearse"]
    assert final_word("so it ends -- here...") == "here"
    assert final_word("...") == ""


def test_schemes_of_generated_quatrains():
    rng = random.Random(0)
    for _ in range(300):
        length = rng.choice([2, 3, 4, 5, 6, 8])
        groups = [rng.randrange(len(RHYME_GROUPS)) for _ in range(length)]
        pools = {g: rng.sample(RHYME_GROUPS[g], len(RHYME_GROUPS[g])) for g in set(groups)}
        words = [pools[g].pop() for g in groups]
        poem = "\n".join(
            f"{rng.choice(FILLERS)} {w}{rng.choice(['', ',', '.', '!'])}" for w in words
        )
        assert rhyme_scheme(poem) == restricted_growth(tuple(groups)), poem


def test_rhyme_scheme_rejects_non_strings():
    with pytest.raises(TypeError, match="poem must be a string"):
        rhyme_scheme(["a", "b"])


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
    correct, total = exact_accuracy(epg64)
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
        assert rhyme_scheme("\n".join(verses)) == gold  # perfect rhymes, no option needed


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
    precision, recall = pair_precision_recall(epg64)
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
        ({}, SONNET_FLOOR),
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
        {},
        {"weak": True, "near": True},
        {"weak": True, "near": True, "historical": True},
    ):
        rate = sum(rhymes(a, b, **options) for a, b in pairs) / len(pairs)
        print(f"random line-final pairs rhyming, {options or 'default'}: {rate:.4f}")
        assert rate <= RANDOM_PAIR_RHYME_CEILING


def test_analogy_leave_one_out_on_common_words():
    """How often the analogy fallback finds the rhyme part of a word it has never seen."""
    from wordfreq import zipf_frequency

    from poetic_eval.rhyme import rhyme_part_of_phones
    from poetic_eval.rhyme.pronunciation import _cmudict, pronounce_by_analogy

    cmu = _cmudict()
    candidates = sorted(w for w in cmu if w.isalpha() and len(w) > 3)
    random.Random(0).shuffle(candidates)
    sample = [w for w in candidates[:20_000] if zipf_frequency(w, "en") >= 3][:1000]
    assert len(sample) == 1000
    answered = correct = 0
    for word in sample:
        predicted = pronounce_by_analogy(word, exclude_self=True)
        if predicted:
            answered += 1
            gold = {rhyme_part_of_phones(p) for p in cmu[word]}
            correct += rhyme_part_of_phones(predicted[0]) in gold
    print(f"analogy leave-one-out: answered {answered}/1000, right rhyme part {correct}/{answered}")
    assert answered >= 900
    assert correct / answered >= ANALOGY_FLOOR


# --- wider rhymes (weak / near / historical) ------------------------------------------------------


@pytest.mark.parametrize(
    "a, b", [("housemaids", "gates"), ("praise", "grace"), ("despised", "sufficed")]
)
def test_near_accepts_voicing_neutral_rhymes(a, b):
    assert not rhymes(a, b) and rhymes(a, b, near=True)


@pytest.mark.parametrize(
    "a, b", [("worm", "storm"), ("love", "prove"), ("lord", "word"), ("were", "here")]
)
def test_near_accepts_eye_rhymes(a, b):
    assert not rhymes(a, b) and rhymes(a, b, near=True)


@pytest.mark.parametrize(
    "a, b",
    [
        ("moving", "singing"),  # same letters, but the endings are unstressed
        ("cow", "low"),  # eye ending shorter than 3 letters
        ("gates", "goats"),  # voicing-neutral needs the same vowel
        ("eye", "symmetry"),  # historical, not near
        ("sky", "sky"),  # repetition, never a rhyme
    ],
)
def test_near_rejects(a, b):
    assert not rhymes(a, b, near=True)


def test_historical_y_rhyme():
    assert rhymes("eye", "symmetry", historical=True) and rhymes("memory", "die", historical=True)
    assert not rhymes("eye", "symmetry") and not rhymes("eye", "symmetry", weak=True, near=True)
    assert not rhymes("memory", "sea", historical=True)  # that one is weak, not historical
    assert rhymes("memory", "sea", weak=True) and rhymes("misery", "free", weak=True)  # -ery, -ory
    assert not rhymes("fire", "her", weak=True)  # "fire" is one syllable: no weak "-er" ending
    assert (
        rhyme_scheme("burning bright\nof the night\nhand or eye\nfearful symmetry", historical=True)
        == "AABB"
    )


def test_wider_rhymes_only_add_links():
    """Every option keeps the perfect-rhyme links: a scheme can only merge groups."""
    rng = random.Random(3)
    words = [w for group in RHYME_GROUPS for w in group] + [
        "worm",
        "storm",
        "gates",
        "housemaids",
        "symmetry",
    ]
    for _ in range(300):
        chosen = rng.sample(words, 4)
        plain = scheme_of_words(chosen)
        for options in ({"weak": True}, {"near": True}, {"historical": True}):
            wider = scheme_of_words(chosen, **options)
            for i, j in combinations(range(4), 2):
                assert plain[i] != plain[j] or wider[i] == wider[j], (chosen, options)


def test_inflected_forms_pick_the_right_stem_when_two_exist():
    """Leave-one-out over CMUdict's "-ed"/"-es" words whose bare and silent-"e" stems are both
    entries ("hoped": "hop" and "hope"): the rhyme part predicted from the stem must match."""
    from poetic_eval.rhyme import rhyme_part_of_phones
    from poetic_eval.rhyme.pronunciation import (
        _cmudict,
        _stem_pronunciations,
        _with_past_suffix,
        _with_sibilant_suffix,
    )

    cmu = _cmudict()
    right = total = 0
    for word, phones in cmu.items():
        for ending, add in (("ed", _with_past_suffix), ("es", _with_sibilant_suffix)):
            base = word[: -len(ending)]
            if (
                word.isalpha()
                and word.endswith(ending)
                and len(word) > 4
                and base in cmu
                and base + "e" in cmu
            ):
                predicted = {rhyme_part_of_phones(add(p)) for p in _stem_pronunciations(base)}
                right += bool(predicted & {rhyme_part_of_phones(p) for p in phones})
                total += 1
    print(f"ambiguous inflected forms: {right}/{total}")
    assert total > 800 and right / total >= 0.78
    assert pronunciations("gazeth") == ("G EY1 Z AH0 TH",)
