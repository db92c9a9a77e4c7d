"""Memorization equals a naive difflib scan over all pairs, at every level, with near-duplicates."""

from __future__ import annotations

import csv
import difflib
import math
import random

import numpy as np
import pytest

import poetic_eval
from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import DEFAULT_THRESHOLDS, memorization, poem_units
from poetic_eval.diversity.memorization import LEVELS, ratcliff_ratio
from poetic_eval.diversity.near_duplicates import memorized_units


def naive_scan(predictions, references, level, threshold, autojunk=True):
    """The definition: every generated unit against every training unit, keeping the first max."""
    training = [(p, u, text) for p, poem in enumerate(references)
                for u, text in enumerate(poem_units(poem, level))]  # fmt: skip
    matches, total = [], 0
    for p, poem in enumerate(predictions):
        for u, unit in enumerate(poem_units(poem, level)):
            total += 1
            best = None
            for ref_poem, ref_unit, text in training:
                ratio = difflib.SequenceMatcher(None, text, unit, autojunk=autojunk).ratio()
                if best is None or ratio > best[3]:
                    best = (ref_poem, ref_unit, text, ratio)
            if best is not None and best[3] >= threshold:
                matches.append((p, u, unit, *best))
    share = len(matches) / total if total else math.nan
    return share, matches


def memorization_corpora(seed, n_training, n_generated, copy_share=0.5):
    """(generated, training) poems of 1-6 lines where about ``copy_share`` of the generated
    ones are near copies of training poems; 5 training poems appear twice (first index wins)."""
    poems = SyntheticPoems(seed)
    training = poems.poems(n_training, lines=None)
    training += poems.rng.sample(training, 5)
    generated = [
        poems.near_copy(poems.rng.choice(training))
        if poems.rng.random() < copy_share
        else poems.poem(None)
        for _ in range(n_generated)
    ]
    return generated, training


def as_tuples(matches):
    return [
        (m["prediction"], m["unit"], m["text"], m["reference"], m["reference_unit"],
         m["reference_text"], m["ratio"])
        for m in matches
    ]  # fmt: skip


@pytest.mark.floors
@pytest.mark.parametrize("seed", [0, 1])
def test_equals_naive_scan_at_every_level(seed):
    generated, training = memorization_corpora(seed, n_training=80, n_generated=30)
    result = memorization(generated, training, return_matches=True)
    for level in LEVELS:
        share, matches = naive_scan(generated, training, level, DEFAULT_THRESHOLDS[level])
        assert result[f"memorization_{level}"] == share, level
        assert as_tuples(result["matches"][level]) == matches, level
    assert result["memorization_verse"] > 0 and result["memorization_quatrain"] > 0


@pytest.mark.parametrize("threshold", [0.3, 0.6, 0.85, 1.0])
def test_equals_naive_scan_at_other_thresholds(threshold):
    generated, training = memorization_corpora(10, n_training=40, n_generated=15)
    thresholds = dict.fromkeys(LEVELS, threshold)
    result = memorization(generated, training, thresholds=thresholds, return_matches=True)
    for level in LEVELS:
        share, matches = naive_scan(generated, training, level, threshold)
        assert result[f"memorization_{level}"] == share
        assert as_tuples(result["matches"][level]) == matches


def test_share_without_matches_equals_with_matches():
    generated, training = memorization_corpora(3, n_training=100, n_generated=50)
    assert memorization(generated, training) == {
        k: v for k, v in memorization(generated, training, return_matches=True).items()
        if k != "matches"
    }  # fmt: skip


def long_poem(rng, n_lines=4):
    words = ["the", "sea", "and", "night", "of", "light", "in", "my", "heart", "is", "a", "rose"]
    return "\n".join(" ".join(rng.choice(words) for _ in range(14)) for _ in range(n_lines))


