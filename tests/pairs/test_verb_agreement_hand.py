"""TSE / EW / MW with cutoffs on a distribution computed by hand: top and bottom cutoffs,
interpolation, labels, ties, every lemma counted, overall means, deduplication."""

from __future__ import annotations

import math

import numpy as np
import pytest

from poetic_eval.pairs import verb_weighted_agreement

# ---------------------------------------------------------------- hand-computed distributions
# Vocabulary of 6 tokens, p = [.4, .1, .05, .25, .15, .05].
# Lemma A = (singular 0, plural 1), lemma B = (singular 2, plural 3); label singular (-1).
# Top order: 0 (.4), 3 (.25), 4 (.15), 1 (.1), 2 (.05), 5 (.05)  cum .4 .65 .8 .9 .95 1
# Bottom order: 5, 2, 1, 4, 3, 0                                   cum .05 .1 .2 .35 .6 1
HAND_P = np.array([0.4, 0.1, 0.05, 0.25, 0.15, 0.05])
HAND_VERBS = [[0, 1], [2, 3]]


def hand_result(**options):
    return verb_weighted_agreement(
        np.log(HAND_P)[None],
        [-1],
        [0],
        [1],
        HAND_VERBS,
        top_cutoffs=[0.3, 0.4, 0.5, 1.0],
        bottom_cutoffs=[0.05, 0.1, 0.5],
        **options,
    )


def test_headline_is_all_lemmas():
    result = hand_result()
    # EW: A right (.4 > .1), B wrong (.05 < .25); MW: (.4 + .05) / (.4 + .1 + .05 + .25)
    assert result["ew"] == pytest.approx(0.5)
    assert result["mw"] == pytest.approx(0.45 / 0.8)
    assert result["tse"] == 1.0
    assert result["ew"] == result["ew_top_1"] and result["mw"] == result["mw_top_1"]
    assert (result["n"], result["n_unique"], result["n_lemmas"]) == (1, 1, 2)


def test_top_cutoff_between_masses_uses_the_other_side_when_one_set_is_empty():
    # c = .3: S_pre = {} (mass 0, no lemma), S_post = {0} (mass .4): A counts, only c_A in S.
    result = hand_result()
    assert result["ew_top_0.3"] == pytest.approx(1.0)
    assert result["mw_top_0.3"] == pytest.approx(1.0)
    # counted mass: pre 0, post .5 (both forms of A), alpha = .3 / .4
    assert result["mass_top_0.3"] == pytest.approx(0.75 * 0.5)


def test_top_cutoff_exactly_on_a_mass_takes_that_set():
    result = hand_result()
    assert result["ew_top_0.4"] == pytest.approx(1.0)
    assert result["mw_top_0.4"] == pytest.approx(1.0)
    assert result["mass_top_0.4"] == pytest.approx(0.5)


def test_top_cutoff_interpolates_between_sets():
    # c = .5: S_pre = {0} (.4): EW 1, MW 1. S_post = {0, 3} (.65): A and B count (B through w_B);
    # EW 1/2; MW = .4 / (.4 + .25). alpha = (.5 - .4) / (.65 - .4) = .4
    result = hand_result()
    assert result["ew_top_0.5"] == pytest.approx(0.6 * 1 + 0.4 * 0.5)
    assert result["mw_top_0.5"] == pytest.approx(0.6 * 1 + 0.4 * (0.4 / 0.65))


def test_bottom_cutoffs_need_both_forms():
    result = hand_result()
    # .05 -> {5}; .1 -> {5, 2}: no lemma has both forms in the set: invalid
    assert math.isnan(result["ew_bottom_0.05"]) and result["invalid_bottom_0.05"] == 1
    assert math.isnan(result["mw_bottom_0.1"]) and result["invalid_bottom_0.1"] == 1
    # .5: S_pre = {5, 2, 1, 4} (.35) no lemma; S_post adds 3 (.6): B counts, wrong;
    # MW = .05 / .3; counted mass interpolates 0 and .3 with alpha = .15 / .25
    assert result["ew_bottom_0.5"] == pytest.approx(0.0)
    assert result["mw_bottom_0.5"] == pytest.approx(0.05 / 0.3)
    assert result["mass_bottom_0.5"] == pytest.approx(0.6 * 0.3)


