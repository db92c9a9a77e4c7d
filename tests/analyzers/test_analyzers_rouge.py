"""ROUGE and novelty: equal to rouge-score computed directly, on texts the tests generate."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rouge_score import rouge_scorer, tokenize

from poetic_eval.analyzers import read_poem_collection
from poetic_eval.analyzers.novelty import inter_novelty, intra_novelty, sample_ordered_pairs
from poetic_eval.analyzers.poem import Poem
from poetic_eval.analyzers.rouge import RougeTexts, rouge_tokens

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL"]
WORDS = [
    "the",
    "The",
    "moon",
    "moon's",
    "night,",
    "light!",
    "sea-green",
    "ÉTÉ",
    "42",
    "über",
    "naïve",
    "—",
    "dog",
    "cats",
    "running",
    "runs",
    "K",
    "ǅ",
    "x_y",
    "a",
]


def random_text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14)))


def random_poem(rng: random.Random) -> Poem:
    stanzas = []
    for _ in range(rng.randint(1, 3)):
        stanzas.append("\n".join(random_text(rng) or "the" for _ in range(rng.randint(1, 5))))
    return Poem("\n\n".join(stanzas))


def test_tokens_equal_rouge_score_tokenizer():
    rng = random.Random(0)
    for _ in range(500):
        text = random_text(rng)
        assert rouge_tokens(text) == tokenize.tokenize(text, None)


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_f1_matrix_and_pairs_equal_rouge_score(use_stemmer):
    rng = random.Random(1 + use_stemmer)
    texts = [random_text(rng) for _ in range(40)]
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    ours = RougeTexts(texts, use_stemmer=use_stemmer)
    index = np.arange(len(texts))
    first, second = np.repeat(index, len(texts)), np.tile(index, len(texts))
    for rouge_type in TYPES:
        matrix = ours.f1_matrix(rouge_type, index, index)
        pairs = ours.f1_pairs(rouge_type, first, second).reshape(matrix.shape)
        expected = np.array(
            [[scorer.score(texts[j], texts[i])[rouge_type].fmeasure for j in index] for i in index]
        )
        np.testing.assert_allclose(matrix, expected, rtol=0, atol=1e-12)
        np.testing.assert_allclose(pairs, expected, rtol=0, atol=1e-12)


def test_lcs_handles_vocabularies_past_the_surrogate_range():
    rng = random.Random(2)
    vocabulary = [f"w{i}" for i in range(60_000)]
    texts = [" ".join(rng.choice(vocabulary) for _ in range(30)) for _ in range(20)]
    texts += [" ".join(vocabulary[55_000:55_030])] * 2
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    ours = RougeTexts(texts)
    index = np.arange(len(texts))
    matrix = ours.f1_matrix("rougeL", index, index)
    for i, j in [(0, 1), (5, 7), (20, 21), (21, 3)]:
        assert matrix[i, j] == pytest.approx(scorer.score(texts[j], texts[i])["rougeL"].fmeasure)


def _mean_f1(scorer, pairs, rouge_type):
    values = [scorer.score(b, a)[rouge_type].fmeasure for a, b in pairs]
    return sum(values) / len(values)


@pytest.mark.parametrize("include_blank_lines", [False, True])
def test_intra_novelty_equals_rouge_score_over_ordered_line_pairs(include_blank_lines):
    rng = random.Random(3)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    for _ in range(25):
        poem = random_poem(rng)
        lines = poem.raw_lines if include_blank_lines else poem.lines
        ours = intra_novelty(poem, include_blank_lines=include_blank_lines)
        if len(lines) < 2:
            assert ours["rouge1"] is None
            continue
        pairs = [(a, b) for i, a in enumerate(lines) for j, b in enumerate(lines) if i != j]
        for rouge_type, value in ours.items():
            assert value == pytest.approx(_mean_f1(scorer, pairs, rouge_type), abs=1e-12)


def _reference_inter(poems, rouge_type, include_blank_lines, pairs):
    scorer = rouge_scorer.RougeScorer([rouge_type])
    lines = [p.raw_lines if include_blank_lines else p.lines for p in poems]
    single, by_line, all_lines = [], [], []
    for i, j in pairs:
        single.append(scorer.score(" ".join(lines[j]), " ".join(lines[i]))[rouge_type].fmeasure)
        zipped = list(zip(lines[i], lines[j]))
        by_line.append(_mean_f1(scorer, zipped, rouge_type))
        every = [(a, b) for a in lines[i] for b in lines[j]]
        all_lines.append(_mean_f1(scorer, every, rouge_type))
    return {
        "single_string": sum(single) / len(single),
        "line_by_line": sum(by_line) / len(by_line),
        "all_lines": sum(all_lines) / len(all_lines),
    }


@pytest.mark.parametrize("include_blank_lines", [False, True])
def test_inter_novelty_three_ways_equal_rouge_score(include_blank_lines):
    rng = random.Random(5)
    poems = [random_poem(rng) for _ in range(9)]
    ours = inter_novelty(poems, include_blank_lines=include_blank_lines, block_size=4)
    assert ours["pairs"] == 72 and ours["sampled"] is False
    every_pair = [(i, j) for i in range(9) for j in range(9) if i != j]
    for rouge_type in ("rouge1", "rouge2", "rougeL"):
        expected = _reference_inter(poems, rouge_type, include_blank_lines, every_pair)
        for way, value in expected.items():
            assert ours[way][rouge_type] == pytest.approx(value, abs=1e-12), (way, rouge_type)


def _naive_line_by_line(poems, rouge_type, include_blank_lines, pairs, divisor):
    """Plain loop: zip the two poems' lines, sum rouge-score F1, divide as ``divisor`` says."""
    scorer = rouge_scorer.RougeScorer([rouge_type])
    lines = [p.raw_lines if include_blank_lines else p.lines for p in poems]
    values = []
    for i, j in pairs:
        total = sum(scorer.score(b, a)[rouge_type].fmeasure for a, b in zip(lines[i], lines[j]))
        values.append(
            total / (len(lines[i]) if divisor == "first" else min(map(len, (lines[i], lines[j]))))
        )
    return sum(values) / len(values)


