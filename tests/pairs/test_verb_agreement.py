"""TSE / EW / MW with cutoffs: hand-computed cases, an independent loop reference, pair parsing."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from poetic_eval.pairs import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    verb_slot,
    verb_slots,
    verb_weighted_agreement,
)

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


# ---------------------------------------------------------------- independent loop reference


def reference_scores(p, label, verbs, cutoffs, bottom):
    """Plain-Python definition: sets by rank, per-lemma loop, linear interpolation."""
    vocab = len(p)
    order = sorted(range(vocab), key=lambda t: (-p[t], t))
    if bottom:
        order = order[::-1]
    total = sum(p)
    cumulative, running = [], 0.0
    for token in order:
        running += p[token]
        cumulative.append(running / total)
    out = []
    for cutoff in cutoffs:
        last = (
            vocab - 1 if cutoff >= 1 else next(i for i, m in enumerate(cumulative) if m >= cutoff)
        )
        mass_pre = cumulative[last - 1] if last > 0 else 0.0
        mass_post = 1.0 if cutoff >= 1 else cumulative[last]
        sides = []
        for size in (last, last + 1):
            members = set(order[:size])
            right = wrong = counted = n_right = 0.0
            for singular, plural in verbs:
                c, w = (singular, plural) if label == -1 else (plural, singular)
                in_c, in_w = c in members, w in members
                if bottom and not (in_c and in_w):
                    continue
                if not (in_c or in_w):
                    continue
                counted += 1
                n_right += p[c] > p[w]
                right += p[c] if in_c else 0.0
                wrong += p[w] if in_w else 0.0
            sides.append(
                (
                    n_right / counted if counted else math.nan,
                    right / (right + wrong) if right + wrong > 0 else math.nan,
                )
            )
        alpha = (cutoff - mass_pre) / (mass_post - mass_pre) if mass_post > mass_pre else 1.0
        pair = []
        for index in (0, 1):
            pre, post = sides[0][index], sides[1][index]
            pre, post = (post if math.isnan(pre) else pre), (pre if math.isnan(post) else post)
            pair.append((1 - alpha) * pre + alpha * post)
        out.append(pair)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_matches_loop_reference_on_random_distributions(seed):
    rng = np.random.default_rng(seed)
    examples, vocab, lemmas = 12, 300, 40
    logits = rng.normal(size=(examples, vocab)) * rng.uniform(0.5, 4)
    logits[:, :10] += 3  # a head of likely tokens, so top cutoffs bite
    tokens = rng.permutation(vocab)[: 2 * lemmas].reshape(lemmas, 2)
    labels = rng.choice([-1, -2], size=examples)
    result = verb_weighted_agreement(
        logits,
        labels,
        [tokens[0, 0]] * examples,
        [tokens[0, 1]] * examples,
        tokens,
        contexts=[str(i) for i in range(examples)],
    )
    probs = np.exp(logits - logits.max(1, keepdims=True))
    probs /= probs.sum(1, keepdims=True)
    for side, cutoffs in (("top", DEFAULT_TOP_CUTOFFS), ("bottom", DEFAULT_BOTTOM_CUTOFFS)):
        per_example = np.array(
            [
                reference_scores(list(row), label, tokens.tolist(), cutoffs, side == "bottom")
                for row, label in zip(probs, labels)
            ]
        )  # (examples, cutoffs, [ew, mw])
        for column, cutoff in enumerate(cutoffs):
            for index, metric in enumerate(("ew", "mw")):
                values = per_example[:, column, index]
                expected = np.nanmean(values) if not np.isnan(values).all() else math.nan
                got = result[f"{metric}_{side}_{cutoff:g}"]
                assert got == pytest.approx(expected, abs=1e-9, nan_ok=True), (metric, side, cutoff)
                assert result[f"invalid_{side}_{cutoff:g}"] == int(
                    np.isnan(per_example[:, column, 0]).sum()
                )


@pytest.mark.parametrize("vocab, lemmas, decimals", [(300, 40, 1), (1200, 300, 0)])
def test_tied_probabilities_match_loop_reference(vocab, lemmas, decimals):
    # rounded logits tie often: a few tied forms per row are counted one by one; with hundreds
    # of tied forms per row (second case) the arg-sort path is taken
    rng = np.random.default_rng(7)
    logits = np.round(rng.normal(size=(6, vocab)) * 2, decimals)
    tokens = rng.permutation(vocab)[: 2 * lemmas].reshape(lemmas, 2)
    labels = rng.choice([-1, -2], size=6)
    result = verb_weighted_agreement(
        logits,
        labels,
        [tokens[0, 0]] * 6,
        [tokens[0, 1]] * 6,
        tokens,
        contexts=[str(i) for i in range(6)],
    )
    probs = np.exp(logits - logits.max(1, keepdims=True))
    probs /= probs.sum(1, keepdims=True)
    for side, cutoffs in (("top", DEFAULT_TOP_CUTOFFS), ("bottom", DEFAULT_BOTTOM_CUTOFFS)):
        per_example = np.array(
            [
                reference_scores(list(row), label, tokens.tolist(), cutoffs, side == "bottom")
                for row, label in zip(probs, labels)
            ]
        )
        for column, cutoff in enumerate(cutoffs):
            for index, metric in enumerate(("ew", "mw")):
                values = per_example[:, column, index]
                expected = np.nanmean(values) if not np.isnan(values).all() else math.nan
                got = result[f"{metric}_{side}_{cutoff:g}"]
                assert got == pytest.approx(expected, abs=1e-9, nan_ok=True), (metric, side, cutoff)


def test_input_types_agree_and_softmax_makes_logits_and_log_probs_equal():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(6, 80)).astype(np.float32)
    verbs = rng.permutation(80)[:20].reshape(10, 2)
    args = ([-1, -2] * 3, [0] * 6, [1] * 6, verbs)
    base = verb_weighted_agreement(logits, *args)
    log_probs = torch.log_softmax(torch.from_numpy(logits), -1)
    for variant in (logits.tolist(), torch.from_numpy(logits), log_probs):
        other = verb_weighted_agreement(variant, *args)
        for key in ("tse", "ew", "mw", "ew_top_0.5", "mw_bottom_0.1"):
            assert other[key] == pytest.approx(base[key], abs=1e-6, nan_ok=True)
    as_tensors = verb_weighted_agreement(
        torch.from_numpy(logits).to(torch.bfloat16),
        torch.tensor(args[0]),
        torch.tensor(args[1]),
        torch.tensor(args[2]),
        torch.from_numpy(verbs),
    )
    assert 0 <= as_tensors["ew"] <= 1


def test_batches_larger_than_a_chunk_match_row_by_row():
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(150, 60)) * 3
    labels = rng.choice([-1, -2], size=150)
    verbs = rng.permutation(60)[:30].reshape(15, 2)
    contexts = [str(i) for i in range(150)]
    together = verb_weighted_agreement(
        logits, labels, [2] * 150, [3] * 150, verbs, contexts=contexts, return_details=True
    )
    singles = [
        verb_weighted_agreement(logits[i : i + 1], labels[i : i + 1], [2], [3], verbs)
        for i in range(150)
    ]
    assert together["per_example"]["ew"] == pytest.approx([s["ew"] for s in singles])
    assert together["mw"] == pytest.approx(np.mean([s["mw"] for s in singles]))


@pytest.mark.parametrize(
    "change, error",
    [
        ({"labels": [0]}, ValueError),
        ({"logits": [[0.1, float("nan"), 0.3]]}, ValueError),
        ({"logits": [0.1, 0.2]}, ValueError),
        ({"verb_token_ids": [[0, 0]]}, ValueError),
        ({"verb_token_ids": [[0, 9]]}, ValueError),
        ({"verb_token_ids": [0, 1]}, ValueError),
        ({"correct_ids": [7]}, ValueError),
        ({"correct_ids": [0, 1]}, ValueError),
        ({"top_cutoffs": [0.5]}, ValueError),
        ({"bottom_cutoffs": [0.0]}, ValueError),
        ({"contexts": ["a", "b"]}, ValueError),
    ],
)
def test_bad_input(change, error):
    arguments = {
        "logits": [[0.1, 0.2, 0.3]],
        "labels": [-1],
        "correct_ids": [0],
        "incorrect_ids": [1],
        "verb_token_ids": [[0, 1]],
    }
    arguments.update(change)
    with pytest.raises(error):
        verb_weighted_agreement(**arguments)


# ---------------------------------------------------------------- preprocessing


def test_verb_slot_preprocessing():
    slot = verb_slot(
        "the authors that the guards like laugh", "the authors that the guards like laughs", -2
    )
    assert slot.left == ("The", "authors", "that", "the", "guards", "like")
    assert (slot.right, slot.correct, slot.incorrect) == ((), "laugh", "laughs")
    assert slot.masked_text("[MASK]") == "The authors that the guards like [MASK]."
    assert slot.visible_text("causal") == "The authors that the guards like"
    blimp = verb_slot(
        "A niece of most senators hasn't descended most slopes.",
        "A niece of most senators haven't descended most slopes.",
        -1,
    )
    assert (blimp.correct, blimp.incorrect) == ("hasn't", "haven't")
    assert blimp.masked_text("<mask>") == "A niece of most senators <mask> descended most slopes."
    assert verb_slot('"Dogs bark!"', '"Dogs barks!"', -2).masked_text("[MASK]") == "Dogs [MASK]."
    assert verb_slot("eBay sells", "eBay sell", -1).left == ("EBay",)
    assert verb_slot("the dog barks", "the dog bark", "singular").label == -1
    assert verb_slot("the dogs bark", "the dogs barks", "plural").label == -2


@pytest.mark.parametrize(
    "good, bad, label, message",
    [
        ("the dog barks", "the dog barks", -1, "differ in 0 tokens"),
        ("the dog barks loudly", "a dog bark loudly", -1, "differ in 2 tokens"),
        ("the dog barks", "the dog", -1, "3 and 2 tokens"),
        ("the dog barks", "the dog bark", 1, "label"),
    ],
)
def test_bad_pairs_name_the_row(good, bad, label, message):
    with pytest.raises(ValueError, match=message) as caught:
        verb_slots(["the dogs bark", good], ["the dogs barks", bad], [-2, label])
    assert "row 1" in str(caught.value)


def test_reference_pairs_parse_to_one_differing_word(shared_data):
    folder = shared_data / "refining_tse"
    if not folder.is_dir():
        pytest.skip("refining_tse data absent")
    total = lines = 0
    for path in sorted((folder / "ML").glob("*.jsonl")) + sorted(
        (folder / "blimp").glob("*.jsonl")
    ):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        slots = verb_slots(
            [r["sentence_good"] for r in rows],
            [r["sentence_bad"] for r in rows],
            [r["label"] for r in rows],
        )
        assert all(slot.correct != slot.incorrect and slot.left for slot in slots), path.name
        total += len(slots)
        lines += len(rows)
    assert total == lines > 100_000


# ---------------------------------------------------------------- the evaluate module


@pytest.fixture(scope="module")
def metric():
    import poetic_eval

    return poetic_eval.load_metric("verb_weighted_agreement")


def random_batch(seed, examples=10, vocab=120, lemmas=12):
    rng = np.random.default_rng(seed)
    logits = (rng.normal(size=(examples, vocab)) * 3).astype(np.float32)
    labels = rng.choice([-1, -2], size=examples)
    verbs = np.random.default_rng(99).permutation(vocab)[: 2 * lemmas].reshape(lemmas, 2)
    correct = np.where(labels == -1, verbs[0, 0], verbs[0, 1])
    incorrect = np.where(labels == -1, verbs[0, 1], verbs[0, 0])
    correct[0] = -1  # a pair whose own form is multi-token
    contexts = [f"context {i % 7}" for i in range(examples)]  # some duplicates
    return logits, labels, correct, incorrect, contexts, verbs


def test_metric_add_batch_equals_one_compute_and_the_core(metric):
    batches = [random_batch(seed) for seed in range(3)]
    verbs = batches[0][5]
    for logits, labels, correct, incorrect, contexts, _ in batches:
        metric.add_batch(
            logits=logits,
            labels=labels,
            correct_ids=correct,
            incorrect_ids=incorrect,
            contexts=contexts,
        )
    streamed = metric.compute(verb_token_ids=verbs)
    joined = [np.concatenate([b[i] for b in batches]) for i in range(4)]
    contexts = [c for b in batches for c in b[4]]
    once = metric.compute(
        logits=joined[0],
        labels=joined[1],
        correct_ids=joined[2],
        incorrect_ids=joined[3],
        contexts=contexts,
        verb_token_ids=verbs,
    )
    core = verb_weighted_agreement(*joined, verbs, contexts=contexts)
    assert set(streamed) == set(once) == set(core)
    for key in core:
        assert streamed[key] == pytest.approx(core[key], nan_ok=True), key
        assert once[key] == pytest.approx(core[key], nan_ok=True), key
    assert core["n"] == 30 and core["tse_invalid"] == 3
    assert core["n_unique"] == len(set(zip(contexts, joined[1].tolist()))) < 30


def test_metric_takes_torch_tensors_and_single_examples(metric):
    logits, labels, correct, incorrect, _, verbs = random_batch(5)
    expected = verb_weighted_agreement(logits, labels, correct, incorrect, verbs)
    metric.add_batch(
        logits=torch.from_numpy(logits)[:4],
        labels=torch.from_numpy(labels)[:4],
        correct_ids=torch.from_numpy(correct)[:4],
        incorrect_ids=torch.from_numpy(incorrect)[:4],
    )
    for row in range(4, 10):
        metric.add(
            logits=torch.from_numpy(logits[row]),
            labels=int(labels[row]),
            correct_ids=torch.tensor(correct[row]),
            incorrect_ids=int(incorrect[row]),
        )
    result = metric.compute(verb_token_ids=torch.from_numpy(verbs))
    for key in ("tse", "ew", "mw", "n_unique", "ew_top_0.9", "mw_bottom_0.1"):
        assert result[key] == pytest.approx(expected[key], nan_ok=True), key


def test_metric_details_and_missing_verbs(metric):
    logits, labels, correct, incorrect, contexts, verbs = random_batch(6)
    result = metric.compute(
        logits=logits,
        labels=labels,
        correct_ids=correct,
        incorrect_ids=incorrect,
        contexts=contexts,
        verb_token_ids=verbs,
        lemmas=[f"v{i}" for i in range(len(verbs))],
        return_details=True,
    )
    assert len(result["per_example"]["ew"]) == 10
    assert result["per_lemma"]["lemma"][0] == "v0"
    with pytest.raises(ValueError, match="verb_token_ids"):
        metric.compute(logits=logits, labels=labels, correct_ids=correct, incorrect_ids=incorrect)
