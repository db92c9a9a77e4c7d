"""QuaTrain preparation: the two-stage de-duplication against a direct transcription of the
spec on synthetic corpora, the stable top-k, the split and the pseudo-sonnets."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from quatrain_corpora import (
    lines_of,
    synthetic_stanzas,
    transcribed_deduplication,
    windows_of,
    write_jsonl,
)

from poetic_eval.quatrain import deduplicate, read_quatrain_source
from poetic_eval.quatrain.overlap import top_k_in_order
from poetic_eval.quatrain.sonnets import draw_pseudo_sonnets, max_sonnets
from poetic_eval.quatrain.splitting import dev_size

# -- de-duplication -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_deduplication_equals_the_transcription(tmp_path, seed):
    windows = windows_of(synthetic_stanzas(seed, 40, pool=4 + seed % 9))
    if not windows:
        pytest.skip("no 4-line stanza drawn")
    p = (1, 2, 3, 10, 20)[seed % 5]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=p)
    after_sequential, kept = transcribed_deduplication(windows, p)
    assert result.after_sequential.tolist() == after_sequential
    assert result.kept.tolist() == kept


@pytest.mark.parametrize("seed", range(5))
def test_no_line_occurs_twice_and_overlaps_were_there(tmp_path, seed):
    windows = windows_of(synthetic_stanzas(100 + seed, 3000, pool=200))
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=10)
    after_stage_1 = Counter(line for w in lines_of(corpus, result.after_sequential) for line in w)
    assert max(after_stage_1.values()) > 1  # the sequential pass alone does not suffice
    final = Counter(line for w in lines_of(corpus, result.kept) for line in w)
    assert max(final.values()) == 1
    assert result.iterations > 1


def test_sequential_pass_keeps_windows_0_4_8_of_each_run(tmp_path):
    stanzas = [[f"s{s} l{i}" for i in range(length)] for s, length in enumerate(range(1, 30))]
    windows = windows_of(stanzas)
    expected = [
        window
        for stanza in stanzas
        for start, window in enumerate(windows_of([stanza]))
        if start % 4 == 0
    ]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en")
    assert lines_of(corpus, result.after_sequential) == expected
    assert result.runs == sum(1 for stanza in stanzas if len(stanza) >= 4)
    # every kept window is a non-overlapping block of its stanza: lines 1-4, 5-8, ...
    assert {int(w[0].split(" l")[1]) % 4 for w in expected} == {0}


def test_a_run_breaks_where_line_1_is_not_the_previous_line_2(tmp_path):
    a, b, c, d, e, f, g, h = "abcdefgh"
    windows = [
        [a, b, c, d],
        [b, c, d, e],
        [c, d, e, f],
        [d, e, f, g],
        [e, f, g, h],  # run of 5
        [f, g, h, a],  # continues [e, f, g, h]: position 5
        [a, c, e, g],  # does not continue: new run
        [c, a, b, d],  # line 1 == previous line 2: continues
    ]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    assert deduplicate(corpus, "en", p=1).after_sequential.tolist() == [0, 4, 6]


def test_ties_delete_the_earlier_quatrain_first(tmp_path):
    windows = [["x", "b1", "c1", "d1"], ["x", "b2", "c2", "d2"], ["y", "b3", "c3", "d3"]]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=10)
    assert result.kept.tolist() == [1, 2]
    assert transcribed_deduplication(windows, 10)[1] == [1, 2]


def test_a_line_repeated_inside_a_quatrain_counts_twice(tmp_path):
    windows = [["r", "a", "r", "b"], ["c", "d", "e", "f"]]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    assert deduplicate(corpus, "en").kept.tolist() == [1]


@pytest.mark.parametrize("seed", range(20))
def test_top_k_in_order_is_a_stable_descending_sort(seed):
    rng = np.random.default_rng(seed)
    scores = rng.integers(4, 9, size=int(rng.integers(1, 60)))
    for k in range(1, scores.size + 1):
        expected = sorted(sorted(range(scores.size), key=lambda i: scores[i], reverse=True)[:k])
        assert top_k_in_order(scores, k).tolist() == expected


# -- split and pseudo-sonnets ---------------------------------------------------------------


def test_split_and_sonnet_rules_reproduce_the_paper_sizes():
    assert dev_size(201_856) == 20_186 and 201_856 - dev_size(201_856) == 181_670
    assert dev_size(282_048) == 28_205 and 282_048 - dev_size(282_048) == 253_843
    reported = {181_670: 51_905, 20_186: 5_767, 253_843: 72_526, 28_205: 8_058}
    for quatrains, sonnets in reported.items():
        assert max_sonnets(quatrains) == sonnets
        assert max_sonnets(quatrains, "first") == quatrains // 4


@pytest.mark.parametrize("couplets", ["split", "first", "last"])
@pytest.mark.parametrize("n", [0, 3, 4, 7, 8, 50, 351])
def test_sonnet_parts_come_from_different_quatrains_used_once(n, couplets):
    sonnets = draw_pseudo_sonnets(n, seed=3, couplets=couplets)
    assert len(sonnets) == max_sonnets(n, couplets)
    used = Counter()
    for whole, source, half in zip(
        sonnets.quatrains.tolist(),
        sonnets.couplet_sources.tolist(),
        sonnets.couplet_halves.tolist(),
    ):
        assert len({*whole, source}) == 4
        for quatrain in whole:
            used[(quatrain, "whole")] += 1
        used[(source, half)] += 1
        assert couplets != "first" or half == 0
        assert couplets != "last" or half == 1
    assert max(used.values(), default=1) == 1
    quatrains = {key[0] for key in used}
    whole = {key[0] for key in used if key[1] == "whole"}
    assert len(quatrains) <= n and not (whole & {key[0] for key in used if key[1] != "whole"})
    assert len(draw_pseudo_sonnets(n, seed=3, couplets=couplets, fraction=0.5)) == (
        math.floor(0.5 * max_sonnets(n, couplets))
    )


def test_sonnet_draw_and_split_are_seeded():
    one, two = draw_pseudo_sonnets(100, seed=1), draw_pseudo_sonnets(100, seed=1)
    assert np.array_equal(one.quatrains, two.quatrains)
    other = draw_pseudo_sonnets(100, seed=2)
    assert not np.array_equal(one.quatrains, other.quatrains)
    dev = draw_pseudo_sonnets(100, seed=1, stream=1)
    assert not np.array_equal(one.quatrains, dev.quatrains)
