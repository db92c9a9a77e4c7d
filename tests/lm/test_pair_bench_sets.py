"""bench/pair_texts.py's templated set: runs of consecutive rows of Marvin & Linzen's release, as
the project converts it, one run per agreement family."""

from __future__ import annotations

import pytest

from bench.pair_texts import agreement_pairs, templated_pairs
from poetic_eval.agreement.grammar import MARVIN_LINZEN_FAMILIES
from poetic_eval.agreement.sources import convert_source


@pytest.mark.needs_shared_data
def test_templated_pairs_are_consecutive_rows_of_every_family(shared_data):
    source = shared_data / "marvin_linzen_2018"
    configs = convert_source(source).configs
    pairs = templated_pairs(20, seed=3, source=source)
    assert len(pairs) == 20 * len(MARVIN_LINZEN_FAMILIES) == 300
    for number, rows in enumerate(configs.values()):
        run = pairs[20 * number : 20 * (number + 1)]
        texts = [(row.sentence_good, row.sentence_bad) for row in rows]
        start = texts.index(run[0])
        assert texts[start : start + 20] == run
    assert templated_pairs(20, seed=3, source=source) == pairs
    assert templated_pairs(20, seed=4, source=source) != pairs


@pytest.mark.needs_shared_data
def test_a_family_smaller_than_the_run_comes_whole(shared_data):
    source = shared_data / "marvin_linzen_2018"
    sizes = {name: len(rows) for name, rows in convert_source(source).configs.items()}
    pairs = templated_pairs(500, seed=0, source=source)
    assert len(pairs) == sum(min(size, 500) for size in sizes.values())


def test_templated_pairs_name_a_missing_release(tmp_path):
    with pytest.raises(FileNotFoundError, match="no Marvin & Linzen release"):
        templated_pairs(10, seed=0, source=tmp_path / "absent")


def test_random_fills_differ_in_one_verb_and_repeat_with_the_seed():
    pairs = agreement_pairs(50, seed=1)
    assert pairs == agreement_pairs(50, seed=1)
    for good, bad in pairs:
        differing = [(a, b) for a, b in zip(good.split(), bad.split()) if a != b]
        assert len(good.split()) == len(bad.split()) and len(differing) == 1