def test_plural_label_swaps_the_forms():
    result = verb_weighted_agreement(
        np.log(HAND_P)[None], [-2], [1], [0], HAND_VERBS, top_cutoffs=[1.0], bottom_cutoffs=[0.5]
    )
    assert result["ew"] == pytest.approx(0.5)
    assert result["mw"] == pytest.approx(0.35 / 0.8)
    assert result["tse"] == 0.0


def test_ties_count_as_wrong_and_sorting_ties_follow_token_ids():
    # four tokens of .25; lemma A = (0, 1), B = (2, 3); label singular
    logits = np.zeros((1, 4))
    result = verb_weighted_agreement(
        logits,
        [-1],
        [0],
        [1],
        [[0, 1], [2, 3]],
        top_cutoffs=[0.25, 0.5, 1.0],
        bottom_cutoffs=[0.25],
    )
    assert result["tse"] == 0.0  # z(correct) == z(incorrect)
    assert result["ew"] == 0.0  # both lemmas tied
    assert result["mw"] == pytest.approx(0.5)
    # top .25 -> {0}: A counts through its correct form only
    assert result["ew_top_0.25"] == 0.0 and result["mw_top_0.25"] == pytest.approx(1.0)
    assert result["mw_top_0.5"] == pytest.approx(0.5)
    # bottom order is token 3, 2, 1, 0: .25 -> {3}: nothing has both forms
    assert result["invalid_bottom_0.25"] == 1


def test_every_lemma_counts_not_one():
    # three lemmas, two right: the reference code's index bug kept a single lemma
    p = np.array([0.3, 0.1, 0.2, 0.05, 0.05, 0.3])
    result = verb_weighted_agreement(
        np.log(p)[None],
        [-1],
        [0],
        [1],
        [[0, 1], [2, 3], [4, 5]],
        top_cutoffs=[1.0],
        bottom_cutoffs=[0.5],
    )
    assert result["n_lemmas"] == 3
    assert result["ew"] == pytest.approx(2 / 3)
    assert result["mw"] == pytest.approx(0.55 / 1.0)


def test_overall_is_the_mean_at_each_cutoff_not_the_first_cutoff():
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(5, 50)) * 2
    result = verb_weighted_agreement(
        logits,
        [-1, -2, -1, -2, -1],
        [0] * 5,
        [1] * 5,
        [[0, 1], [2, 3], [4, 5], [6, 7]],
        return_details=True,
    )
    details = result["per_example"]
    assert result["ew"] == pytest.approx(np.mean(details["ew"]))
    assert result["mw"] == pytest.approx(np.mean(details["mw"]))
    assert result["ew"] == result["ew_top_1"] != result["ew_top_0.1"]


def test_multi_token_own_forms_are_invalid_for_tse_only():
    logits = np.log(np.tile(HAND_P, (3, 1)))
    result = verb_weighted_agreement(
        logits, [-1, -1, -1], [0, -1, 0], [1, 1, -1], HAND_VERBS, contexts=["a", "b", "c"]
    )
    assert result["tse_invalid"] == 2 and result["tse"] == 1.0
    assert result["ew_invalid"] == 0 and result["n_unique"] == 3


def test_deduplication_applies_to_ew_mw_only():
    p_good = np.log(HAND_P)
    p_other = np.log(HAND_P[[1, 0, 3, 2, 4, 5]])  # every lemma flipped
    logits = np.stack([p_good, p_good, p_other])
    labels = [-1, -1, -1]
    result = verb_weighted_agreement(
        logits,
        labels,
        [0, 1, 0],
        [1, 0, 1],
        HAND_VERBS,
        contexts=["The authors", "The authors", "The pilot"],
    )
    assert result["n"] == 3 and result["n_unique"] == 2
    assert result["tse"] == pytest.approx(1 / 3)  # every example: 1, 0, 0
    assert result["ew"] == pytest.approx((0.5 + 0.5) / 2)
    # without contexts, bit-identical rows with the same label are the duplicates
    assert (
        verb_weighted_agreement(logits, labels, [0, 1, 0], [1, 0, 1], HAND_VERBS)["n_unique"] == 2
    )
    # the same text with another label is another measurement
    assert (
        verb_weighted_agreement(
            logits, [-1, -2, -1], [0, 1, 0], [1, 0, 1], HAND_VERBS, contexts=["x", "x", "y"]
        )["n_unique"]
        == 3
    )
