"""bench/pair_texts.py's templated set: runs of consecutive rows of Marvin & Linzen's release, as
the project converts it, one run per agreement family."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from poetic_eval.agreement.grammar import MARVIN_LINZEN_FAMILIES
from poetic_eval.agreement.sources import convert_source

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pair_texts():
    """bench/pair_texts.py as the benches import it (bench/ on sys.path, restored after)."""
    saved = list(sys.path)
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    try:
        yield importlib.import_module("pair_texts")
    finally:
        sys.path[:] = saved


@pytest.fixture(scope="module")
def release(shared_data):
    """The release's agreement families, converted once for the module."""
    return convert_source(shared_data / "marvin_linzen_2018").configs


@pytest.mark.needs_shared_data
def test_templated_runs_are_consecutive_rows_of_every_family(pair_texts, release):
    pairs = pair_texts.templated_runs(release, 20, seed=3)
    assert set(release) == set(MARVIN_LINZEN_FAMILIES)
    assert len(pairs) == 20 * len(MARVIN_LINZEN_FAMILIES) == 300
    for number, rows in enumerate(release.values()):
        run = pairs[20 * number : 20 * (number + 1)]
        texts = [(row.sentence_good, row.sentence_bad) for row in rows]
        start = texts.index(run[0])
        assert texts[start : start + 20] == run
    assert pair_texts.templated_runs(release, 20, seed=3) == pairs
    assert pair_texts.templated_runs(release, 20, seed=4) != pairs


@pytest.mark.needs_shared_data
def test_a_family_smaller_than_the_run_comes_whole(pair_texts, release):
    pairs = pair_texts.templated_runs(release, 500, seed=0)
    assert len(pairs) == sum(min(len(rows), 500) for rows in release.values())


@pytest.mark.needs_shared_data
def test_templated_pairs_read_the_release_through_the_converter(pair_texts, release, shared_data):
    source = shared_data / "marvin_linzen_2018"
    assert pair_texts.templated_pairs(7, seed=1, source=source) == pair_texts.templated_runs(
        release, 7, seed=1
    )


def test_templated_pairs_name_a_missing_release(pair_texts, tmp_path):
    with pytest.raises(FileNotFoundError, match="no Marvin & Linzen release"):
        pair_texts.templated_pairs(10, seed=0, source=tmp_path / "absent")


def test_random_fills_differ_in_one_word_and_repeat_with_the_seed(pair_texts):
    pairs = pair_texts.agreement_pairs(50, seed=1)
    assert pairs == pair_texts.agreement_pairs(50, seed=1)
    for good, bad in pairs:
        differing = [(a, b) for a, b in zip(good.split(), bad.split()) if a != b]
        assert len(good.split()) == len(bad.split()) and len(differing) == 1