def test_autojunk_changes_results_on_long_units_exactly_as_difflib():
    rng = random.Random(4)
    maker = SyntheticPoems(4)
    training = [long_poem(rng) for _ in range(30)]
    generated = [maker.edited(rng.choice(training), rng.randint(5, 40)) for _ in range(12)]
    assert all(len(" ".join(poem_units(p, "quatrain"))) >= 200 for p in generated)
    results = {}
    for autojunk in (True, False):
        result = memorization(
            generated, training, levels="quatrain", autojunk=autojunk, return_matches=True
        )
        share, matches = naive_scan(generated, training, "quatrain", 0.7, autojunk=autojunk)
        assert result["memorization_quatrain"] == share
        assert as_tuples(result["matches"]["quatrain"]) == matches
        results[autojunk] = result["memorization_quatrain"]
    assert results[True] < results[False]  # autojunk discards the frequent characters


def test_ratio_is_difflib_with_generated_second():
    reference, generated = "abcd efgh" * 30, "abcx efgh" * 30
    assert (
        ratcliff_ratio(reference, generated)
        == difflib.SequenceMatcher(None, reference, generated).ratio()
    )
    assert ratcliff_ratio(reference, generated, autojunk=False) != ratcliff_ratio(
        reference, generated
    )


def test_ratio_exactly_at_threshold_counts():
    # 2 * 7 / 20 == 0.7 exactly; the float32 Indel bound is just below 0.7
    result = memorization(["abcdefgxyz"], ["abcdefghij"], levels=["quatrain"])
    assert ratcliff_ratio("abcdefghij", "abcdefgxyz") == 0.7
    assert result == {"memorization_quatrain": 1.0}


def test_memorized_units_first_index_on_ties():
    found = memorized_units(["abcd", "zzzz"], ["abce", "xbcd", "abcd", "abcd"], 0.7)
    assert found == [(2, 1.0), None]


def test_units():
    poem = "one\n  two  \n\nthree\nfour\nfive"
    assert poem_units(poem, "quatrain") == ["one two three four five"]
    assert poem_units(poem, "couplet") == ["one two", "three four"]
    assert poem_units(poem, "verse") == ["one", "two", "three", "four", "five"]
    assert poem_units("single line", "couplet") == []
    with pytest.raises(ValueError, match="level"):
        poem_units(poem, "stanza")


def test_no_couplets_gives_nan():
    result = memorization(["one line only"], ["one line only\nand another"])
    assert math.isnan(result["memorization_couplet"])
    assert result["memorization_verse"] == 1.0


def test_unicode_and_case_sensitivity():
    training = ["Ünder the façade of 夜\nnaïve roses grow"]
    assert memorization(["ünder the façade of 夜"], training, levels="verse") == {
        "memorization_verse": 1.0
    }
    assert memorization(["ÜNDER THE FAÇADE OF 夜"], training, levels="verse") == {
        "memorization_verse": 0.0
    }


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"predictions": []}, ValueError, "predictions is empty"),
        ({"references": []}, ValueError, "references is empty"),
        ({"predictions": None}, ValueError, "predictions is required"),
        ({"predictions": ["a", None]}, TypeError, "predictions[1]"),
        ({"references": ["a", b"bytes"]}, TypeError, "references[1]"),
        ({"predictions": ["a", " \n "]}, ValueError, "predictions[1]"),
        ({"levels": ["quatrain", "stanza"]}, ValueError, "stanza"),
        ({"levels": []}, ValueError, "levels is empty"),
        ({"thresholds": {"verse": 0}}, ValueError, "thresholds['verse']"),
        ({"thresholds": {"verse": 1.2}}, ValueError, "thresholds['verse']"),
        ({"thresholds": {"verse": "high"}}, TypeError, "thresholds['verse']"),
        ({"thresholds": {"line": 0.9}}, ValueError, "line"),
        ({"thresholds": 0.9}, TypeError, "thresholds must be a dict"),
    ],
)
def test_bad_input(kwargs, error, fragment):
    arguments = {"predictions": ["a b\nc d"], "references": ["a b\nc e"], **kwargs}
    with pytest.raises(error) as raised:
        memorization(**arguments)
    assert fragment in str(raised.value)


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("memorization_ratcliff")


def test_module_add_batch_equals_compute(metric):
    generated, training = memorization_corpora(5, n_training=80, n_generated=45)
    whole = metric.compute(predictions=generated, references=training, return_matches=True)
    for start in range(0, len(generated), 20):
        metric.add_batch(predictions=generated[start : start + 20])
    batched = metric.compute(references=training, return_matches=True)
    assert batched == whole
    assert whole == memorization(generated, training, return_matches=True)


