"""Upper bounds of the Ratcliff-Obershelp ratio, computed for many pairs at once, that let the
near-duplicate search (:mod:`poetic_eval.diversity.near_duplicates`) drop most pairs before
difflib runs.

Ratcliff-Obershelp matching blocks form a common subsequence, so for texts a and b
``ratio <= 2 * LCS / (|a| + |b|)`` (the normalised Indel similarity) and
``ratio <= 2 * min(|a|, |b|) / (|a| + |b|)`` (:func:`length_window`). The LCS is bounded in
turn by the character histograms (:func:`histogram_bound`) and, more tightly, by the LCS of
64-character pieces with the stretch they can align to (:func:`banded_lcs_bound`);
:func:`exact_indel` gives the normalised Indel similarity itself. Every bound keeps pairs within
:data:`BOUND_TOLERANCE` of the threshold, so no pair at the threshold is lost to float error.
"""

from __future__ import annotations

import math

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel, LCSseq

# float32 bound scores differ from the exact rational by ~1e-7; pairs within this of the
# threshold (or of the best ratio so far) are always checked with difflib.
BOUND_TOLERANCE = 1e-5
PIECE = 64  # characters: rapidfuzz compares strings up to 64 long many at a time
ALPHABET = 127  # characters with a histogram column of their own; the rest share one
SATURATED = 255  # histogram counts are kept as uint8, saturating (see histogram_bound)
_FEATURE_CELLS = 4_000_000  # float32 cells of one histogram feature matrix


def length_window(low: int, high: int, threshold: float) -> tuple[float, float]:
    """Training lengths that can reach ``threshold`` against a unit of length in [low, high]."""
    # 2 * min(a, b) / (a + b) >= t  <=>  t / (2 - t) <= b / a <= (2 - t) / t; the floor keeps
    # a threshold at or under the tolerance from dividing by zero (every length then passes)
    slack = max(threshold - BOUND_TOLERANCE, 1e-9)
    return low * slack / (2 - slack), high * (2 - slack) / slack


def unit_pieces(texts: list[str]) -> list[list[str]]:
    """For each offset 0, 64, 128, ... up to the longest text: every text's piece there."""
    longest = max(map(len, texts), default=0)
    return [[text[start : start + PIECE] for text in texts] for start in range(0, longest, PIECE)]


def code_points(texts: list[str]) -> np.ndarray:
    joined = "".join(texts).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(joined, dtype=np.uint32)


def char_counts(
    texts: list[str],
    alphabet: dict[str, int],
    codes: np.ndarray | None = None,
    *,
    saturate: bool = True,
    by_character: bool = False,
) -> np.ndarray:
    """(texts, ALPHABET + 1) counts of each alphabet character, the others summed in the last
    column; uint8 saturating at :data:`SATURATED` (the training side), or exact int64. With
    ``by_character``, the transpose (one row per character): each block is counted straight
    in that layout (no transposed copy, which took most of the time)."""
    if codes is None:
        codes = code_points(texts)
    top = max(map(ord, alphabet), default=0) + 1
    column_of = np.full(top + 1, ALPHABET, dtype=np.int64)  # the last entry: any code >= top
    column_of[[ord(c) for c in alphabet]] = list(alphabet.values())
    columns = column_of[np.minimum(codes, top)]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    ends = np.cumsum(lengths)
    width = ALPHABET + 1
    shape = (width, len(texts)) if by_character else (len(texts), width)
    counts = np.zeros(shape, dtype=np.uint8 if saturate else np.int64)
    step = 8_000  # texts per bincount: its int64 output then stays in the CPU's cache
    for start in range(0, len(texts), step):
        stop = min(len(texts), start + step)
        low, high = (ends[start - 1] if start else 0), ends[stop - 1] if stop else 0
        size = stop - start
        rows = np.repeat(np.arange(size), lengths[start:stop])
        cells = (
            columns[low:high] * size + rows if by_character else rows * width + columns[low:high]
        )
        flat = np.bincount(cells, minlength=size * width)
        if saturate:
            np.minimum(flat, SATURATED, out=flat)
        if by_character:
            counts[:, start:stop] = flat.reshape(width, size)
        else:
            counts[start:stop] = flat.reshape(size, width)
    return counts


