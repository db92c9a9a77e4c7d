"""Poem analyzers: registry, expectations and graded scores, structure, rhyme chains, bad input."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from poetic_eval.analyzers import ANALYZERS, analyze_collection, analyze_poem, evaluate_poem
from poetic_eval.analyzers.analyzer import ASPECTS
from poetic_eval.analyzers.expectations import expectation
from poetic_eval.analyzers.poem import Poem, line_words
from poetic_eval.analyzers.registry import get_analyzer
from poetic_eval.analyzers.rhyme_chains import partition_distance
from poetic_eval.rhyme import rhyme_scheme

LIMERICK = (
    "A baker who lived by the sea\nWould bake only bread for his tea.\n"
    "He would knead all the dough\nIn the dark, soft and slow,\n"
    "And would sing to the loaves on his knee."
)
STANZAS = "one line here\nand another\n\n\n  \nthird line now\n\nfourth\nfifth\nsixth"


# --- registry ---------------------------------------------------------------------------------


def test_registry_is_one_table_of_complete_records():
    assert len(ANALYZERS) >= 13
    for name, analyzer in ANALYZERS.items():
        assert analyzer.name == name
        assert analyzer.kind in ("single", "collection")
        assert analyzer.aspect in ASPECTS
        assert callable(analyzer.analyze) and analyzer.description
    kinds = {a.kind for a in ANALYZERS.values()}
    assert kinds == {"single", "collection"}
    assert {"poetic", "novelty", "lexico-semantic"} <= {a.aspect for a in ANALYZERS.values()}


def test_unknown_names_are_clear_errors():
    with pytest.raises(ValueError, match="unknown analyzer 'meter'.*stanza_count"):
        get_analyzer("meter")
    with pytest.raises(ValueError, match="unknown analyzer option.*rhyme_windw"):
        analyze_poem(LIMERICK, rhyme_windw=3)
    with pytest.raises(ValueError, match="unknown form 'villanelle'.*sonnet"):
        evaluate_poem(LIMERICK, "villanelle")


# --- structure ----------------------------------------------------------------------------------


def test_stanzas_and_lines():
    values = analyze_poem(STANZAS, ["stanza_count", "line_count", "lines_per_stanza"])
    assert values == {"stanza_count": 3, "line_count": 6, "lines_per_stanza": [2, 1, 3]}
    assert Poem(STANZAS).raw_lines[2:5] == ("", "", "")  # blanks kept for the reference option


def test_stanzas_of_generated_poems_match_a_plain_split():
    rng = random.Random(4)
    for _ in range(200):
        blocks = [
            [f"w{rng.randint(0, 9)} x" for _ in range(rng.randint(1, 5))]
            for _ in range(rng.randint(1, 6))
        ]
        separators = [rng.choice(["\n\n", "\n \n", "\n\t\n\n", "\r\n\r\n"]) for _ in blocks]
        text = "".join(sep + "\n".join(block) for sep, block in zip(separators, blocks))
        values = analyze_poem(text, ["stanza_count", "lines_per_stanza"])
        assert values == {"stanza_count": len(blocks), "lines_per_stanza": list(map(len, blocks))}


@pytest.mark.needs_shared_data
def test_erato_readme_poem103(shared_data):
    path = (
        shared_data
        / "erato_eval_poems/dataset_evaluation/dataset/poetrymeenglish/poems10/poem103.txt"
    )
    values = analyze_poem(Poem(path.read_text(encoding="utf-8"), str(path)))
    assert values["stanza_count"] == 4
    assert values["lines_per_stanza"] == [4, 4, 4, 2]
    assert len(values["syllables_per_line"]) == 14
    assert [len(s) for s in values["stress_per_line"]] == values["syllables_per_line"]


def test_line_words_split_on_punctuation_and_keep_apostrophes():
    assert line_words("O'er the real-time sea—1999 times, don't!") == [
        "o'er",
        "the",
        "real",
        "time",
        "sea",
        "times",
        "don't",
    ]


# --- expectations -----------------------------------------------------------------------------


def test_expectation_shorthands_and_json_forms_agree():
    assert expectation(14) == expectation({"equals": 14})
    assert expectation((9, 11)) == expectation({"range": [9, 11]})
    assert expectation({4, 5}).kind == "one_of"
    assert expectation([4, 4, 4, 2]).kind == "equals"  # a list is a value
    for spec in (
        {"each": {"range": [9, 11]}, "tolerance": 0.5},
        {"items": [{"equals": 5}, 7]},
        {"keys": {"rouge1": {"range": [None, 0.2]}}},
    ):
        assert expectation(expectation(spec).to_json()) == expectation(spec)


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"equals": 1, "range": [1, 2]}, "exactly one of"),
        ({"range": [3, 1]}, "above"),
        ({"one_of": []}, "non-empty"),
        ({"equals": 1, "tolerance": -1}, "tolerance"),
        ((1, 2, 3), "a range is"),
    ],
)
def test_bad_expectations(spec, message):
    with pytest.raises(ValueError, match=message):
        expectation(spec)


def test_exact_range_and_set_evaluations():
    poem = Poem(STANZAS)
    stanzas = get_analyzer("stanza_count")
    assert stanzas.evaluate(poem, 3).passed and stanzas.evaluate(poem, 3).score == 0
    assert not stanzas.evaluate(poem, 4).passed and stanzas.evaluate(poem, 4).score == 1
    assert stanzas.evaluate(poem, (1, 3)).passed
    assert stanzas.evaluate(poem, (5, None)).distance == 2
    assert stanzas.evaluate(poem, {1, 3}).passed and not stanzas.evaluate(poem, {1, 2}).passed
    assert stanzas.evaluate(poem, {"equals": 5, "tolerance": 2}).passed
    shape = get_analyzer("lines_per_stanza").evaluate(poem, {"one_of": [[2, 1, 3], [6]]})
    assert shape.passed
    assert get_analyzer("lines_per_stanza").evaluate(poem, [6]).distance == 8  # |2-6|+1+3


def test_syllable_graded_score_is_mean_absolute_error():
    poem = Poem("the cat\nthe cat sat down\na")  # 2, 4, 1 syllables
    analyzer = get_analyzer("syllables_per_line")
    assert analyzer.run(poem) == [2, 4, 1]
    each = analyzer.evaluate(poem, {"each": {"equals": 2}, "tolerance": 1.0})
    assert each.score == pytest.approx(1.0) and each.score_name == "mae" and each.passed
    assert not analyzer.evaluate(poem, {"each": {"equals": 2}}).passed
    within = analyzer.evaluate(poem, {"each": {"range": [1, 3]}})
    assert within.score == pytest.approx(1 / 3)
    items = analyzer.evaluate(poem, {"items": [2, {"range": [4, 6]}, 1]})
    assert items.passed and items.score == 0
    wrong_length = analyzer.evaluate(poem, {"items": [2, 4]})
    assert not wrong_length.passed and wrong_length.score is None
    assert math.isinf(wrong_length.distance)


def test_dict_values_are_evaluated_key_by_key():
    novelty = get_analyzer("intra_novelty")
    poem = Poem("the sea is wide\nthe sea is deep\nno line alike")
    good = novelty.evaluate(poem, {"keys": {"rouge1": {"range": [0, 0.9]}}})
    assert good.passed and good.score == 0
    bad = novelty.evaluate(poem, {"keys": {"rouge1": {"range": [0.9, 1]}}})
    assert not bad.passed and bad.score > 0
    assert not novelty.evaluate(poem, {"keys": {"rouge9": 0.1}}).passed


# --- rhyme ------------------------------------------------------------------------------------


def test_rhyme_scheme_chains_and_richness():
    values = analyze_poem(LIMERICK, ["rhyme_scheme", "rhyme_chains", "rhyme_richness"])
    assert values == {"rhyme_scheme": "AABBA", "rhyme_chains": 2, "rhyme_richness": 1.0}
    quatrain = "the moon is high\nthe sea is wide\nthe birds all fly\nthe fields are dry"
    values = analyze_poem(quatrain, ["rhyme_scheme", "rhyme_chains", "rhyme_richness"])
    assert values == {"rhyme_scheme": "ABAA", "rhyme_chains": 1, "rhyme_richness": 0.75}


def test_rhyme_window_limits_how_far_lines_may_rhyme():
    fillers = ["a stone", "the bread", "my hand", "our cup", "the door", "a shell"]
    poem = "\n".join(["the night", *fillers, "the light"])  # 7 lines apart
    # perfect rhyme links any two rhyming lines; the learned default weighs the distance too
    perfect = {"rhyme_options": {"method": "perfect"}}
    assert analyze_poem(poem, ["rhyme_scheme"], **perfect)["rhyme_scheme"] == "ABCDEFGH"
    windowed = analyze_poem(poem, ["rhyme_scheme"], rhyme_window=7, **perfect)
    assert windowed["rhyme_scheme"] == "ABCDEFGA"
    unlimited = analyze_poem(poem, ["rhyme_scheme"], rhyme_window=None, **perfect)["rhyme_scheme"]
    assert unlimited == rhyme_scheme(poem, method="perfect") == "ABCDEFGA"
    assert analyze_poem(poem, ["rhyme_scheme"])["rhyme_scheme"] == "ABCDEFGH"
    with pytest.raises(ValueError, match="rhyme_window"):
        analyze_poem(poem, ["rhyme_scheme"], rhyme_window=0)


@pytest.mark.parametrize(
    "options", [{}, {"near": True}, {"near": False, "weak": True}, {"link_repetitions": False}]
)
def test_rhyme_options_pass_through_to_the_rhyme_module(options):
    rng = random.Random(7)
    ends = [
        "worm",
        "storm",
        "love",
        "prove",
        "day",
        "way",
        "sea",
        "free",
        "night",
        "gates",
        "housemaids",
        "be",
        "piety",
    ]
    for _ in range(30):
        poem = "\n".join(f"and the {rng.choice(ends)}" for _ in range(rng.randint(2, 6)))
        ours = analyze_poem(poem, ["rhyme_scheme"], rhyme_window=None, rhyme_options=options)
        assert ours["rhyme_scheme"] == rhyme_scheme(poem, **options)
    pair = "the worm\nthe storm"
    assert (
        analyze_poem(pair, ["rhyme_scheme"], rhyme_options={"near": True})["rhyme_scheme"] == "AA"
    )
    perfect = {"method": "perfect", "near": False}
    assert analyze_poem(pair, ["rhyme_scheme"], rhyme_options=perfect)["rhyme_scheme"] == "AB"
    assert analyze_poem(pair, ["rhyme_scheme"])["rhyme_scheme"] == "AA"  # the learned default


def _brute_force_partition_distance(a: str, b: str) -> int:
    letters_a, letters_b = sorted(set(a)), sorted(set(b))
    letters_b += [None] * max(0, len(letters_a) - len(letters_b))
    best = 0
    for image in itertools.permutations(letters_b, len(letters_a)):
        mapping = dict(zip(letters_a, image))
        best = max(best, sum(mapping[x] == y for x, y in zip(a, b)))
    return len(a) - best


def test_partition_distance_equals_brute_force_relabelling():
    rng = random.Random(0)
    for _ in range(300):
        n = rng.randint(1, 7)
        a = "".join(rng.choice("ABCD") for _ in range(n))
        b = "".join(rng.choice("ABC") for _ in range(n))
        assert partition_distance(a, b) == _brute_force_partition_distance(a, b)
    assert partition_distance("AABBA", "AABBA") == 0
    assert partition_distance("BBAAB", "AABBA") == 0  # letters are names, not values
    assert partition_distance("AABB", "AABBA") == 1  # one missing line


def test_rhyme_graded_score_is_one_minus_k_over_n_minus_one():
    rhyme = get_analyzer("rhyme_scheme")
    assert rhyme.judge("AABBA", "AABBA").score == 1.0
    assert rhyme.judge("ABCDE", "AABBA").score == pytest.approx(1 - 3 / 4)
    assert rhyme.judge("AABCA", {"equals": "AABBA", "tolerance": 1}).passed
    sonnet = rhyme.judge("ABABCDCDEFEFGH", {"one_of": ["ABABCDCDEFEFGG", "ABBAABBACDECDE"]})
    assert sonnet.distance == 1 and sonnet.score == pytest.approx(1 - 1 / 13)
    assert rhyme.higher_is_better and sonnet.score_name == "scheme_agreement"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "  \n\t\n \n"])
def test_empty_or_blank_poems_are_rejected_with_their_name(text):
    with pytest.raises(ValueError, match="my poem: the poem is empty or only blank lines"):
        analyze_poem(Poem(text, "my poem"))
    with pytest.raises(ValueError, match=r"poems\[1\]: the poem is empty"):
        analyze_collection([LIMERICK, text])


def test_non_string_poem_and_small_collections():
    with pytest.raises(TypeError, match="must be a string"):
        analyze_poem(["a list", "of lines"])
    with pytest.raises(TypeError, match="list of poems"):
        analyze_collection(LIMERICK)
    with pytest.raises(ValueError, match="at least 2 poems"):
        analyze_collection([LIMERICK], ["inter_novelty"])


def test_a_one_line_poem_has_no_intra_novelty():
    values = analyze_poem("a single line", ["intra_novelty", "type_token_ratio"])
    assert values["intra_novelty"] == {"rouge1": None, "rouge2": None, "rougeL": None}
    assert values["type_token_ratio"] == 1.0
    assert analyze_poem("— ! —", ["type_token_ratio"])["type_token_ratio"] is None