def test_module_options_and_bad_input(metric):
    result = metric.compute(
        predictions=["a b c d"], references=["a b c e"], levels=["verse"], thresholds={"verse": 0.5}
    )
    assert result == {"memorization_verse": 1.0}
    with pytest.raises(ValueError, match="references"):
        metric.compute(predictions=["a b"])
    with pytest.raises(ValueError, match="thresholds"):
        metric.compute(predictions=["a b"], references=["a b"], thresholds={"verse": 0})


def sonnet_quatrains(shared_data, count):
    path = (
        shared_data
        / "sonnet_or_not_public_domain_poems"
        / "poetry-evaluation_public-domain-poems.csv"
    )
    lines = []
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            lines.extend(line.strip() for line in row["poem_text"].split("\n") if line.strip())
            if len(lines) >= 4 * count:
                break
    return ["\n".join(lines[i : i + 4]) for i in range(0, 4 * count, 4)]


@pytest.mark.slow
@pytest.mark.needs_shared_data
def test_real_poems_equal_naive_scan(shared_data):
    quatrains = sonnet_quatrains(shared_data, 420)
    training, unseen = quatrains[:300], quatrains[300:]
    maker = SyntheticPoems(30)
    generated = [maker.near_copy(maker.rng.choice(training)) for _ in range(15)] + unseen[:25]
    result = memorization(generated, training, return_matches=True)
    for level in LEVELS:
        share, matches = naive_scan(generated, training, level, DEFAULT_THRESHOLDS[level])
        assert result[f"memorization_{level}"] == share
        assert as_tuples(result["matches"][level]) == matches


def dictionary_word_poems(seed, count):
    """Quatrains whose lines are 5-7 random words of the CMU dictionary: English-like
    characters with no repeated phrases, where character bounds pass the most candidates."""
    import pronouncing

    pronouncing.init_cmu()
    words = sorted(word for word in pronouncing.lookup if word.isalpha())
    rng = random.Random(seed)
    return [
        "\n".join(" ".join(rng.choices(words, k=rng.randint(5, 7))) for _ in range(4))
        for _ in range(count)
    ]


def test_dictionary_word_poems_equal_naive_scan():
    training = dictionary_word_poems(0, 120)
    maker = SyntheticPoems(7)
    generated = [maker.near_copy(maker.rng.choice(training)) for _ in range(12)]
    generated += dictionary_word_poems(1, 12)
    result = memorization(generated, training, return_matches=True)
    for level in LEVELS:
        share, matches = naive_scan(generated, training, level, DEFAULT_THRESHOLDS[level])
        assert result[f"memorization_{level}"] == share, level
        assert as_tuples(result["matches"][level]) == matches, level
    assert result["memorization_quatrain"] > 0


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_banded_bound_holds_for_every_pair_reaching_the_threshold(threshold):
    """The banded LCS bound is at least the LCS of every pair whose Indel similarity reaches
    the threshold (the premise of the bound), on near copies and unrelated texts alike."""
    import numpy as np
    from rapidfuzz.distance import LCSseq

    from poetic_eval.diversity.ratio_bounds import banded_lcs_bound, unit_pieces

    maker = SyntheticPoems(11)
    texts = [" ".join(p.split("\n")) for p in dictionary_word_poems(2, 40)]
    queries = [maker.edited(t, maker.rng.randint(0, 40)) for t in texts[:20]]
    queries += [" ".join(p.split("\n")) for p in maker.quatrains(10)]
    lengths = np.array([len(t) for t in texts])
    query_lengths = np.array([len(q) for q in queries])
    bound = banded_lcs_bound(unit_pieces(texts), lengths, queries, query_lengths, threshold, 1)
    reaching = 0
    for row, text in enumerate(texts):
        for column, query in enumerate(queries):
            lcs = LCSseq.similarity(text, query)
            if 2 * lcs >= threshold * (len(text) + len(query)):
                reaching += 1
                assert bound[row, column] >= lcs, (row, column)
    assert reaching >= 5


