"""The English model's decoding costs: the selection rule of scripts/select_rhyme_costs.py, and
the shipped costs being what that rule picks on the development authors (issue 41)."""

from __future__ import annotations

import runpy

import pytest

from poetic_eval.rhyme.pair_model import default_model


@pytest.fixture(scope="module")
def script(repo_root):
    return runpy.run_path(str(repo_root / "scripts" / "select_rhyme_costs.py"))


def _row(script, link, scheme, exact, random, n_exact=2570, n_random=20_000):
    z_exact, z_random = script["margins"](exact, n_exact, random, n_random)
    return {"link": link, "scheme": scheme, "exact": exact, "random": random,
            "z_exact": z_exact, "z_random": z_random}  # fmt: skip


def test_the_rule_maximises_the_smaller_margin_in_standard_errors(script):
    rows = [
        _row(script, 1.0, 0, 0.960, 0.0716),  # random over its bound
        _row(script, 1.0, 4, 0.952, 0.0541),  # smaller margin: random, 3.7 standard errors
        _row(script, 1.0, 6, 0.949, 0.0529),  # 4.4 and 4.5: the largest smaller margin
        _row(script, 2.5, 8, 0.930, 0.0500),  # exact on its bound
        _row(script, 0.5, 6, 0.980, 0.0400),  # best of all, but a link cost under 1
    ]
    assert min(rows[2]["z_exact"], rows[2]["z_random"]) > 4.3
    assert script["select"](rows) is rows[2]
    # a point of exact share is worth more standard errors on more gold quatrains
    margins = script["margins"]
    assert margins(0.95, 10_000, 0.05, 20_000)[0] > margins(0.95, 2570, 0.05, 20_000)[0]


def test_a_tie_goes_to_the_higher_exact_share(script):
    low = _row(script, 1.0, 6, 0.949, 0.0529)
    high = dict(low, scheme=5, exact=0.9491)
    high["z_random"] = low["z_random"] - 0.01
    assert script["select"]([low, high]) is high


@pytest.mark.slow  # about a minute: 36 settings on 2,570 gold and 20,000 random quatrains
@pytest.mark.needs_shared_data
def test_shipped_costs_are_what_the_rule_selects(script, shared_data):
    chosen = script["select"](script["score_grid"](shared_data, 20_000))
    shipped = default_model("en")
    assert (chosen["link"], chosen["scheme"]) == (shipped.link_cost, shipped.uncertain_scheme_cost)
    assert chosen["exact"] >= 0.93 and chosen["random"] <= 0.06
