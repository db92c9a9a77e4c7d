"""Nearest neighbours by blocked matrix products: for each query vector, the corpus vector
with the largest dot product (the cosine, for unit vectors), in bounded memory."""

from __future__ import annotations

import numpy as np
from tqdm.auto import tqdm

from ..checks import require_positive_int, typed_options
from ..errors import InvalidValueError


@typed_options
def nearest_neighbours(
    queries: np.ndarray,
    corpus: np.ndarray | None = None,
    *,
    block_size: int = 4096,
    show_progress: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """For each query row, the largest dot product with a corpus row and that row's index.

    With ``corpus=None`` the queries are compared with each other, excluding each row itself.
    Rows should be L2-normalized (then dot product = cosine). Work is done in blocks of at most
    ``block_size`` queries x ``block_size`` corpus rows, so memory is O(block_size^2).
    Ties go to the lowest index.
    """
    require_positive_int(block_size, "block_size")
    within = corpus is None
    corpus = queries if within else corpus
    if queries.ndim != 2 or corpus.ndim != 2 or queries.shape[1] != corpus.shape[1]:
        raise InvalidValueError(
            f"embeddings must be 2-D with equal widths; got {queries.shape} and {corpus.shape}"
        )
    if corpus.shape[0] - int(within) < 1:
        raise InvalidValueError(
            "nearest_neighbours needs at least one corpus row other than the query"
        )
    best = np.full(queries.shape[0], -np.inf, dtype=np.float32)
    best_index = np.zeros(queries.shape[0], dtype=np.int64)
    query_starts = range(0, queries.shape[0], block_size)
    corpus_starts = range(0, corpus.shape[0], block_size)
    blocks = tqdm(
        total=len(query_starts) * len(corpus_starts),
        desc="max similarity",
        unit="block",
        disable=not show_progress,
    )
    with blocks:
        for q0 in query_starts:
            query_block = np.ascontiguousarray(queries[q0 : q0 + block_size], dtype=np.float32)
            rows = np.arange(query_block.shape[0])
            for c0 in corpus_starts:
                corpus_block = np.asarray(corpus[c0 : c0 + block_size], dtype=np.float32)
                scores = query_block @ corpus_block.T
                if within:
                    _mask_self(scores, q0, c0)
                column = scores.argmax(axis=1)
                value = scores[rows, column]
                improved = value > best[q0 : q0 + len(rows)]
                best[q0 : q0 + len(rows)][improved] = value[improved]
                best_index[q0 : q0 + len(rows)][improved] = column[improved] + c0
                blocks.update()
    return best, best_index


def _mask_self(scores: np.ndarray, query_start: int, corpus_start: int) -> None:
    """Set scores[i, j] = -inf where query row query_start+i is corpus row corpus_start+j."""
    first = max(query_start, corpus_start)
    last = min(query_start + scores.shape[0], corpus_start + scores.shape[1])
    if first < last:
        overlap = np.arange(first, last)
        scores[overlap - query_start, overlap - corpus_start] = -np.inf
