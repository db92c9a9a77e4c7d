"""Fixtures of the bpomp tests: the verified seed limericks, 400 limericks recombined from
them (seeded), and the WordNet synonym finder (skips without WordNet)."""

from __future__ import annotations

import pytest
from bpomp_cases import SEEDS

from poetic_eval.limericks import SynonymFinder, read_limerick_source, recombine_limericks
from poetic_eval.limericks.corruptions import Limerick, verify_limericks
from poetic_eval.limericks.sources import LimerickRecord
from poetic_eval.limericks.wordnet_data import INSTALL_HINT, wordnet_available


@pytest.fixture(scope="module")
def seed_limericks() -> list[Limerick]:
    return verify_limericks(read_limerick_source(SEEDS), show_progress=False).kept


@pytest.fixture(scope="module")
def recombined(seed_limericks) -> list[Limerick]:
    """400 limericks the test generates (seeded) by recombining the seeds' rhyme groups."""
    texts = recombine_limericks(seed_limericks, 400, seed=11)
    records = [LimerickRecord(f"r{i}", text) for i, text in enumerate(texts)]
    return verify_limericks(records, show_progress=False).kept


@pytest.fixture(scope="module")
def finder() -> SynonymFinder:
    if not wordnet_available():
        pytest.skip(INSTALL_HINT)
    return SynonymFinder()
