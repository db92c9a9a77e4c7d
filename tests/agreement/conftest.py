"""Fixtures of the agreement tests: the generated pairs of every family."""

from __future__ import annotations

import pytest
from agreement_cases import N_PAIRS

from poetic_eval.agreement import AgreementPair
from poetic_eval.agreement.grammar import generate_all_pairs


@pytest.fixture(scope="module")
def generated() -> dict[str, list[AgreementPair]]:
    return generate_all_pairs(n_pairs=N_PAIRS, seed=0)
