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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from ...errors import InvalidValueError
from .cutoffs import lemma_cutoff_scores
from .model_outputs import as_cpu_matrix, as_int_vector, check_cutoffs, tse_labels, verb_id_matrix

# the cutoffs of shared/specs/minimal_pairs.md ("Cutoffs"); 1.0 must stay in the top
# list, as the headline is read there
DEFAULT_TOP_CUTOFFS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 1.0)
DEFAULT_BOTTOM_CUTOFFS = (0.5, 0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
HEADLINE_CUTOFF = 1.0
_ROWS_PER_CHUNK = 64  # bounds memory: a chunk holds a few float64 copies of (rows, vocab)


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
        by_example, by_distinct = (
            # parts may come in any order (batches of views): sorted back to example order
            np.argsort(examples, kind="stable"),
            np.argsort(distinct, kind="stable"),
        )
        rows = {
            name: np.concatenate([getattr(part, name) for part in parts])[by_distinct]
            for name in ("ew_top", "mw_top", "ew_bottom", "mw_bottom", "mass_top", "mass_bottom")
        }
        sums = {
            name: np.sum([getattr(part, name) for part in parts], axis=0)
            for name in ("lemma_agreements", "lemma_correct_probs", "lemma_incorrect_probs")
        }
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
    matrix = as_cpu_matrix(logits, "logits")
    n_views, vocab = matrix.shape
    labels_array = tse_labels(labels)
    n = labels_array.shape[0]
    view_rows = np.arange(n) if views is None else as_int_vector(views, "views", n)
    if view_rows.size and (view_rows.min() < 0 or view_rows.max() >= n_views):
        raise InvalidValueError(
            f"logits has {n_views} rows; every example needs one (views or one row each)"
        )
    correct = _token_ids(correct_ids, "correct_ids", n, vocab)
    incorrect = _token_ids(incorrect_ids, "incorrect_ids", n, vocab)
    verbs = verb_id_matrix(verb_token_ids, vocab)
    top = check_cutoffs(top_cutoffs, "top_cutoffs")
    bottom = check_cutoffs(bottom_cutoffs, "bottom_cutoffs")
    keep = np.ones(n, dtype=bool) if distinct is None else np.asarray(distinct, dtype=bool)
    if keep.shape != (n,):
        raise InvalidValueError(
            f"distinct must have one flag per example ({n}), got shape {keep.shape}"
        )
    index = np.arange(n) if examples is None else as_int_vector(examples, "examples", n)

    tse = _tse(matrix, view_rows, correct, incorrect)
    chosen = np.flatnonzero(keep)
    rows, sums = _cutoff_scores(matrix, view_rows[chosen], labels_array[chosen], verbs, top, bottom)
    return SlotScores(index, tse, index[chosen], **rows, **sums)


def _token_ids(ids: Any, name: str, n: int, vocab: int) -> np.ndarray:
    """``n`` token ids in the vocabulary, or -1 (a form that is not one token)."""
    vector = as_int_vector(ids, name, n)
    bad = np.flatnonzero((vector < -1) | (vector >= vocab))
    if bad.size:
        raise InvalidValueError(f"{name}[{bad[0]}] = {vector[bad[0]]} is outside -1..{vocab - 1}")
    return vector


def _cutoff_scores(
    matrix: torch.Tensor,
    view_rows: np.ndarray,
    labels: np.ndarray,
    verbs: np.ndarray,
    top: np.ndarray,
    bottom: np.ndarray,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """EW/MW per scored example (rows, concatenated) and the per-lemma sums, computed over
    chunks of at most ``_ROWS_PER_CHUNK`` examples (each chunk holds float64 copies of its
    (rows, vocab) distributions); an empty selection is one empty chunk, so the keys exist."""
    # ceil(rows / chunk) parts, and at least one (empty) part so the result keys exist
    parts = [
        lemma_cutoff_scores(
            matrix[torch.as_tensor(view_rows[chunk])], labels[chunk], verbs, top, bottom
        )
        for chunk in np.array_split(
            np.arange(view_rows.size), max(1, -(-view_rows.size // _ROWS_PER_CHUNK))
        )
    ]
    rows = {
        name: np.concatenate([part[name] for part in parts]) for name in parts[0] if name != "lemma"
    }
    sums = {
        name: np.sum([part["lemma"][name] for part in parts], axis=0) for name in parts[0]["lemma"]
    }
    return rows, sums


def _tse(
    logits: torch.Tensor, views: np.ndarray, correct: np.ndarray, incorrect: np.ndarray
) -> np.ndarray:
    valid = (correct >= 0) & (incorrect >= 0)
    rows = torch.as_tensor(views)
    # -1 ids are read at 0 (any valid index) and their result is replaced by NaN below
    z_correct = logits[rows, torch.as_tensor(np.maximum(correct, 0))]
    z_incorrect = logits[rows, torch.as_tensor(np.maximum(incorrect, 0))]
    wins = (z_correct > z_incorrect).numpy().astype(np.float64)
    return np.where(valid, wins, np.nan)