def histogram_bound(counts: np.ndarray, query_counts: np.ndarray) -> np.ndarray:
    """(texts, queries) float32 matrix of ``sum_c min(count_text(c), count_query(c))``: for
    every (text, query) pair, an upper bound of their LCS, since a common subsequence holds
    each character at most as often as either text does (characters outside the alphabet
    share a column: the minimum of the sums is at least the sum of the minimums, so the
    bound only grows).

    ``min(a, b) = sum_{k >= 1} [a >= k] [b >= k]``, so the whole matrix is one product of
    0/1 matrices with a column per (character, k <= the largest count among the queries),
    exact in float32. A text count saturated at 255 stands for any count >= 255: ``[a >= k]``
    is then taken as true for every k, which can only raise the bound.

    ``counts``: the texts' saturated counts, one row per character (``UnitIndex.counts``);
    ``query_counts``: the queries' exact counts, one row per query (:func:`char_counts`).
    """
    # one 0/1 column per (character c, k in 1..the largest query count of c): columns[i] is
    # the character of column i and ks[i] its k
    top = query_counts.max(axis=0)
    columns = np.repeat(np.arange(len(top)), top)
    if len(columns) == 0:
        return np.zeros((counts.shape[1], len(query_counts)), dtype=np.float32)
    ks = np.arange(len(columns)) - np.repeat(np.cumsum(top) - top, top) + 1
    queries = (query_counts[:, columns] >= ks).astype(np.float32)
    text_ks = np.minimum(ks, SATURATED).astype(np.uint8)
    bound = np.empty((counts.shape[1], len(query_counts)), dtype=np.float32)
    step = max(1, _FEATURE_CELLS // len(columns))  # texts per block: bounded feature matrix
    for start in range(0, counts.shape[1], step):
        chunk = counts[columns, start : start + step]  # whole rows: contiguous copies
        features = (chunk >= text_ks[:, None]).astype(np.float32)
        np.matmul(features.T, queries.T, out=bound[start : start + step])
    return bound


def banded_lcs_bound(
    pieces: list[list[str]],
    lengths: np.ndarray,
    queries: list[str],
    query_lengths: np.ndarray,
    threshold: float,
    workers: int,
) -> np.ndarray:
    """An upper bound of LCS(text, query) for every pair that can reach ``threshold``.

    A common subsequence of length L leaves ``m - L`` characters of the text and ``n - L``
    of the query unmatched, so the text's character ``i`` can only be matched to query
    characters ``i - (m - L)`` to ``i + (n - L)``. For a pair that reaches the threshold,
    ``L >= threshold * (m + n) / 2``: so the LCS is at most the sum, over pieces of
    :data:`PIECE` characters of the text (``pieces[j]``: each text's piece at offset
    ``64 * j``, from :func:`unit_pieces`), of the LCS of the piece with its window of the
    query. Pieces that short are compared many at a time (rapidfuzz's SIMD path), several
    times faster than the full LCS of long units; for other pairs the bound means nothing,
    but they fail the threshold anyway.
    """
    slack = max(threshold - BOUND_TOLERANCE, 0.0)
    # one band for the whole block: the least LCS any pair of it needs (from the shortest
    # lengths) leaves the most unmatched characters (from the longest), so the band is wide
    # enough for every pair; floor, so rounding never narrows it
    need = math.floor(slack * (int(lengths.min()) + int(query_lengths.min())) / 2)
    left = max(0, int(lengths.max()) - need)
    right = max(0, int(query_lengths.max()) - need)
    total = np.zeros((len(lengths), len(queries)), dtype=np.int32)
    for start in range(0, int(lengths.max()), PIECE):
        windows = [query[max(0, start - left) : start + PIECE + right] for query in queries]
        total += process.cdist(
            pieces[start // PIECE],
            windows,
            scorer=LCSseq.similarity,
            dtype=np.int32,
            workers=workers,
        )
    return total


def exact_indel(
    texts: np.ndarray,
    queries: np.ndarray,
    rows: np.ndarray,
    columns: np.ndarray,
    slack: float,
    workers: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs (rows, columns) whose normalised Indel similarity reaches ``slack``, with it
    (``texts`` and ``queries``: object arrays)."""
    if len(rows) == 0:
        return rows, columns, np.zeros(0, dtype=np.float64)
    bounds = process.cpdist(
        texts[rows].tolist(),
        queries[columns].tolist(),
        scorer=Indel.normalized_similarity,
        dtype=np.float64,
        workers=workers,
    )
    keep = bounds >= slack
    return rows[keep], columns[keep], bounds[keep]
