"""Perfect rhyme between words (method="perfect" and its weak / near / historical options) and
rhyme schemes of poems. The learned default method is tested in test_rhyme_learned.py."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest
from scheme_reference import restricted_growth

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
from poetic_eval.text import final_word

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
    assert not rhymes("are", "her", method="perfect"), "the reduced ER0 of 'are' must not rhyme"
    assert not rhymes("for", "were", method="perfect")


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
        assert rhyme_scheme(poem, method="perfect") == restricted_growth(tuple(groups)), poem


def test_rhyme_scheme_rejects_non_strings():
    with pytest.raises(TypeError, match="poem must be a string"):
        rhyme_scheme(["a", "b"])


# --- wider rhymes (weak / near / historical) ------------------------------------------------------


@pytest.mark.parametrize(
    "a, b", [("housemaids", "gates"), ("praise", "grace"), ("despised", "sufficed")]
)
def test_near_accepts_voicing_neutral_rhymes(a, b):
    assert not rhymes(a, b, method="perfect") and rhymes(a, b, near=True)


@pytest.mark.parametrize(
    "a, b", [("worm", "storm"), ("love", "prove"), ("lord", "word"), ("were", "here")]
)
def test_near_accepts_eye_rhymes(a, b):
    assert not rhymes(a, b, method="perfect") and rhymes(a, b, near=True)


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
    assert not rhymes("eye", "symmetry", method="perfect")
    assert not rhymes("eye", "symmetry", weak=True, near=True)
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
        plain = scheme_of_words(chosen, method="perfect")
        for options in ({"weak": True}, {"near": True}, {"historical": True}):
            wider = scheme_of_words(chosen, **options)
            for i, j in combinations(range(4), 2):
                assert plain[i] != plain[j] or wider[i] == wider[j], (chosen, options)
