"""Subject-verb agreement over a whole verb list: TSE, EW and MW (Newman et al., NAACL 2021).

A minimal pair (sentence_good, sentence_bad) differs in one token, the verb. The model's
distribution ``p = softmax(z)`` over the vocabulary at the verb slot is scored three ways:

* TSE: ``1[z(correct) > z(incorrect)]`` for the example's own verb;
* EW (equally weighted): the share of lemmas ``l`` with ``p(c_l) > p(w_l)``, where ``c_l`` is the
  form of ``l`` that agrees with the label and ``w_l`` the other (ties count as wrong);
* MW (model weighted): ``sum_l p(c_l) / sum_l (p(c_l) + p(w_l))``.

EW and MW are also computed on the most likely ("top") or least likely ("bottom") part of the
vocabulary. Tokens are sorted by ``p`` (descending for top, ascending for bottom; equal
probabilities in token-id order for top and the reverse for bottom) and their mass accumulated.
For a cutoff ``c`` let ``r`` be the first rank whose cumulative mass reaches ``c``; the set
just below is ``S_pre = ranks < r`` (mass ``m_pre < c``) and the set just above is
``S_post = ranks <= r`` (mass ``m_post >= c``). A score is computed on each set and the two are
interpolated linearly, ``(1 - a) * pre + a * post`` with ``a = (c - m_pre) / (m_post - m_pre)``;
when one side has no counted lemma the other side's score is used, and when neither has one
the example is invalid at that cutoff. Top: a lemma counts when either form is in the set, and
each form adds to MW only if it is itself in the set. Bottom: a lemma counts only when both
forms are in the set. A cutoff of 1.0 is the whole vocabulary (so the headline, top 1.0, is
the plain EW / MW over every lemma, whatever rounding does to the last cumulative sums).

Each example's scores are averaged over the valid examples; EW and MW first drop examples whose
model-visible string and label were already seen (TSE keeps every example). Unlike the
public reference code, every lemma of the verb list is used (it kept one) and the overall
numbers are the means at each cutoff, headline at top 1.0 (its "overall" number averaged one
pair per batch at the first top cutoff).

Everything here takes model outputs (logits or log-probabilities, which give the same softmax)
as numpy arrays, torch tensors on any device or nested lists; a batch is moved to the CPU once
and scored with vectorised float64 numpy operations, sorting each row's values once (numpy is
single-threaded and predictable here; the per-row work is small next to the model's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import torch

from .agreement_pairs import pair_tokens, single_token_difference

SINGULAR_LABEL = -1
PLURAL_LABEL = -2
DEFAULT_TOP_CUTOFFS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 1.0)
DEFAULT_BOTTOM_CUTOFFS = (0.5, 0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
HEADLINE_CUTOFF = 1.0
_ROWS_PER_CHUNK = 64  # bounds memory: a chunk holds a few float64 copies of (rows, vocab)
_MAX_TIE_COUNTS_PER_ROW = 256  # beyond this many tied forms per row, an arg-sort is cheaper

ModelKind = Literal["causal", "masked"]


# ---------------------------------------------------------------- pairs -> verb slots


@dataclass(frozen=True)
class VerbSlot:
    """One minimal pair reduced to the verb slot.

    ``left`` and ``right`` are the words of ``sentence_good`` around the verb after
    preprocessing (first word capitalised; ``right`` does not include the final ".").
    """

    left: tuple[str, ...]
    right: tuple[str, ...]
    correct: str
    incorrect: str
    label: int

    @property
    def left_text(self) -> str:
        return " ".join(self.left)

    def masked_text(self, mask_token: str) -> str:
        """``left [MASK] right.`` (the tokenizer adds [CLS] and [SEP])."""
        words = [*self.left, mask_token, *self.right]
        return " ".join(words) + "."

    def visible_text(self, kind: ModelKind, mask_token: str = "[MASK]") -> str:
        """What the model sees: the left context (causal) or the masked sentence (masked)."""
        return self.left_text if kind == "causal" else self.masked_text(mask_token)


def verb_slot(sentence_good: str, sentence_bad: str, label: int, row: int | None = None) -> VerbSlot:
    """Preprocess one pair: strip punctuation at both ends, split on whitespace, find the one
    differing word, capitalise the first word of the context.

    Raises ValueError naming ``row`` when the sentences do not differ in exactly one word.
    """
    where = f"row {row}" if row is not None else "pair"
    label = _check_label(label, where)
    try:
        index, _, _ = single_token_difference(sentence_good, sentence_bad)
    except ValueError as error:
        raise ValueError(f"{where}: {error}; a verb minimal pair differs in the verb only") from None
    good, bad = pair_tokens(sentence_good), pair_tokens(sentence_bad)
    good[0], bad[0] = _capitalized(good[0]), _capitalized(bad[0])
    return VerbSlot(
        left=tuple(good[:index]),
        right=tuple(good[index + 1 :]),
        correct=good[index],
        incorrect=bad[index],
        label=label,
    )


def _capitalized(word: str) -> str:
    # only the first character: str.capitalize() (the reference code's) would also lower the rest
    return word[:1].upper() + word[1:]


def verb_slots(
    sentences_good: Sequence[str], sentences_bad: Sequence[str], labels: Sequence[int]
) -> list[VerbSlot]:
    """:func:`verb_slot` for every row; the three sequences must have the same length."""
    if not (len(sentences_good) == len(sentences_bad) == len(labels)):
        raise ValueError(
            f"sentences_good ({len(sentences_good)}), sentences_bad ({len(sentences_bad)}) and "
            f"labels ({len(labels)}) must have the same length"
        )
    for name, column in (("sentences_good", sentences_good), ("sentences_bad", sentences_bad)):
        for row, value in enumerate(column):
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name}[{row}] must be a non-empty string, got {value!r:.60}")
    return [
        verb_slot(good, bad, label, row)
        for row, (good, bad, label) in enumerate(zip(sentences_good, sentences_bad, labels))
    ]


_LABEL_NAMES = {"singular": SINGULAR_LABEL, "plural": PLURAL_LABEL}


def _check_label(label: Any, where: str) -> int:
    """-1 / -2 (refining-tse's convention) or "singular" / "plural" (the agreement dataset's)."""
    if isinstance(label, str):
        if label not in _LABEL_NAMES:
            raise ValueError(f"{where}: label must be -1, -2, 'singular' or 'plural', got {label!r}")
        return _LABEL_NAMES[label]
    if isinstance(label, (bool, np.bool_)) or not isinstance(label, (int, np.integer)) or int(label) not in (
        SINGULAR_LABEL, PLURAL_LABEL
    ):
        raise ValueError(f"{where}: label must be -1, -2, 'singular' or 'plural', got {label!r}")
    return int(label)


# ---------------------------------------------------------------- per-example scores


@dataclass
class SlotScores:
    """Scores of a set of examples; NaN marks an invalid example (at that cutoff).

    ``tse`` has one entry per example of ``examples`` (example indices). EW / MW are computed
    once per distinct model view and label: the ``*_top`` / ``*_bottom`` arrays have one row per
    index of ``distinct_examples`` and one column per cutoff; ``mass_*`` is the probability mass
    of the counted lemmas' two forms (interpolated like the scores). The ``lemma_*`` arrays
    are sums over the distinct examples, one entry per lemma: how often the agreeing form was
    more likely, and the probabilities of the agreeing and the other form.
    """

    examples: np.ndarray
    tse: np.ndarray
    distinct_examples: np.ndarray
    ew_top: np.ndarray
    mw_top: np.ndarray
    ew_bottom: np.ndarray
    mw_bottom: np.ndarray
    mass_top: np.ndarray
    mass_bottom: np.ndarray
    lemma_agreements: np.ndarray
    lemma_correct_probs: np.ndarray
    lemma_incorrect_probs: np.ndarray

    @staticmethod
    def concatenate(parts: Sequence[SlotScores]) -> SlotScores:
        """Join the scores of disjoint sets of examples, in example order."""
        examples = np.concatenate([part.examples for part in parts])
        distinct = np.concatenate([part.distinct_examples for part in parts])
        by_example, by_distinct = np.argsort(examples, kind="stable"), np.argsort(distinct, kind="stable")
        rows = {name: np.concatenate([getattr(part, name) for part in parts])[by_distinct]
                for name in ("ew_top", "mw_top", "ew_bottom", "mw_bottom", "mass_top", "mass_bottom")}
        sums = {name: np.sum([getattr(part, name) for part in parts], axis=0)
                for name in ("lemma_agreements", "lemma_correct_probs", "lemma_incorrect_probs")}
        tse = np.concatenate([part.tse for part in parts])[by_example]
        return SlotScores(examples[by_example], tse, distinct[by_distinct], **rows, **sums)


def score_verb_slots(
    logits: Any,
    labels: Any,
    correct_ids: Any,
    incorrect_ids: Any,
    verb_token_ids: Any,
    *,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    views: Any = None,
    distinct: Any = None,
    examples: Any = None,
) -> SlotScores:
    """Score verb-slot distributions.

    Args:
        logits: (views, vocab) logits or log-probabilities (list, numpy or torch, any device),
            one row per distinct model view; with ``views`` None, one row per example.
        labels: per example, -1 where the singular form is correct, -2 where the plural form is.
        correct_ids, incorrect_ids: per example, the token id of its own correct / incorrect verb
            form, or -1 where that form is not a single token (invalid for TSE).
        verb_token_ids: (lemmas, 2) token ids of each lemma's [singular, plural] form, only for
            lemmas whose two forms are single tokens.
        top_cutoffs, bottom_cutoffs: mass cutoffs in (0, 1].
        views: per example, the row of ``logits`` it reads (default: example i reads row i).
        distinct: per example, True for the first example of its (view, label), the ones EW / MW
            score (default: all).
        examples: per example, its index in the whole run (default 0, 1, ...), for joining
            the scores of several batches with :meth:`SlotScores.concatenate`.
    """
    matrix = _as_cpu_matrix(logits, "logits")
    n_views, vocab = matrix.shape
    labels_array = _labels_array(labels)
    n = labels_array.shape[0]
    view_rows = np.arange(n) if views is None else _as_int_vector(views, "views", n)
    if view_rows.size and (view_rows.min() < 0 or view_rows.max() >= n_views):
        raise ValueError(f"logits has {n_views} rows; every example needs one (views or one row each)")
    correct = _as_int_vector(correct_ids, "correct_ids", n)
    incorrect = _as_int_vector(incorrect_ids, "incorrect_ids", n)
    for name, ids in (("correct_ids", correct), ("incorrect_ids", incorrect)):
        bad = np.flatnonzero((ids < -1) | (ids >= vocab))
        if bad.size:
            raise ValueError(f"{name}[{bad[0]}] = {ids[bad[0]]} is outside -1..{vocab - 1}")
    verbs = _verb_id_matrix(verb_token_ids, vocab)
    top = _check_cutoffs(top_cutoffs, "top_cutoffs")
    bottom = _check_cutoffs(bottom_cutoffs, "bottom_cutoffs")
    keep = np.ones(n, dtype=bool) if distinct is None else np.asarray(distinct, dtype=bool)
    if keep.shape != (n,):
        raise ValueError(f"distinct must have one flag per example ({n}), got shape {keep.shape}")
    index = np.arange(n) if examples is None else _as_int_vector(examples, "examples", n)

    tse = _tse(matrix, view_rows, correct, incorrect)
    chosen = np.flatnonzero(keep)
    parts = [
        _lemma_scores(matrix[torch.as_tensor(view_rows[rows])], labels_array[rows], verbs, top, bottom)
        for rows in np.array_split(chosen, max(1, -(-chosen.size // _ROWS_PER_CHUNK)))
    ]
    rows = {name: np.concatenate([part[name] for part in parts]) for name in parts[0] if name != "lemma"}
    sums = {name: np.sum([part["lemma"][name] for part in parts], axis=0) for name in parts[0]["lemma"]}
    return SlotScores(index, tse, index[chosen], **rows, **sums)


def _lemma_scores(
    logits: torch.Tensor, labels: np.ndarray, verbs: np.ndarray, top: np.ndarray, bottom: np.ndarray
) -> dict[str, Any]:
    """EW / MW / mass at every cutoff and per-lemma sums for rows of logits (one per example)."""
    rows, vocab = logits.shape
    if rows == 0:
        empty = {name: np.zeros((0, len(cutoffs))) for name, cutoffs in
                 (("ew_top", top), ("mw_top", top), ("mass_top", top),
                  ("ew_bottom", bottom), ("mw_bottom", bottom), ("mass_bottom", bottom))}
        zeros = {name: np.zeros(len(verbs)) for name in
                 ("lemma_agreements", "lemma_correct_probs", "lemma_incorrect_probs")}
        return {**empty, "lemma": zeros}
    probs = torch.softmax(logits.to(torch.float64), dim=-1).numpy()
    plural_correct = (labels == PLURAL_LABEL)[:, None]
    correct_ids = np.where(plural_correct, verbs[:, 1], verbs[:, 0])  # (rows, lemmas)
    incorrect_ids = np.where(plural_correct, verbs[:, 0], verbs[:, 1])
    p_correct = np.take_along_axis(probs, correct_ids, 1)
    p_incorrect = np.take_along_axis(probs, incorrect_ids, 1)

    ascending, rank_correct, rank_incorrect = _sorted_and_ranks(probs, correct_ids, incorrect_ids)
    top_view = _LemmaView(p_correct, p_incorrect, rank_correct, rank_incorrect)
    ew_top, mw_top, mass_top = _cutoff_scores(ascending[:, ::-1], top_view, top, bottom_side=False)
    bottom_view = _LemmaView(p_correct, p_incorrect, vocab - 1 - rank_correct, vocab - 1 - rank_incorrect)
    ew_bot, mw_bot, mass_bot = _cutoff_scores(ascending, bottom_view, bottom, bottom_side=True)
    lemma = {
        "lemma_agreements": (p_correct > p_incorrect).sum(0).astype(np.float64),
        "lemma_correct_probs": p_correct.sum(0),
        "lemma_incorrect_probs": p_incorrect.sum(0),
    }
    return {"ew_top": ew_top, "mw_top": mw_top, "mass_top": mass_top, "ew_bottom": ew_bot,
            "mw_bottom": mw_bot, "mass_bottom": mass_bot, "lemma": lemma}


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
    return np.stack([np.searchsorted(row, wanted, side=side) for row, wanted in zip(sorted_rows, values)])


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
    counted = _PrefixSums(membership, {"n": np.ones_like(pc), "better": (pc > pw).astype(np.float64),
                                       "mass": pc + pw, "right": pc, "wrong": pw})
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
            name: np.concatenate([zero, np.cumsum(np.take_along_axis(value, order, 1), axis=1)], axis=1)
            for name, value in values.items()
        }

    def below(self, thresholds: np.ndarray, name: str) -> np.ndarray:
        count = _row_searchsorted(self.keys, thresholds, "left")
        return np.take_along_axis(self.sums[name], count, 1)


def _tse(logits: torch.Tensor, views: np.ndarray, correct: np.ndarray, incorrect: np.ndarray) -> np.ndarray:
    valid = (correct >= 0) & (incorrect >= 0)
    rows = torch.as_tensor(views)
    z_correct = logits[rows, torch.as_tensor(np.maximum(correct, 0))]
    z_incorrect = logits[rows, torch.as_tensor(np.maximum(incorrect, 0))]
    wins = (z_correct > z_incorrect).numpy().astype(np.float64)
    return np.where(valid, wins, np.nan)


# ---------------------------------------------------------------- aggregation


def aggregate_verb_agreement(
    scores: SlotScores,
    *,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    lemmas: Sequence[str] | None = None,
    return_details: bool = False,
) -> dict[str, Any]:
    """Means over valid examples: headline ``tse``, ``ew``, ``mw`` (top cutoff 1.0) and every cutoff.

    EW and MW use the distinct examples (first of each model view and label); TSE every example.
    Keys: ``tse``, ``ew``, ``mw``, ``n`` (examples), ``n_unique`` (after deduplication),
    ``n_lemmas``, ``tse_invalid``, ``ew_invalid``, ``mw_invalid``, then for each top cutoff
    ``c`` ``ew_top_{c}``, ``mw_top_{c}``, ``invalid_top_{c}``, ``mass_top_{c}`` and the same with
    ``bottom``; ``{c}`` is written with Python's ``format(c, "g")``. ``return_details`` adds
    ``per_example`` (lists; EW / MW are NaN for duplicates) and, with ``lemmas``, ``per_lemma``.
    """
    top = [float(c) for c in top_cutoffs]
    bottom = [float(c) for c in bottom_cutoffs]
    if HEADLINE_CUTOFF not in top:
        raise ValueError("top_cutoffs must include 1.0, the headline cutoff")
    if scores.ew_top.shape[1] != len(top) or scores.ew_bottom.shape[1] != len(bottom):
        raise ValueError("the cutoffs differ from those the scores were computed with")
    headline = top.index(HEADLINE_CUTOFF)
    result: dict[str, Any] = {
        "tse": _nanmean(scores.tse),
        "ew": _nanmean(scores.ew_top[:, headline]),
        "mw": _nanmean(scores.mw_top[:, headline]),
        "n": int(scores.tse.shape[0]),
        "n_unique": int(scores.distinct_examples.shape[0]),
        "n_lemmas": int(scores.lemma_agreements.shape[0]),
        "tse_invalid": int(np.isnan(scores.tse).sum()),
        "ew_invalid": int(np.isnan(scores.ew_top[:, headline]).sum()),
        "mw_invalid": int(np.isnan(scores.mw_top[:, headline]).sum()),
    }
    for side, cutoffs, ew, mw, mass in (
        ("top", top, scores.ew_top, scores.mw_top, scores.mass_top),
        ("bottom", bottom, scores.ew_bottom, scores.mw_bottom, scores.mass_bottom),
    ):
        for column, cutoff in enumerate(cutoffs):
            name = f"{side}_{cutoff:g}"
            result[f"ew_{name}"] = _nanmean(ew[:, column])
            result[f"mw_{name}"] = _nanmean(mw[:, column])
            result[f"invalid_{name}"] = int(np.isnan(ew[:, column]).sum())
            result[f"mass_{name}"] = float(mass[:, column].mean()) if mass.shape[0] else float("nan")
    if return_details:
        result["per_example"] = _per_example(scores, headline)
        if lemmas is not None:
            result["per_lemma"] = _per_lemma(scores, lemmas)
    return result


def _per_example(scores: SlotScores, headline: int) -> dict[str, list]:
    position = {int(example): i for i, example in enumerate(scores.examples)}
    ew = np.full(scores.tse.shape[0], np.nan)
    mw = np.full(scores.tse.shape[0], np.nan)
    rows = [position[int(example)] for example in scores.distinct_examples]
    ew[rows] = scores.ew_top[:, headline]
    mw[rows] = scores.mw_top[:, headline]
    duplicate = np.ones(scores.tse.shape[0], dtype=bool)
    duplicate[rows] = False
    return {"tse": scores.tse.tolist(), "ew": ew.tolist(), "mw": mw.tolist(),
            "duplicate": duplicate.tolist()}


def _per_lemma(scores: SlotScores, lemmas: Sequence[str]) -> dict[str, list]:
    if len(lemmas) != scores.lemma_agreements.shape[0]:
        raise ValueError(f"lemmas has {len(lemmas)} names for {scores.lemma_agreements.shape[0]} lemmas")
    count = max(1, scores.distinct_examples.shape[0])
    return {
        "lemma": list(lemmas),
        "agreement": (scores.lemma_agreements / count).tolist(),
        "mean_correct_prob": (scores.lemma_correct_probs / count).tolist(),
        "mean_incorrect_prob": (scores.lemma_incorrect_probs / count).tolist(),
    }


def first_occurrences(keys: Sequence[Any]) -> np.ndarray:
    """True for the first item of each distinct key."""
    seen: set = set()
    flags = np.zeros(len(keys), dtype=bool)
    for index, key in enumerate(keys):
        if key not in seen:
            seen.add(key)
            flags[index] = True
    return flags


def verb_weighted_agreement(
    logits: Any,
    labels: Any,
    correct_ids: Any,
    incorrect_ids: Any,
    verb_token_ids: Any,
    *,
    contexts: Sequence[str] | None = None,
    top_cutoffs: Sequence[float] = DEFAULT_TOP_CUTOFFS,
    bottom_cutoffs: Sequence[float] = DEFAULT_BOTTOM_CUTOFFS,
    lemmas: Sequence[str] | None = None,
    return_details: bool = False,
) -> dict[str, Any]:
    """TSE, EW and MW from one row of verb-slot logits per example.

    ``contexts`` (the model-visible strings) identify duplicates for EW/MW together with the
    label; for examples without one (``contexts`` None, or an item None or ""), examples with
    bit-identical logits and the same label are duplicates. See :func:`score_verb_slots` for
    the other arguments and :func:`aggregate_verb_agreement` for the result.
    """
    matrix = _as_cpu_matrix(logits, "logits")
    labels_array = _labels_array(labels)
    if labels_array.shape[0] != matrix.shape[0]:
        raise ValueError(f"labels has {labels_array.shape[0]} items for {matrix.shape[0]} rows of logits")
    if contexts is not None and len(contexts) != labels_array.shape[0]:
        raise ValueError(f"contexts has {len(contexts)} items for {labels_array.shape[0]} labels")
    contexts = [None] * labels_array.shape[0] if contexts is None else list(contexts)
    keys = [
        (context, int(label)) if context else (_row_digest(matrix[row]), int(label))
        for row, (context, label) in enumerate(zip(contexts, labels_array))
    ]
    scores = score_verb_slots(matrix, labels_array, correct_ids, incorrect_ids, verb_token_ids,
                              top_cutoffs=top_cutoffs, bottom_cutoffs=bottom_cutoffs,
                              distinct=first_occurrences(keys))
    return aggregate_verb_agreement(scores, top_cutoffs=top_cutoffs, bottom_cutoffs=bottom_cutoffs,
                                    lemmas=lemmas, return_details=return_details)


# ---------------------------------------------------------------- input conversion


def _as_cpu_matrix(values: Any, name: str) -> torch.Tensor:
    if isinstance(values, torch.Tensor):
        matrix = values.detach().to("cpu")
        if matrix.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
            matrix = matrix.to(torch.float32)
    else:
        try:
            array = np.asarray(values, dtype=np.float64 if _is_float64(values) else np.float32)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{name} must be a (examples, vocab) array of floats: {error}") from None
        matrix = torch.from_numpy(array)
    if matrix.ndim != 2:
        raise ValueError(f"{name} must have shape (examples, vocab), got shape {tuple(matrix.shape)}")
    if matrix.shape[0] and matrix.shape[1] < 2:
        raise ValueError(f"{name} needs at least 2 vocabulary entries, got {matrix.shape[1]}")
    finite = torch.isfinite(matrix.to(torch.float32)) | (matrix == -torch.inf)
    if not bool(finite.all()):
        row = int((~finite).any(1).nonzero()[0, 0])
        raise ValueError(f"{name}[{row}] contains NaN or +inf")
    return matrix


def _is_float64(values: Any) -> bool:
    return isinstance(values, np.ndarray) and values.dtype == np.float64


def _as_int_vector(values: Any, name: str, length: int | None) -> np.ndarray:
    if isinstance(values, torch.Tensor):
        values = values.detach().to("cpu").numpy()
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a flat sequence of integers, got shape {array.shape}")
    whole_floats = np.issubdtype(array.dtype, np.floating) and np.all(array == np.round(array))
    if array.size and not np.issubdtype(array.dtype, np.integer) and not whole_floats:
        raise TypeError(f"{name} must hold integers, got dtype {array.dtype}")
    if length is not None and array.shape[0] != length:
        raise ValueError(f"{name} has {array.shape[0]} items for {length} examples")
    return array.astype(np.int64)


def _labels_array(labels: Any) -> np.ndarray:
    if isinstance(labels, torch.Tensor):
        labels = labels.detach().to("cpu").numpy()
    values = labels.tolist() if isinstance(labels, np.ndarray) else list(labels)
    return np.asarray([_check_label(label, f"labels[{row}]") for row, label in enumerate(values)],
                      dtype=np.int64)


def _verb_id_matrix(verb_token_ids: Any, vocab: int) -> np.ndarray:
    if isinstance(verb_token_ids, torch.Tensor):
        verb_token_ids = verb_token_ids.detach().to("cpu").numpy()
    ids = np.asarray(verb_token_ids, dtype=np.int64)
    if ids.ndim != 2 or ids.shape[1] != 2 or ids.shape[0] == 0:
        raise ValueError(
            f"verb_token_ids must have shape (lemmas, 2) = [singular id, plural id] per lemma, "
            f"got shape {ids.shape}"
        )
    bad = np.flatnonzero(((ids < 0) | (ids >= vocab)).any(1))
    if bad.size:
        raise ValueError(f"verb_token_ids[{bad[0]}] = {ids[bad[0]].tolist()} is outside 0..{vocab - 1}")
    same = np.flatnonzero(ids[:, 0] == ids[:, 1])
    if same.size:
        raise ValueError(f"verb_token_ids[{same[0]}]: singular and plural are the same token")
    return ids


def _check_cutoffs(cutoffs: Iterable[float], name: str) -> np.ndarray:
    values = list(cutoffs)
    if not values:
        raise ValueError(f"{name} must list at least one cutoff")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
            raise ValueError(f"{name} must hold numbers in (0, 1], got {value!r}")
    return np.asarray(values, dtype=np.float64)


def _row_digest(row: torch.Tensor) -> bytes:
    if row.dtype in (torch.float16, torch.bfloat16):  # numpy has no bfloat16; float32 is exact
        row = row.to(torch.float32)
    return hashlib.blake2b(row.contiguous().numpy().tobytes(), digest_size=16).digest()


def _nanmean(values: np.ndarray) -> float:
    valid = values[~np.isnan(values)]
    return float(valid.mean()) if valid.size else float("nan")
