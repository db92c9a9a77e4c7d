"""EW and MW on the most or least likely part of the vocabulary (Newman et al.'s cutoffs).

Tokens are sorted by probability (descending for top, ascending for bottom; equal
probabilities in token-id order for top and the reverse for bottom) and their mass
accumulated. For a cutoff ``c`` the sets just below and just above ``c`` are scored and the
two interpolated linearly (see :mod:`poetic_eval.pairs.verb_agreement.scores`). Everything is
vectorised over rows (examples) and lemmas in float64 numpy, sorting each row's values once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from ...agreement.agreement_pairs import PLURAL, TSE_LABELS

_MAX_TIE_COUNTS_PER_ROW = 256  # beyond this many tied forms per row, an arg-sort is cheaper


def lemma_cutoff_scores(
    logits: torch.Tensor, labels: np.ndarray, verbs: np.ndarray, top: np.ndarray, bottom: np.ndarray
) -> dict[str, Any]:
    """EW / MW / mass at every cutoff and per-lemma sums for rows of logits (one per example)."""
    rows, vocab = logits.shape
    if rows == 0:
        empty = {
            name: np.zeros((0, len(cutoffs)))
            for name, cutoffs in (
                ("ew_top", top),
                ("mw_top", top),
                ("mass_top", top),
                ("ew_bottom", bottom),
                ("mw_bottom", bottom),
                ("mass_bottom", bottom),
            )
        }
        zeros = {
            name: np.zeros(len(verbs))
            for name in ("lemma_agreements", "lemma_correct_probs", "lemma_incorrect_probs")
        }
        return {**empty, "lemma": zeros}
    # float64 before the softmax: the bottom cutoffs reach 1e-6 of the mass, close to the
    # rounding error of float32 sums over a vocabulary of 50,000 tokens
    probs = torch.softmax(logits.to(torch.float64), dim=-1).numpy()
    plural_correct = (labels == TSE_LABELS[PLURAL])[:, None]
    correct_ids = np.where(plural_correct, verbs[:, 1], verbs[:, 0])  # (rows, lemmas)
    incorrect_ids = np.where(plural_correct, verbs[:, 0], verbs[:, 1])
    p_correct = np.take_along_axis(probs, correct_ids, 1)
    p_incorrect = np.take_along_axis(probs, incorrect_ids, 1)

    ascending, rank_correct, rank_incorrect = _sorted_and_ranks(probs, correct_ids, incorrect_ids)
    top_view = _LemmaView(p_correct, p_incorrect, rank_correct, rank_incorrect)
    ew_top, mw_top, mass_top = _cutoff_scores(ascending[:, ::-1], top_view, top, bottom_side=False)
    bottom_view = _LemmaView(
        p_correct, p_incorrect, vocab - 1 - rank_correct, vocab - 1 - rank_incorrect
    )
    ew_bot, mw_bot, mass_bot = _cutoff_scores(ascending, bottom_view, bottom, bottom_side=True)
    lemma = {
        "lemma_agreements": (p_correct > p_incorrect).sum(0).astype(np.float64),
        "lemma_correct_probs": p_correct.sum(0),
        "lemma_incorrect_probs": p_incorrect.sum(0),
    }
    return {
        "ew_top": ew_top,
        "mw_top": mw_top,
        "mass_top": mass_top,
        "ew_bottom": ew_bot,
        "mw_bottom": mw_bot,
        "mass_bottom": mass_bot,
        "lemma": lemma,
    }


def _sorted_and_ranks(
    probs: np.ndarray, correct_ids: np.ndarray, incorrect_ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Probabilities sorted in ascending order, and the rank of each form in descending order
    (equal probabilities ranked by token id; the bottom order is the reverse).

    Sorting values alone is an order of magnitude faster than an arg-sort: a form's rank is the
    number of more probable tokens plus, when its probability is shared (float32 logits often
    tie), the number of tokens of equal probability and smaller id, counted for those forms
    only. When most forms are tied (bfloat16 logits) a stable arg-sort is cheaper.
    """
    rows, vocab = probs.shape
    ascending = np.sort(probs, axis=1)
    form_ids = np.concatenate([correct_ids, incorrect_ids], axis=1)
    form_probs = np.take_along_axis(probs, form_ids, 1)
    at_most = _row_searchsorted(ascending, form_probs, "right")
    shared = at_most - _row_searchsorted(ascending, form_probs, "left") > 1
    if shared.sum() > _MAX_TIE_COUNTS_PER_ROW * rows:
        order = np.argsort(-probs, axis=1, kind="stable")
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.broadcast_to(np.arange(vocab), order.shape), 1)
        form_ranks = np.take_along_axis(rank, form_ids, 1)
    else:
        form_ranks = vocab - at_most + _earlier_ties(probs, form_ids, shared)
    lemmas = correct_ids.shape[1]
    return ascending, form_ranks[:, :lemmas], form_ranks[:, lemmas:]


