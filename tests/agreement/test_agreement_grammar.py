"""The agreement grammar: every family generated with its count and labels, one token apart,
agreeing determiners and nouns, against word sets read straight from the lexicon JSON; the
label conventions and the one-token check."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from agreement_cases import N_PAIRS, NOUN_VARIES

from poetic_eval.agreement import (
    BLIMP_FAMILIES,
    FAMILIES,
    LABEL_NAMES,
    AgreementPair,
    family_capacity,
    generate_pairs,
    load_lexicon,
)
from poetic_eval.agreement.agreement_pairs import (
    label_from_tse,
    pair_tokens,
    single_token_difference,
    tse_label,
)
from poetic_eval.agreement.grammar import generate_all_pairs
from poetic_eval.agreement.grammatical_number import noun_pair_number, verb_pair_number
from poetic_eval.resources import seed_path

# --- independent word sets, read straight from the lexicon JSON ------------------------------


@pytest.fixture(scope="module")
def raw_lexicon() -> dict:
    return json.loads(seed_path("agreement_lexicon.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def verb_forms(raw_lexicon) -> dict[str, set[str]]:
    """Singular and plural present forms of every agreeing word the lexicon has."""
    singular, plural = {"is"}, {"are"}
    for key in (
        "intransitive_verbs",
        "person_transitive_verbs",
        "work_transitive_verbs",
        "thing_intransitive_verbs",
        "thing_transitive_verbs",
        "long_verb_phrases",
        "auxiliaries",
    ):
        for entry in raw_lexicon[key]:
            singular.add(entry[0])
            plural.add(entry[1])
    assert not singular & plural
    return {"singular": singular, "plural": plural}


@pytest.fixture(scope="module")
def noun_forms(raw_lexicon) -> dict[str, set[str]]:
    singular, plural = set(), set()
    for key in (
        "person_nouns",
        "irregular_person_nouns",
        "irregular_animal_nouns",
        "work_nouns",
        "irregular_thing_nouns",
        "relative_nouns",
        "depiction_nouns",
    ):
        for entry in raw_lexicon[key]:
            singular.add(entry[0])
            plural.add(entry[1])
    assert not singular & plural
    return {"singular": singular, "plural": plural}


# --- the grammar ------------------------------------------------------------------------------


def test_every_family_is_generated_with_the_requested_count_and_balanced_labels(generated):
    assert list(generated) == list(FAMILIES)
    for family, pairs in generated.items():
        assert len(pairs) == N_PAIRS, family
        assert Counter(pair.label for pair in pairs) == {
            "singular": N_PAIRS // 2,
            "plural": N_PAIRS // 2,
        }
        assert {pair.family for pair in pairs} == {family}
        assert len({(pair.sentence_good, pair.sentence_bad) for pair in pairs}) == N_PAIRS, family


def test_every_pair_differs_in_exactly_one_token(generated):
    for pairs in generated.values():
        for pair in pairs:
            good, bad = (
                pair.sentence_good.rstrip(".").split(),
                pair.sentence_bad.rstrip(".").split(),
            )
            assert len(good) == len(bad), pair
            assert sum(a != b for a, b in zip(good, bad)) == 1, pair
            assert pair.sentence_good.endswith(".") and pair.sentence_good[0].isupper()


def test_label_is_the_number_of_the_good_verb(generated, verb_forms, noun_forms):
    for family, pairs in generated.items():
        for pair in pairs:
            position, good_word, bad_word = single_token_difference(
                pair.sentence_good, pair.sentence_bad
            )
            other = "plural" if pair.label == "singular" else "singular"
            assert pair.case.split("_")[0] == pair.label[:4], pair
            if family in NOUN_VARIES:
                good_word, bad_word = good_word.lower(), bad_word.lower()
                assert good_word in noun_forms[pair.label] and bad_word in noun_forms[other], pair
                verb = pair_tokens(pair.sentence_good)[position + 1]
                assert verb in verb_forms[pair.label], pair
            else:
                assert good_word in verb_forms[pair.label], pair
                assert bad_word in verb_forms[other], pair


def test_determiners_articles_and_nouns_agree(generated, raw_lexicon, noun_forms):
    singular_determiners = set(raw_lexicon["determiners"]["singular"]) - {"the"} | {"an"}
    plural_determiners = set(raw_lexicon["determiners"]["plural"]) - {"the"}
    for family in BLIMP_FAMILIES:
        for pair in generated[family]:
            tokens = [token.lower() for token in pair_tokens(pair.sentence_good)]
            for determiner, word in itertools.pairwise(tokens):
                # "that" is also a complementizer; check it only before a noun
                if word not in noun_forms["singular"] | noun_forms["plural"]:
                    continue
                if determiner in ("a", "an"):
                    assert (determiner == "an") == (word[0] in "aeiou"), pair
                if determiner in singular_determiners:
                    assert word in noun_forms["singular"], pair
                if determiner in plural_determiners:
                    assert word in noun_forms["plural"], pair


def test_stative_verbs_are_never_progressive(generated, raw_lexicon):
    stative = set(raw_lexicon["stative_verbs"])
    ing_forms = {
        entry[2]
        for key in ("person_transitive_verbs", "work_transitive_verbs", "intransitive_verbs")
        for entry in raw_lexicon[key]
        if entry[1] in stative
    }
    assert ing_forms
    for pairs in generated.values():
        for pair in pairs:
            assert not ing_forms & set(pair_tokens(pair.sentence_good)), pair


def test_lexicon_has_no_words_whose_article_the_vowel_rule_gets_wrong(noun_forms):
    # "a university", "an hour": the grammar picks a/an by the first letter only
    for noun in noun_forms["singular"]:
        assert not noun.startswith(("uni", "use", "eu", "one", "hour", "hon", "heir")), noun


def test_generation_is_deterministic_and_seeded(generated):
    again = generate_pairs("prep_anim", n_pairs=N_PAIRS, seed=0)
    assert again == generated["prep_anim"]  # independent of which other families were built
    other_seed = generate_pairs("prep_anim", n_pairs=N_PAIRS, seed=1)
    assert other_seed != again


def test_generation_is_capped_by_the_grammar():
    capacity = family_capacity("simple_agrmt")
    pairs = generate_pairs("simple_agrmt", n_pairs=capacity * 10, seed=3)
    assert len(pairs) == capacity
    assert len({pair.sentence_good for pair in pairs}) == capacity


def test_generation_is_fast():
    import time

    lexicon = load_lexicon()
    generate_pairs("subj_rel", n_pairs=10, lexicon=lexicon)  # builds the verb-phrase lists once
    start = time.perf_counter()
    pairs = generate_all_pairs(n_pairs=1000, seed=7, lexicon=lexicon)
    elapsed = time.perf_counter() - start
    assert sum(len(rows) for rows in pairs.values()) == 1000 * len(FAMILIES)
    assert elapsed < 5, f"{elapsed:.2f} s for {1000 * len(FAMILIES)} pairs"


def test_bad_arguments_raise_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown agreement family 'nope'; choices: simple_agrmt"):
        generate_pairs("nope")
    with pytest.raises(ValueError, match="n_pairs must be >= 1"):
        generate_pairs("simple_agrmt", n_pairs=0)
    with pytest.raises(TypeError, match="seed must be an integer"):
        generate_pairs("simple_agrmt", seed="0")
    broken = tmp_path / "lexicon.json"
    broken.write_text(json.dumps({"person_nouns": [["poet", "poets"]]}))
    with pytest.raises(ValueError, match="lexicon.json: missing key 'determiners'"):
        load_lexicon(broken)
    broken.write_text('{"person_nouns": [["poet"]]')
    with pytest.raises(ValueError, match="not valid JSON"):
        load_lexicon(broken)


# --- labels and the one-token check -----------------------------------------------------------


def test_label_conventions():
    assert LABEL_NAMES == ("singular", "plural")
    assert [tse_label(name) for name in LABEL_NAMES] == [-1, -2]
    assert [label_from_tse(value) for value in (-1, -2)] == ["singular", "plural"]
    assert [-1 - LABEL_NAMES.index(label_from_tse(v)) for v in (-1, -2)] == [-1, -2]
    with pytest.raises(ValueError, match="-1 .singular. or -2 .plural."):
        label_from_tse(1)
    with pytest.raises(ValueError, match="unknown label"):
        AgreementPair("a b", "a c", "dual", "f", "")


def test_single_token_difference():
    assert single_token_difference("The poets sleep.", "The poets sleeps.") == (
        2,
        "sleep",
        "sleeps",
    )
    with pytest.raises(ValueError, match="differ in 0 tokens"):
        single_token_difference("The poets sleep.", "The poets sleep")
    with pytest.raises(ValueError, match="differ in 2 tokens"):
        single_token_difference("The poet sleeps.", "The poets sleep.")
    with pytest.raises(ValueError, match="3 and 4 tokens"):
        single_token_difference("The poets sleep.", "The poets do sleep.")


def test_number_of_verb_and_noun_pairs():
    cases = [("likes", "like"), ("isn't", "weren't"), ("discusses", "discuss"), ("cries", "cry")]
    assert [verb_pair_number(a, b) for a, b in cases] == ["singular"] * 4
    assert verb_pair_number("have", "has") == "plural"
    assert verb_pair_number("discuss", "discusses") == "plural"
    nouns = [
        ("cacti", "cactus"),
        ("women", "woman"),
        ("analyses", "analysis"),
        ("people", "person"),
        ("leaves", "leaf"),
        ("diaries", "diary"),
        ("oxen", "ox"),
    ]
    assert [noun_pair_number(a, b) for a, b in nouns] == ["plural"] * len(nouns)
    assert noun_pair_number("couch", "couchs") == "singular"
    with pytest.raises(ValueError, match="'sing' / 'singing'"):
        verb_pair_number("sing", "singing")
    with pytest.raises(ValueError, match="neither is a plural"):
        noun_pair_number("cat", "dog")


@pytest.mark.parametrize("n_pairs", [1, 2, 3, 5, 7])
def test_small_requests_never_exceed_the_count(n_pairs):
    """A family with more cases than requested pairs leaves some cases at zero, not unlimited."""
    from poetic_eval.agreement import FAMILIES, generate_pairs

    for family in FAMILIES:
        pairs = generate_pairs(family, n_pairs=n_pairs, seed=0)
        assert 0 < len(pairs) <= n_pairs, family