def test_parallel_verification_equals_one_process(monkeypatch):
    """Enough candidates to start worker processes (a low threshold): same result."""
    import importlib

    module = importlib.import_module("poetic_eval.diversity.near_duplicates")
    pools = []

    class CountedPool(module.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(kwargs["max_workers"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(module, "ProcessPoolExecutor", CountedPool)
    generated, training = memorization_corpora(12, n_training=100, n_generated=40)
    options = {"thresholds": dict.fromkeys(LEVELS, 0.35), "return_matches": True}
    one = memorization(generated, training, workers=1, **options)
    assert pools == []
    two = memorization(generated, training, workers=2, **options)
    assert pools and set(pools) == {2}
    assert one == two
    share, matches = naive_scan(generated, training, "verse", 0.35)
    assert two["memorization_verse"] == share
    assert as_tuples(two["matches"]["verse"]) == matches


def test_histogram_bound_holds_for_every_pair():
    """The histogram bound is at least the LCS of every pair (dictionary words, near copies,
    characters outside the histogram's alphabet, counts past the uint8 saturation)."""
    from rapidfuzz.distance import LCSseq

    from poetic_eval.diversity.near_duplicates import build_unit_index
    from poetic_eval.diversity.ratio_bounds import char_counts, histogram_bound

    maker = SyntheticPoems(13)
    texts = [" ".join(p.split("\n")) for p in dictionary_word_poems(3, 30)]
    texts += ["é" * 300 + "ab", "a" * 400, "ça va " * 3, "ß∂ƒ© " * 5]
    queries = [maker.edited(t, maker.rng.randint(0, 30)) for t in texts[:15]]
    queries += ["a" * 380 + "b", "é" * 290, "ça vä " * 3, "∂ƒ©ß " * 5, "xyz"]
    choices = build_unit_index(texts)
    counts = char_counts(queries, choices.alphabet, saturate=False)
    bound = histogram_bound(choices.counts, counts)
    for row, text in enumerate(choices.texts):
        for column, query in enumerate(queries):
            assert bound[row, column] >= LCSseq.similarity(text, query), (row, column)
    assert choices.counts.max() == 255  # the saturated counts were exercised


def test_char_counts_equal_counter_across_blocks_in_both_layouts():
    """Character counts, filled 8,000 texts at a time, equal a per-text Counter for 20,000
    random texts (several blocks), in the per-text and the per-character layout; characters
    outside the alphabet share the last column and the training counts saturate at 255."""
    from collections import Counter

    from poetic_eval.diversity.ratio_bounds import ALPHABET, char_counts

    rng = random.Random(5)
    letters = "abcdefghij é"
    texts = ["".join(rng.choices(letters, k=rng.randint(0, 40))) for _ in range(20_000)]
    texts[12_345] = "a" * 300 + "zz"
    alphabet = {c: column for column, c in enumerate("abcdefghij ")}  # "é" and "z" outside
    expected = [[0] * (ALPHABET + 1) for _ in texts]
    for row, text in zip(expected, texts):
        for char, count in Counter(text).items():
            row[alphabet.get(char, ALPHABET)] += count
    exact = char_counts(texts, alphabet, saturate=False)
    assert exact.tolist() == expected
    saturated = [[min(count, 255) for count in row] for row in expected]
    assert char_counts(texts, alphabet).tolist() == saturated
    by_character = char_counts(texts, alphabet, by_character=True)
    assert by_character.shape == (ALPHABET + 1, len(texts)) and by_character.flags.c_contiguous
    assert by_character.T.tolist() == saturated
    assert by_character[alphabet["a"], 12_345] == 255


@pytest.mark.parametrize("level", LEVELS)
def test_dictionary_words_near_threshold_equal_naive_scan(level):
    """Random dictionary words (where character bounds keep the most pairs) and generated
    units edited until their ratio sits just around the threshold: equal to naive difflib."""
    rng = random.Random(21)
    maker = SyntheticPoems(21)
    training = dictionary_word_poems(5, 60)
    threshold = DEFAULT_THRESHOLDS[level]
    generated = []
    for poem in rng.sample(training, 16):
        previous = edited = poem
        while True:  # edit until the poem's first unit falls below the threshold
            unit = poem_units(edited, level)[0]
            if ratcliff_ratio(poem_units(poem, level)[0], unit) < threshold:
                break
            previous, edited = edited, maker.edited(edited, 1)
        generated += [previous, edited]  # the last edit above the threshold, the first below
    generated += dictionary_word_poems(6, 10)
    result = memorization(generated, training, levels=level, return_matches=True)
    share, matches = naive_scan(generated, training, level, threshold)
    assert result[f"memorization_{level}"] == share
    assert as_tuples(result["matches"][level]) == matches
    assert 0 < share < 1


def test_later_call_reuses_the_training_index():
    """The per-level index is built once per PoemCorpus and the results stay exact."""
    from poetic_eval.text import PoemCorpus

    generated, training = memorization_corpora(7, n_training=60, n_generated=20)
    corpus = PoemCorpus(training, disk_cache=False)
    first = memorization(generated, corpus, return_matches=True)
    kept = {key: value for key, value in corpus._derived.items() if "memorization_index" in key}
    assert len(kept) == len(LEVELS)
    again = memorization(generated[::-1], corpus, return_matches=True)
    assert all(corpus._derived[key] is value for key, value in kept.items())
    plain = memorization(generated[::-1], list(training), return_matches=True)
    assert again == plain and first["memorization_verse"] == again["memorization_verse"]


@pytest.mark.parametrize("level", ["quatrain", "couplet", "verse"])
def test_units_by_text_numbers_units_by_first_occurrence(level):
    """Distinct units in order of first occurrence, where each first occurs (poem, unit), and
    each poem's unit ids, equal a plain loop over poems with repeats within and across poems,
    poems without units and odd line counts."""
    from poetic_eval.diversity.memorization import _units_by_text

    rng = random.Random(3)
    lines_pool = ["a b", "c d", "e f", "g h", "a b"]
    poems = ["\n".join(rng.choices(lines_pool, k=rng.randint(0, 7))) for _ in range(300)]
    texts, first, ids = [], [], []
    for poem_index, poem in enumerate(poems):
        poem_ids = []
        for unit_index, unit in enumerate(poem_units(poem, level)):
            if unit not in texts:
                texts.append(unit)
                first.append([poem_index, unit_index])
            poem_ids.append(texts.index(unit))
        ids.append(poem_ids)
    corpus, unit_ids = _units_by_text(poems, level)
    assert list(corpus.texts) == texts
    assert np.asarray(corpus.first).tolist() == first
    assert unit_ids == ids


def test_length_groups_in_threads_equal_one_thread(monkeypatch):
    """Small bound matrices make many length groups; run in three threads (each with one
    rapidfuzz and one BLAS thread) they give the naive scan's result, as one thread does, and
    the BLAS thread count is restored afterwards."""
    import importlib

    from threadpoolctl import threadpool_info

    module = importlib.import_module("poetic_eval.diversity.near_duplicates")
    monkeypatch.setattr(module, "_MAX_MATRIX_CELLS", 4_000)
    monkeypatch.setattr(module, "_MIN_MATRIX_CELLS", 400)
    submitted = []

    class CountedThreads(module.ThreadPoolExecutor):
        def submit(self, function, *args, **kwargs):
            submitted.append(self._max_workers)
            return super().submit(function, *args, **kwargs)

    monkeypatch.setattr(module, "ThreadPoolExecutor", CountedThreads)

    def blas_threads():
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    before = blas_threads()
    generated, training = memorization_corpora(21, n_training=200, n_generated=30)
    thresholds = {"quatrain": 0.5, "couplet": 0.6, "verse": 0.7}
    options = {"thresholds": thresholds, "return_matches": True}
    one = memorization(generated, training, workers=1, **options)
    three = memorization(generated, training, workers=3, **options)
    assert submitted.count(3) >= 20  # many groups went to the three-thread pool
    assert blas_threads() == before
    assert one == three
    for level, threshold in thresholds.items():
        share, matches = naive_scan(generated, training, level, threshold)
        assert three[f"memorization_{level}"] == share
        assert as_tuples(three["matches"][level]) == matches
