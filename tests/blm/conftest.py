"""Fixtures of the BLM evaluation tests: the tiny Italian LM and the parsed test items."""

from __future__ import annotations

import pytest
from blm_eval_items import RECORDS, italian_lm

from poetic_eval.blm import as_items


@pytest.fixture(scope="module")
def lm():
    return italian_lm(seed=0)


@pytest.fixture(scope="module")
def items():
    return as_items(RECORDS)