def _poems_of_unequal_length(seed: int, count: int) -> list[Poem]:
    rng = random.Random(seed)
    poems = []
    for index in range(count):
        size = 1 + index % 7
        poems.append(Poem("\n".join(random_text(rng) + " the" for _ in range(size))))
    return poems


@pytest.mark.parametrize("include_blank_lines", [False, True])
@pytest.mark.parametrize("divisor", ["shorter", "first"])
def test_line_by_line_divisor_equals_a_naive_loop_of_each_kind(divisor, include_blank_lines):
    poems = _poems_of_unequal_length(8, 8) + [random_poem(random.Random(9)) for _ in range(3)]
    n = len(poems)
    every_pair = [(i, j) for i in range(n) for j in range(n) if i != j]
    ours = inter_novelty(
        poems,
        ways=["line_by_line"],
        include_blank_lines=include_blank_lines,
        line_by_line_divisor=divisor,
        block_size=3,
    )
    first, second = sample_ordered_pairs(n, 40, 2)
    sampled = inter_novelty(
        poems,
        ways=["line_by_line"],
        include_blank_lines=include_blank_lines,
        line_by_line_divisor=divisor,
        sample_pairs=40,
        seed=2,
    )
    some_pairs = list(zip(first.tolist(), second.tolist()))
    for rouge_type in ("rouge1", "rouge2", "rougeL"):
        expected = _naive_line_by_line(poems, rouge_type, include_blank_lines, every_pair, divisor)
        assert ours["line_by_line"][rouge_type] == pytest.approx(expected, abs=1e-12)
        expected = _naive_line_by_line(poems, rouge_type, include_blank_lines, some_pairs, divisor)
        assert sampled["line_by_line"][rouge_type] == pytest.approx(expected, abs=1e-12)


def test_the_reference_divisor_differs_only_for_poems_of_unequal_length():
    poems = _poems_of_unequal_length(10, 7)
    shorter = inter_novelty(poems, ways=["line_by_line"])["line_by_line"]["rouge1"]
    first = inter_novelty(poems, ways=["line_by_line"], line_by_line_divisor="first")
    assert first["line_by_line"]["rouge1"] < shorter - 1e-3
    same_length = [Poem("a b c\nd e the"), Poem("a b\nthe e"), Poem("c d\nb e")]
    assert inter_novelty(same_length, ways=["line_by_line"]) == inter_novelty(
        same_length, ways=["line_by_line"], line_by_line_divisor="first"
    )
    # A 2-line poem against a 1-line one that repeats its first line: the mean over the one
    # zipped pair is 1; the reference code divides that pair's sum by 2 in one order only.
    pair = [Poem("the moon\nthe sea"), Poem("the moon")]
    assert inter_novelty(pair, ways=["line_by_line"])["line_by_line"]["rouge1"] == 1.0
    by_first = inter_novelty(pair, ways=["line_by_line"], line_by_line_divisor="first")
    assert by_first["line_by_line"]["rouge1"] == pytest.approx((1 / 2 + 1) / 2)


def test_sampled_inter_novelty_reports_its_pairs_and_equals_rouge_score_on_them():
    rng = random.Random(6)
    poems = [random_poem(rng) for _ in range(12)]
    sampled = inter_novelty(poems, sample_pairs=30, seed=3)
    assert sampled["pairs"] == 30 and sampled["sampled"] is True
    assert inter_novelty(poems, sample_pairs=30, seed=3) == sampled
    first, second = sample_ordered_pairs(12, 30, 3)
    pairs = list(zip(first.tolist(), second.tolist()))
    assert len(set(pairs)) == 30 and all(i != j for i, j in pairs)
    for rouge_type in ("rouge1", "rougeL"):
        expected = _reference_inter(poems, rouge_type, False, pairs)
        for way, value in expected.items():
            assert sampled[way][rouge_type] == pytest.approx(value, abs=1e-12)
    exact = inter_novelty(poems, sample_pairs=10_000)
    assert exact["sampled"] is False and exact["pairs"] == 132


