"""TSE / EW / MW against an independent per-lemma loop on random and tied distributions; input
types, chunked batches and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from poetic_eval.pairs import DEFAULT_BOTTOM_CUTOFFS, DEFAULT_TOP_CUTOFFS, verb_weighted_agreement

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
    "change, message",
    [
        ({"labels": [0]}, r"labels\[0\]: label must be -1, -2"),
        ({"logits": [[0.1, float("nan"), 0.3]]}, r"logits\[0\] contains NaN"),
        ({"logits": [0.1, 0.2]}, r"logits must have shape \(examples, vocab\)"),
        ({"verb_token_ids": [[0, 0]]}, r"verb_token_ids\[0\]: singular and plural are the same"),
        ({"verb_token_ids": [[0, 9]]}, r"verb_token_ids\[0\] = \[0, 9\] is outside 0\.\.2"),
        ({"verb_token_ids": [0, 1]}, r"verb_token_ids must have shape \(lemmas, 2\)"),
        ({"correct_ids": [7]}, r"correct_ids\[0\] = 7 is outside -1\.\.2"),
        ({"correct_ids": [0, 1]}, r"correct_ids has 2 items for 1 examples"),
        ({"top_cutoffs": [0.5]}, r"top_cutoffs must include 1\.0"),
        ({"bottom_cutoffs": [0.0]}, r"bottom_cutoffs must hold numbers in \(0, 1\]"),
        ({"contexts": ["a", "b"]}, r"contexts has 2 items for 1 labels"),
    ],
)
def test_bad_input(change, message):
    arguments = {
        "logits": [[0.1, 0.2, 0.3]],
        "labels": [-1],
        "correct_ids": [0],
        "incorrect_ids": [1],
        "verb_token_ids": [[0, 1]],
    }
    arguments.update(change)
    with pytest.raises(ValueError, match=message):
        verb_weighted_agreement(**arguments)