def _earlier_ties(probs: np.ndarray, form_ids: np.ndarray, shared: np.ndarray) -> np.ndarray:
    """For each shared form, the number of tokens of equal probability and smaller id."""
    counts = np.zeros(form_ids.shape, dtype=np.int64)
    token_ids = np.arange(probs.shape[1])
    for row in np.flatnonzero(shared.any(1)):  # one (tied forms, vocab) comparison per row
        tied = np.flatnonzero(shared[row])
        tokens = form_ids[row, tied][:, None]
        equal = probs[row][None, :] == probs[row, tokens]
        counts[row, tied] = (equal & (token_ids < tokens)).sum(1)
    return counts


def _row_searchsorted(sorted_rows: np.ndarray, values: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted`` of each row of ``values`` in the same row of ``sorted_rows``."""
    return np.stack(
        [np.searchsorted(row, wanted, side=side) for row, wanted in zip(sorted_rows, values)]
    )


@dataclass
class _LemmaView:
    p_correct: np.ndarray  # (rows, lemmas)
    p_incorrect: np.ndarray
    rank_correct: np.ndarray  # rank in the order the cutoff accumulates mass
    rank_incorrect: np.ndarray


def _cutoff_scores(
    ordered_probs: np.ndarray, view: _LemmaView, cutoffs: np.ndarray, *, bottom_side: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """EW, MW and counted mass per (row, cutoff), interpolated between the sets around a cutoff.

    A set is "the first ``t`` ranks", so each per-lemma sum over a set is a prefix sum over the
    lemmas sorted by the rank that decides their membership: no (row, lemma, cutoff) array.
    """
    rows, vocab = ordered_probs.shape
    cumulative = np.cumsum(ordered_probs, axis=1)
    cumulative /= cumulative[:, -1:]
    targets = np.broadcast_to(cutoffs, (rows, len(cutoffs)))
    whole = targets >= 1.0  # cutoff 1.0 is the whole vocabulary, whatever the rounding
    last = np.minimum(_row_searchsorted(cumulative, targets, "left"), vocab - 1)
    last = np.where(whole, vocab - 1, last)
    mass_post = np.where(whole, 1.0, np.take_along_axis(cumulative, last, 1))
    mass_pre = np.where(last > 0, np.take_along_axis(cumulative, np.maximum(last - 1, 0), 1), 0.0)

    pc, pw = view.p_correct, view.p_incorrect
    rc, rw = view.rank_correct, view.rank_incorrect
    # a lemma counts from the rank of its first form (top) or of its second form (bottom)
    membership = np.maximum(rc, rw) if bottom_side else np.minimum(rc, rw)
    counted = _PrefixSums(
        membership,
        {
            "n": np.ones_like(pc),
            "better": (pc > pw).astype(np.float64),
            "mass": pc + pw,
            "right": pc,
            "wrong": pw,
        },
    )
    by_correct = _PrefixSums(rc, {"right": pc})
    by_incorrect = _PrefixSums(rw, {"wrong": pw})
    sides = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for size in (last, last + 1):  # S_pre: ranks < last; S_post: ranks <= last
            n = counted.below(size, "n")
            ew = np.where(n > 0, counted.below(size, "better") / n, np.nan)
            if bottom_side:
                right, wrong = counted.below(size, "right"), counted.below(size, "wrong")
            else:
                right, wrong = by_correct.below(size, "right"), by_incorrect.below(size, "wrong")
            total = right + wrong
            mw = np.where(total > 0, right / total, np.nan)
            sides.append((ew, mw, counted.below(size, "mass")))
        span = mass_post - mass_pre
        alpha = np.clip(np.where(span > 0, (targets - mass_pre) / span, 1.0), 0.0, 1.0)
    results = []
    for pre, post in zip(sides[0], sides[1]):
        pre, post = np.where(np.isnan(pre), post, pre), np.where(np.isnan(post), pre, post)
        results.append((1 - alpha) * pre + alpha * post)
    return results[0], results[1], results[2]


class _PrefixSums:
    """Per-row sums of lemma values over the lemmas whose key is below a threshold."""

    def __init__(self, keys: np.ndarray, values: dict[str, np.ndarray]):
        order = np.argsort(keys, axis=1, kind="stable")
        self.keys = np.take_along_axis(keys, order, 1)
        zero = np.zeros((keys.shape[0], 1))
        self.sums = {
            name: np.concatenate(
                [zero, np.cumsum(np.take_along_axis(value, order, 1), axis=1)], axis=1
            )
            for name, value in values.items()
        }

    def below(self, thresholds: np.ndarray, name: str) -> np.ndarray:
        count = _row_searchsorted(self.keys, thresholds, "left")
        return np.take_along_axis(self.sums[name], count, 1)
