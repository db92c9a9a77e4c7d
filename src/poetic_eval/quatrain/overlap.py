"""Stage 2 of the de-duplication: iterative removal of the most overlapping quatrains.

The procedure (paper section 5.1, its public notebook, and the project spec), on the quatrains
left by the sequential pass, in their source order:

1. count how often each line (exact string) occurs over all remaining quatrains;
2. if no line occurs more than once, stop;
3. score each quatrain by the sum of the counts of its 4 lines (4 = no line shared; a line that
   occurs twice in one quatrain adds its count twice);
4. ``k = ceil(D / p)`` where ``D`` is the number of quatrains with score > 4;
5. delete the ``k`` highest-scoring quatrains, recount, and go back to 2.

**Ties** (the spec's "stable order"): quatrains are ranked by score, highest first, and equal
scores keep their source order, so among equally scoring quatrains the one that comes first
in the source is deleted first. This is what a stable descending sort does (Python's
``sorted(..., key=score, reverse=True)``, pandas ``sort_values(ascending=False,
kind="stable")``), and what the direct transcription in the tests does.

``p`` is 10 for English and 20 for German in the paper. The postcondition is that no line
occurs twice. The loop always ends: while a line is shared, ``D >= 1`` and ``k >= 1``.

This implementation gives exactly the transcription's result, faster:

- lines are integer ids, counts one ``numpy.bincount``;
- a quatrain whose score is 4 can never score more (counts only fall), so each iteration works
  only on the *active* quatrains, those still scoring above 4, which shrink geometrically;
- the ``k`` highest are found with ``numpy.partition`` (the k-th largest score as threshold)
  and ties at the threshold taken in source order; counts are updated by subtracting the
  deleted quatrains' lines, not recounted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from ..errors import InvalidValueError

#: The paper's p per language; other languages use :data:`DEFAULT_P`.
PAPER_P = {"en": 10, "de": 20}
DEFAULT_P = 10


def default_p(language: str) -> int:
    """The paper's p: 20 for German, 10 for English (and any other language)."""
    return PAPER_P.get(language, DEFAULT_P)


@dataclass(frozen=True)
class OverlapRemoval:
    """Result of :func:`remove_overlaps`: the mask of kept quatrains and how it went."""

    kept: np.ndarray  # bool, one per input quatrain
    iterations: int
    initially_overlapping: int  # quatrains with score > 4 before the first deletion

    @property
    def deleted(self) -> int:
        return int(self.kept.size - self.kept.sum())


def top_k_in_order(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices (ascending) of the ``k`` highest ``scores``, ties taken from the lowest index."""
    n = scores.size
    if k >= n:
        return np.arange(n)
    threshold = np.partition(scores, n - k)[n - k]  # the k-th largest score
    chosen = scores > threshold
    ties = np.flatnonzero(scores == threshold)[: k - int(chosen.sum())]
    chosen[ties] = True
    return np.flatnonzero(chosen)


def remove_overlaps(
    line_ids: np.ndarray,
    p: int,
    *,
    show_progress: bool = False,
    description: str = "overlap removal",
) -> OverlapRemoval:
    """Run stage 2 on the ``(m, 4)`` integer line ids of quatrains in source order."""
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise InvalidValueError(f"p must be an integer >= 1, got {p!r}")
    line_ids = np.asarray(line_ids)
    m = line_ids.shape[0]
    kept = np.ones(m, dtype=bool)
    if m == 0:
        return OverlapRemoval(kept, 0, 0)
    flat = line_ids.reshape(-1)
    counts = np.bincount(flat, minlength=int(flat.max()) + 1)
    active = np.flatnonzero(counts[line_ids].sum(axis=1) > 4)
    initially = int(active.size)
    iterations = 0
    with tqdm(
        total=initially, desc=description, unit=" quatrains", disable=not show_progress
    ) as bar:
        while active.size:
            scores = counts[line_ids[active]].sum(axis=1)
            overlapping = scores > 4
            if not overlapping.all():
                bar.update(int(active.size - overlapping.sum()))
                active, scores = active[overlapping], scores[overlapping]
                if not active.size:
                    break
            k = math.ceil(active.size / p)
            chosen = top_k_in_order(scores, k)
            deleted = active[chosen]
            kept[deleted] = False
            np.subtract.at(counts, line_ids[deleted].reshape(-1), 1)
            active = np.delete(active, chosen)
            iterations += 1
            bar.update(int(chosen.size))
            bar.set_postfix(iterations=iterations, refresh=False)
    final = np.bincount(line_ids[kept].reshape(-1), minlength=counts.size)
    if final.size and final.max() > 1:  # the postcondition, checked independently of `counts`
        raise RuntimeError("overlap removal ended with a line that occurs twice (a bug)")
    return OverlapRemoval(kept, iterations, initially)