def test_sampled_pairs_cover_all_ordered_pairs_uniformly():
    first, second = sample_ordered_pairs(5, 20, 0)
    assert sorted(zip(first.tolist(), second.tolist())) == [
        (i, j) for i in range(5) for j in range(5) if i != j
    ]
    counts = np.zeros((6, 6))
    for seed in range(400):
        a, b = sample_ordered_pairs(6, 5, seed)
        np.add.at(counts, (a, b), 1)
    off_diagonal = counts[~np.eye(6, dtype=bool)]
    assert counts.trace() == 0 and off_diagonal.min() > 0.5 * off_diagonal.mean()


def test_bad_novelty_options():
    poems = [Poem("a b\nc d"), Poem("e f\ng h")]
    with pytest.raises(ValueError, match="unknown ROUGE type 'rougeLsum'"):
        inter_novelty(poems, rouge_types=["rougeLsum"])
    with pytest.raises(ValueError, match="unknown way 'stanza_by_stanza'; .*choices: "):
        inter_novelty(poems, ways=["stanza_by_stanza"])
    with pytest.raises(ValueError, match="sample_pairs must be >= 1"):
        inter_novelty(poems, sample_pairs=0)
    with pytest.raises(ValueError, match="unknown line_by_line_divisor"):
        inter_novelty(poems, line_by_line_divisor="longer")


ERATO_COLLECTIONS = (
    "humanenglish",
    "humanspanish",
    "openaienglish",
    "openaispanish",
    "poetrymeenglish",
    "poetrymespanish",
)


@pytest.mark.needs_shared_data
def test_rouge_equals_rouge_score_on_the_erato_poems(shared_data):
    """Real poems (English and Spanish: accents, dashes, apostrophes, blank lines): every line
    pair's F1 matrix, intra-novelty and the three inter-novelty ways (both line-by-line
    divisors) equal a plain loop over rouge-score."""
    root = shared_data / "erato_eval_poems/dataset_evaluation/dataset"
    rng = random.Random(12)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    chosen: list[Poem] = []
    for name in ERATO_COLLECTIONS:
        collection = read_poem_collection(root / name)
        picks = rng.sample(range(len(collection.poems)), 3)
        chosen += [Poem(collection.poems[k], collection.names[k]) for k in picks]
    lines = [line for poem in chosen for line in poem.lines]
    texts = RougeTexts(lines)
    rows = np.arange(len(lines))
    matrices = {t: texts.f1_matrix(t, rows, rows) for t in ("rouge1", "rouge2", "rougeL")}
    for i in rows:
        for j in rows[i % 5 :: 5]:  # a fifth of the pairs: every line against many others
            scores = scorer.score(lines[j], lines[i])
            for rouge_type, matrix in matrices.items():
                expected = scores[rouge_type].fmeasure
                assert matrix[i, j] == pytest.approx(expected, abs=1e-12), (lines[i], lines[j])
    for poem in chosen:
        for include_blank_lines in (False, True):
            ours = intra_novelty(poem, include_blank_lines=include_blank_lines)
            poem_lines = poem.raw_lines if include_blank_lines else poem.lines
            pairs = [(a, b) for i, a in enumerate(poem_lines) for j, b in enumerate(poem_lines)
                     if i != j]  # fmt: skip
            for rouge_type, value in ours.items():
                assert value == pytest.approx(_mean_f1(scorer, pairs, rouge_type), abs=1e-12)
    n = len(chosen)
    every_pair = [(i, j) for i in range(n) for j in range(n) if i != j]
    for divisor in ("shorter", "first"):
        ours = inter_novelty(
            chosen, ways=["single_string", "line_by_line"], line_by_line_divisor=divisor
        )
        for rouge_type in ("rouge1", "rougeL"):
            expected = _naive_line_by_line(chosen, rouge_type, False, every_pair, divisor)
            assert ours["line_by_line"][rouge_type] == pytest.approx(expected, abs=1e-12)
    few = chosen[::3]  # one poem of each collection: all_lines compares every line pair
    few_pairs = [(i, j) for i in range(len(few)) for j in range(len(few)) if i != j]
    for rouge_type in ("rouge1", "rougeL"):
        expected = _reference_inter(few, rouge_type, True, few_pairs)
        ours = inter_novelty(few, include_blank_lines=True, rouge_types=[rouge_type])
        for way, value in expected.items():
            assert ours[way][rouge_type] == pytest.approx(value, abs=1e-12), way
