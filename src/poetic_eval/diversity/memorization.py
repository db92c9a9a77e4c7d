"""Memorization of training poems, by Ratcliff-Obershelp similarity, at three levels.

A generated unit (quatrain, couplet or verse) is *memorized* when some training unit of the
same level has ``difflib.SequenceMatcher(None, training, generated).ratio() >= threshold``;
the score of a level is the share of generated units that are memorized (paper thresholds:
quatrain 0.7, couplet 0.8, verse 0.9).

Units, as in the paper's public code (raw characters, case-sensitive, no normalisation):

* quatrain: all non-empty lines of the poem, stripped, joined by one space. A poem that does
  not have 4 lines is still one unit, its whole text joined the same way.
* couplet: lines 1-2, 3-4, 5-6, ... joined by one space; the last line of a poem with an odd
  number of lines belongs to no couplet (it still counts as a verse).
* verse: each line.

Exact and fast. Ratcliff-Obershelp matching blocks form a common subsequence, so
``ratio <= 2 * LCS / (|a| + |b|)`` (the normalised Indel similarity) and
``ratio <= 2 * min(|a|, |b|) / (|a| + |b|)``. Candidates are pruned in steps, each an
upper bound of the ratio (with a small float tolerance, so that no pair at the threshold is
lost): the length bound; the character-histogram bound ``LCS <= sum_c min(count_a(c),
count_b(c))`` (a common subsequence uses each character at most as often as either text has
it), computed for a whole block of pairs by one matrix product (see
:func:`_histogram_bound`; it removes nearly every pair at the verse and couplet levels, and
is skipped where it keeps most, as quatrains at 0.7); a banded LCS bound, the sum of the LCS
of each 64-character piece of the training unit with the stretch of the generated unit it can
be aligned to (see :func:`_banded_lcs_bound`; rapidfuzz compares such short pieces many at a
time, several times faster than whole units), where the histogram keeps many pairs; then the
exact Indel similarity of the few pairs left. difflib runs only on the survivors, best bound
first, in ``workers`` processes when there are many: the result equals the naive difflib scan
over all pairs. What depends on the training units alone (their length order, pieces and
histograms) is built once per level and kept on a :class:`~poetic_eval.text.PoemCorpus`, and
on disk for a later process (see :func:`_index_form`).

``autojunk`` (default True, as the reference code) is passed to ``SequenceMatcher``; the
generated unit is the second sequence, so its characters that occur more than ``1 + n // 100``
times in a unit of 200+ characters cannot start a match. The ratio is therefore not symmetric.
"""

from __future__ import annotations

import difflib
import math
import multiprocessing
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from functools import cached_property, partial
from itertools import chain

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel, LCSseq
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from ..checks import (
    require_choice,
    require_choices,
    require_fraction,
    require_positive_int,
    typed_options,
    unknown_name_message,
)
from ..errors import InvalidTypeError, InvalidValueError
from ..text import StoredForm, derived, lines, require_texts
from .stored_forms import code_version

LEVELS = ("quatrain", "couplet", "verse")
DEFAULT_THRESHOLDS = {"quatrain": 0.7, "couplet": 0.8, "verse": 0.9}
# float32 bound scores differ from the exact rational by ~1e-7; pairs within this of the
# threshold (or of the best ratio so far) are always checked with difflib.
BOUND_TOLERANCE = 1e-5
_QUERY_BLOCK = 256
_MAX_MATRIX_CELLS = 8_000_000
_MIN_MATRIX_CELLS = 1_000_000  # pairs per rapidfuzz call, at least (when there are as many)
_PIECE = 64  # characters: rapidfuzz compares strings up to 64 long many at a time
_DENSE_SHARE = 0.02
_PARALLEL_PAIRS = 4000  # difflib pairs (~50 us each) worth starting worker processes for
_GROUP_WIDTH = 8  # characters of length spread within a group of units
_ALPHABET = 127  # characters with a histogram column of their own; the rest share one
_SATURATED = 255  # histogram counts are kept as uint8, saturating (see _histogram_bound)
_FEATURE_CELLS = 4_000_000  # float32 cells of one histogram feature matrix
_SPARSE_SHARE = 0.1  # histogram survivors below this share go straight to the exact Indel
_USELESS_SHARE = 0.5  # a histogram that keeps more than this share of the pairs is skipped


def poem_units(poem: str, level: str) -> list[str]:
    """The units of ``poem`` at ``level`` ("quatrain", "couplet" or "verse")."""
    poem_lines = lines(poem)
    if level == "quatrain":
        return [" ".join(poem_lines)] if poem_lines else []
    if level == "couplet":
        # lines 1-2, 3-4, ...: zip drops an odd last line, which belongs to no couplet
        return list(map(" ".join, zip(poem_lines[::2], poem_lines[1::2])))
    if level == "verse":
        return poem_lines
    raise InvalidValueError(unknown_name_message(level, LEVELS, "level"))


@typed_options
def ratcliff_ratio(reference: str, generated: str, *, autojunk: bool = True) -> float:
    """``difflib.SequenceMatcher(None, reference, generated, autojunk=autojunk).ratio()``."""
    return difflib.SequenceMatcher(None, reference, generated, autojunk=autojunk).ratio()


@dataclass(frozen=True)
class UnitMatch:
    """A memorized generated unit and its best training match."""

    prediction: int
    unit: int
    text: str
    reference: int
    reference_unit: int
    reference_text: str
    ratio: float


@dataclass
class _Corpus:
    """Distinct unit texts of a level and, for each, where it first occurs."""

    texts: Sequence[str]
    first: np.ndarray  # (units, 2): the poem index and the unit index within it


class _Reordered:
    """``texts[position[i]]`` for each i: the training units in corpus order, read from the
    length-sorted texts of an index read back from disk (one list of strings, not two)."""

    def __init__(self, texts: list[str], position: np.ndarray) -> None:
        self._texts, self._position = texts, position

    def __len__(self) -> int:
        return len(self._texts)

    def __getitem__(self, index: int) -> str:
        return self._texts[int(self._position[index])]


def _units_by_text(poems: Sequence[str], level: str) -> tuple[_Corpus, list[list[int]]]:
    """Deduplicated units, and for each poem the distinct-unit id of each of its units."""
    position: dict[str, int] = {}
    unit_ids = [
        [position.setdefault(unit, len(position)) for unit in poem_units(poem, level)]
        for poem in poems
    ]
    sizes = np.fromiter(map(len, unit_ids), dtype=np.int64, count=len(unit_ids))
    flat = np.fromiter(chain.from_iterable(unit_ids), dtype=np.int64, count=int(sizes.sum()))
    # ids are numbered in order of first occurrence: where each first occurs, as (poem, unit)
    _, first_flat = np.unique(flat, return_index=True)
    starts = np.cumsum(sizes) - sizes
    poem_of = np.repeat(np.arange(len(sizes)), sizes)[first_flat]
    first = np.stack((poem_of, first_flat - starts[poem_of]), axis=1)
    return _Corpus(list(position), first), unit_ids


def _length_window(low: int, high: int, threshold: float) -> tuple[float, float]:
    """Training lengths that can reach ``threshold`` against a unit of length in [low, high]."""
    slack = max(threshold - BOUND_TOLERANCE, 1e-9)
    return low * slack / (2 - slack), high * (2 - slack) / slack


def _length_groups(
    sorted_lengths: np.ndarray, width: int, size: int, minimum: int
) -> list[tuple[int, int]]:
    """(start, end) runs of the sorted lengths, of at most ``size`` items, spanning at most
    ``width`` characters once they hold ``minimum``: narrow groups keep the banded bound's
    windows short, and the minimum keeps the number of rapidfuzz calls small."""
    groups, start = [], 0
    while start < len(sorted_lengths):
        floor = min(len(sorted_lengths), start + minimum) - 1
        end = int(np.searchsorted(sorted_lengths, sorted_lengths[floor] + width, side="right"))
        end = min(max(end, floor + 1), start + size)
        groups.append((start, end))
        start = end
    return groups


def unit_pieces(texts: list[str]) -> list[list[str]]:
    """For each offset 0, 64, 128, ... up to the longest text: every text's piece there."""
    longest = max(map(len, texts), default=0)
    return [[text[start : start + _PIECE] for text in texts] for start in range(0, longest, _PIECE)]


@dataclass
class _Choices:
    """Distinct training units sorted by length, with what the bounds need; built once per
    corpus and level (:func:`_choice_index`) and kept on a PoemCorpus."""

    texts: list[str]  # sorted by length (stable)
    ids: np.ndarray  # for each, the index of its first occurrence in the training units
    lengths: np.ndarray
    pieces: list[list[str]]  # unit_pieces(texts)
    alphabet: dict[str, int]  # character -> histogram column; any other -> column _ALPHABET
    # (_ALPHABET + 1, units) uint8 character counts, saturating at 255: one row per character,
    # so that the histogram bound gathers contiguous runs of units (see _histogram_bound)
    counts: np.ndarray

    @cached_property
    def text_array(self) -> np.ndarray:
        """``texts`` as a numpy object array: gathering millions of surviving pairs' texts by
        fancy indexing is several times faster than a list comprehension."""
        return _object_array(self.texts)


def _object_array(texts: Sequence[str]) -> np.ndarray:
    array = np.empty(len(texts), dtype=object)
    array[:] = texts
    return array


def _choice_index(training: Sequence[str]) -> _Choices:
    distinct: dict[str, int] = {}
    for index, unit in enumerate(training):
        distinct.setdefault(unit, index)
    choices = list(distinct)
    first = np.fromiter(distinct.values(), dtype=np.int64, count=len(choices))
    lengths = np.fromiter(map(len, choices), dtype=np.int64, count=len(choices))
    order = np.argsort(lengths, kind="stable")
    texts = [choices[i] for i in order.tolist()]
    codes = _code_points(texts)
    frequency = np.bincount(codes)
    common = np.argsort(-frequency, kind="stable")[:_ALPHABET]
    common = common[frequency[common] > 0]
    alphabet = {chr(int(code)): column for column, code in enumerate(common.tolist())}
    return _Choices(
        texts=texts,
        ids=first[order],
        lengths=lengths[order],
        pieces=unit_pieces(texts),
        alphabet=alphabet,
        counts=_char_counts(texts, alphabet, codes, by_character=True),
    )


def _training_index(references: Sequence[str], level: str) -> tuple[_Corpus, _Choices]:
    """The distinct training units of ``level`` and their :class:`_Choices`."""
    training, _ = _units_by_text(references, level)
    return training, _choice_index(training.texts)


#: Bumped when the arrays of :func:`_index_form` change meaning; the code's hash is added too.
INDEX_FORMAT = "memorization-index/v2"


def _index_form() -> StoredForm:
    """The training index of a level as arrays (no pickles): the distinct units in corpus
    order as UTF-8 with their lengths, where each first occurs, their length order, the
    histogram alphabet and counts. Pieces are cut again on reading (cheap)."""

    def encode(index: tuple[_Corpus, _Choices]) -> dict[str, np.ndarray]:
        training, choices = index
        data = "".join(choices.texts).encode("utf-8", "surrogatepass")
        return {
            "utf8": np.frombuffer(data, dtype=np.uint8),  # sorted by length
            "lengths": np.asarray(choices.lengths, dtype=np.int64),
            "first": np.asarray(training.first, dtype=np.int64).reshape(-1, 2),
            "order": np.asarray(choices.ids, dtype=np.int64),
            "alphabet": np.array([ord(c) for c in choices.alphabet], dtype=np.uint32),
            "counts": choices.counts,
        }

    def decode(arrays: dict[str, np.ndarray]) -> tuple[_Corpus, _Choices]:
        joined = arrays["utf8"].tobytes().decode("utf-8", "surrogatepass")
        lengths, order = arrays["lengths"], arrays["order"]
        ends = np.cumsum(lengths)
        texts = list(map(joined.__getitem__, map(slice, (ends - lengths).tolist(), ends.tolist())))
        inverse = np.empty_like(order)
        inverse[order] = np.arange(len(order))
        choices = _Choices(
            texts=texts,
            ids=order,
            lengths=lengths,
            pieces=unit_pieces(texts),
            alphabet={chr(code): column for column, code in enumerate(arrays["alphabet"].tolist())},
            counts=arrays["counts"],
        )
        return _Corpus(_Reordered(texts, inverse), arrays["first"]), choices

    return StoredForm("memorization-index", f"{INDEX_FORMAT} {code_version()}", encode, decode)


def _code_points(texts: list[str]) -> np.ndarray:
    joined = "".join(texts).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(joined, dtype=np.uint32)


def _char_counts(
    texts: list[str],
    alphabet: dict[str, int],
    codes: np.ndarray | None = None,
    *,
    saturate: bool = True,
    by_character: bool = False,
) -> np.ndarray:
    """(texts, _ALPHABET + 1) counts of each alphabet character, the others summed in the last
    column; uint8 saturating at :data:`_SATURATED` (the training side), or exact int64. With
    ``by_character``, the transpose (one row per character): each block is counted straight
    in that layout (no transposed copy, which took most of the time)."""
    if codes is None:
        codes = _code_points(texts)
    top = max(map(ord, alphabet), default=0) + 1
    column_of = np.full(top + 1, _ALPHABET, dtype=np.int64)  # the last entry: any code >= top
    column_of[[ord(c) for c in alphabet]] = list(alphabet.values())
    columns = column_of[np.minimum(codes, top)]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    ends = np.cumsum(lengths)
    width = _ALPHABET + 1
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
            np.minimum(flat, _SATURATED, out=flat)
        if by_character:
            counts[:, start:stop] = flat.reshape(width, size)
        else:
            counts[start:stop] = flat.reshape(size, width)
    return counts


def _histogram_bound(counts: np.ndarray, query_counts: np.ndarray) -> np.ndarray:
    """(texts, queries) float32 matrix of ``sum_c min(count_text(c), count_query(c))``: for
    every (text, query) pair, an upper bound of their LCS, since a common subsequence holds
    each character at most as often as either text does (characters outside the alphabet
    share a column: the minimum of the sums is at least the sum of the minimums, so the
    bound only grows).

    ``min(a, b) = sum_{k >= 1} [a >= k] [b >= k]``, so the whole matrix is one product of
    0/1 matrices with a column per (character, k <= the largest count among the queries),
    exact in float32. A text count saturated at 255 stands for any count >= 255: ``[a >= k]``
    is then taken as true for every k, which can only raise the bound.

    ``counts``: the texts' saturated counts, one row per character (``_Choices.counts``);
    ``query_counts``: the queries' exact counts, one row per query (:func:`_char_counts`).
    """
    top = query_counts.max(axis=0)
    columns = np.repeat(np.arange(len(top)), top)
    if len(columns) == 0:
        return np.zeros((counts.shape[1], len(query_counts)), dtype=np.float32)
    ks = np.arange(len(columns)) - np.repeat(np.cumsum(top) - top, top) + 1
    queries = (query_counts[:, columns] >= ks).astype(np.float32)
    text_ks = np.minimum(ks, _SATURATED).astype(np.uint8)
    bound = np.empty((counts.shape[1], len(query_counts)), dtype=np.float32)
    step = max(1, _FEATURE_CELLS // len(columns))
    for start in range(0, counts.shape[1], step):
        chunk = counts[columns, start : start + step]  # whole rows: contiguous copies
        features = (chunk >= text_ks[:, None]).astype(np.float32)
        np.matmul(features.T, queries.T, out=bound[start : start + step])
    return bound


class _HistogramUse:
    """Whether the histogram bound is worth computing: skipped for the rest of a call once
    it has kept more than :data:`_USELESS_SHARE` of the pairs it saw (both paths are exact)."""

    def __init__(self) -> None:
        self.cells = 0
        self.kept = 0
        self._lock = threading.Lock()  # the length groups run in threads

    def wanted(self) -> bool:
        return self.cells < _MIN_MATRIX_CELLS or self.kept <= _USELESS_SHARE * self.cells

    def record(self, cells: int, kept: int) -> None:
        with self._lock:
            self.cells += cells
            self.kept += kept


def _candidate_blocks(
    queries: list[str],
    choices: _Choices,
    threshold: float,
    workers: int,
    show_progress: bool,
    description: str,
) -> list[list[tuple[int, np.ndarray, np.ndarray]]]:
    """Blocks of queries of similar length, each as a list of (query id, choice ids, bounds)
    for the choices that pass the upper bounds. Choice ids are positions in ``choices.texts``.

    Each block is compared with the training units in length groups, whose bound matrices are
    freed when the group is done, so memory stays bounded. The groups of every block run in
    ``workers`` threads (-1: every core), each with one rapidfuzz thread and, meanwhile, one
    BLAS thread: numpy's products and rapidfuzz release the GIL, and one thread each over two
    groups beat two threads over one group (docs/benchmarks.md, "Length groups in threads").
    The pool and the BLAS limit end before this returns."""
    query_lengths = np.array([len(q) for q in queries])
    query_order = np.argsort(query_lengths, kind="stable")
    query_counts = _char_counts(queries, choices.alphabet, saturate=False)
    lengths, texts, pieces = choices.lengths, choices.text_array, choices.pieces
    histogram = _HistogramUse()
    threads = available_cores() if workers == -1 else workers
    blocks = _length_groups(query_lengths[query_order], _GROUP_WIDTH, _QUERY_BLOCK, 32)
    single_blas = threadpool_limits(1, user_api="blas") if threads > 1 else nullcontext()
    rapidfuzz_workers = 1 if threads > 1 else workers

    def survivors(block: np.ndarray, block_queries: np.ndarray, start: int, end: int):
        rows, columns, bounds = _surviving_pairs(
            (texts[start:end], [piece[start:end] for piece in pieces], lengths[start:end]),
            (block_queries, query_lengths[block]),
            choices.counts[:, start:end],
            query_counts[block],
            (threshold, rapidfuzz_workers, histogram),
        )
        return start + rows, bounds, columns

    with ThreadPoolExecutor(max_workers=threads) as pool, single_blas:
        pending = []  # every group is queued at once: no core waits at the end of a block
        for block_start, block_end in blocks:
            block = query_order[block_start:block_end]
            low, high = _length_window(query_lengths[block[0]], query_lengths[block[-1]], threshold)
            first = int(np.searchsorted(lengths, math.floor(low), side="left"))
            last = int(np.searchsorted(lengths, math.ceil(high), side="right"))
            block_queries = _object_array([queries[i] for i in block])
            step = max(1, _MAX_MATRIX_CELLS // len(block))
            least = max(1, _MIN_MATRIX_CELLS // len(block))
            groups = _length_groups(lengths[first:last], _GROUP_WIDTH, step, least)
            futures = [
                pool.submit(survivors, block, block_queries, first + start, first + end)
                for start, end in groups
            ]
            pending.append((block, futures))
        result = []
        for block, futures in tqdm(
            pending, desc=description, unit="block", disable=not show_progress
        ):
            found = [future.result() for future in futures]
            ids, bounds, columns = ([f[i] for f in found] for i in range(3))
            result.append(_split_by_query(block, ids, bounds, columns))
    return result


def _banded_lcs_bound(
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
    :data:`_PIECE` characters of the text (``pieces[j]``: each text's piece at offset
    ``64 * j``, from :func:`unit_pieces`), of the LCS of the piece with its window of the
    query. Pieces that short are compared many at a time (rapidfuzz's SIMD path), several
    times faster than the full LCS of long units; for other pairs the bound means nothing,
    but they fail the threshold anyway.
    """
    slack = max(threshold - BOUND_TOLERANCE, 0.0)
    need = math.floor(slack * (int(lengths.min()) + int(query_lengths.min())) / 2)
    left = max(0, int(lengths.max()) - need)
    right = max(0, int(query_lengths.max()) - need)
    total = np.zeros((len(lengths), len(queries)), dtype=np.int32)
    for start in range(0, int(lengths.max()), _PIECE):
        windows = [query[max(0, start - left) : start + _PIECE + right] for query in queries]
        total += process.cdist(
            pieces[start // _PIECE],
            windows,
            scorer=LCSseq.similarity,
            dtype=np.int32,
            workers=workers,
        )
    return total


def _surviving_pairs(
    units: tuple[np.ndarray, list[list[str]], np.ndarray],
    block: tuple[np.ndarray, np.ndarray],
    counts: np.ndarray,
    query_counts: np.ndarray,
    settings: tuple[float, int, _HistogramUse],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(text rows, query columns, Indel bounds) of the pairs whose bounds reach the threshold:
    the histogram bound first (unless it has been keeping most pairs), then the banded LCS
    bound where many pairs are left, then the exact Indel similarity of those that pass.
    ``units``: the texts (an object array), their pieces (:func:`unit_pieces`) and their
    lengths; ``block``: the queries (an object array) and their lengths; ``counts``: the
    texts' and queries' character counts."""
    texts, pieces, lengths = units
    queries, query_lengths = block
    threshold, workers, histogram = settings
    slack = max(threshold - BOUND_TOLERANCE, 0.0)
    # an LCS (or bound) L passes when L - slack m / 2 >= slack n / 2; these float32 halves (and
    # the bound minus the first) differ from the exact rationals by ~1e-7 of them, far inside
    # the BOUND_TOLERANCE of the slack
    text_need = (lengths * (slack / 2)).astype(np.float32)
    query_need = (query_lengths * (slack / 2)).astype(np.float32)
    kept = None
    if histogram.wanted():
        margin = _histogram_bound(counts, query_counts)
        margin -= text_need[:, None]  # in place: no (texts, queries) matrix of needs
        kept = margin >= query_need
        del margin
        passed = int(np.count_nonzero(kept))
        histogram.record(kept.size, passed)
        if passed <= _SPARSE_SHARE * kept.size:
            return _exact_indel(texts, queries, *_true_cells(kept), slack, workers)
    banded = _banded_lcs_bound(pieces, lengths, queries.tolist(), query_lengths, threshold, workers)
    passes = banded >= np.add.outer(text_need, query_need)
    if kept is not None:
        passes &= kept
    rows, columns = _true_cells(passes)
    if len(rows) > _DENSE_SHARE * banded.size:  # low thresholds: one dense pass is cheaper
        scores = process.cdist(
            texts.tolist(),
            queries.tolist(),
            scorer=Indel.normalized_similarity,
            dtype=np.float32,
            workers=workers,
        )
        rows, columns = _true_cells(scores >= slack)
        return rows, columns, scores[rows, columns]
    return _exact_indel(texts, queries, rows, columns, slack, workers)


def _true_cells(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(mask)`` of a 2-D mask, in the same (row-major) order, through the flat
    indices (several times faster than the 2-D nonzero on sparse masks)."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])


def _exact_indel(
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


def _split_by_query(
    block: np.ndarray,
    found_ids: list[np.ndarray],
    found_bounds: list[np.ndarray],
    found_columns: list[np.ndarray],
) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Group the surviving (choice, bound) pairs of a block by query."""
    if not found_columns:
        return []
    columns = np.concatenate(found_columns)
    by_column = np.argsort(columns, kind="stable")
    ids, bounds = np.concatenate(found_ids)[by_column], np.concatenate(found_bounds)[by_column]
    present, starts = np.unique(columns[by_column], return_index=True)
    ends = [*starts[1:], len(columns)]
    return [
        (int(block[column]), ids[begin:end], bounds[begin:end])
        for column, begin, end in zip(present, starts, ends)
    ]


def _best_match(
    task: tuple[str, list[str], np.ndarray, np.ndarray],
    *,
    threshold: float,
    autojunk: bool,
    find_best: bool,
) -> tuple[int, float] | None:
    """For ``task = (generated unit, candidate texts, their training ids, their bounds)``:
    (position among the candidates, ratio) of the lowest-id candidate with the highest ratio
    >= threshold, or None. With ``find_best=False`` any candidate reaching the threshold is
    returned (enough for the score).
    """
    query, texts, ids, bounds = task
    order = np.lexsort((ids, -bounds))
    matcher = difflib.SequenceMatcher(None, autojunk=autojunk)
    matcher.set_seq2(query)  # the generated unit is the second sequence, as the reference code
    best: tuple[int, float] | None = None
    for position in order.tolist():
        floor = best[1] if best else threshold
        if float(bounds[position]) < floor - BOUND_TOLERANCE:
            break
        matcher.set_seq1(texts[position])
        ratio = matcher.ratio()
        if ratio < threshold:
            continue
        if best is None or ratio > best[1] or (ratio == best[1] and ids[position] < ids[best[0]]):
            best = (position, ratio)
            if not find_best:
                break
    return best


def available_cores() -> int:
    """CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run_tasks(function, tasks: list, workers: int) -> list:
    """``function`` over ``tasks``, in ``workers`` processes (-1: every core) when there is
    enough difflib work to pay for starting them (many near copies), else in this process."""
    processes = available_cores() if workers == -1 else workers
    work = sum(len(task[1]) for task in tasks)
    if processes <= 1 or work < _PARALLEL_PAIRS or len(tasks) < 2:
        return [function(task) for task in tasks]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    chunk = max(1, len(tasks) // (4 * processes))
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        return list(pool.map(function, tasks, chunksize=chunk))


@typed_options
def memorized_units(
    generated: Sequence[str],
    training: Sequence[str],
    threshold: float,
    *,
    autojunk: bool = True,
    find_best: bool = True,
    workers: int = -1,
    show_progress: bool = False,
    description: str = "memorization",
) -> list[tuple[int, float] | None]:
    """For each generated unit: (index of its best training unit, ratio) if memorized, else None.

    Training units with the same text share the index of their first occurrence; ties in the
    ratio go to the lowest index, as in a naive scan that keeps the first maximum.
    """
    threshold = require_fraction(threshold, "threshold")
    if workers != -1:
        require_positive_int(workers, "workers")
    if not training:
        return [None] * len(generated)
    return _memorized(
        generated,
        _choice_index(training),
        threshold,
        autojunk=autojunk,
        find_best=find_best,
        workers=workers,
        show_progress=show_progress,
        description=description,
    )


def _memorized(
    generated: Sequence[str],
    choices: _Choices,
    threshold: float,
    *,
    autojunk: bool,
    find_best: bool,
    workers: int,
    show_progress: bool,
    description: str,
) -> list[tuple[int, float] | None]:
    """:func:`memorized_units` against a built :class:`_Choices` (checked options)."""
    distinct_generated = list(dict.fromkeys(generated))
    if not choices.texts or not distinct_generated:
        return [None] * len(generated)
    blocks = _candidate_blocks(
        distinct_generated, choices, threshold, workers, show_progress, description
    )
    tasks = [
        (distinct_generated[query_id], choices.text_array[rows].tolist(), choices.ids[rows], bounds)
        for block in blocks
        for query_id, rows, bounds in block
    ]
    verify = partial(_best_match, threshold=threshold, autojunk=autojunk, find_best=find_best)
    result: dict[str, tuple[int, float]] = {}
    for (query, _, ids, _), match in zip(tasks, _run_tasks(verify, tasks, workers)):
        if match is not None:
            result[query] = (int(ids[match[0]]), match[1])
    return [result.get(unit) for unit in generated]


def _resolve_levels(levels: str | Iterable[str]) -> tuple[str, ...]:
    if isinstance(levels, str):
        levels = (levels,)
    levels = tuple(levels)
    if not levels:
        raise InvalidValueError(f"levels is empty: choose from {', '.join(LEVELS)}")
    require_choices(levels, LEVELS, "level (levels)")
    return tuple(dict.fromkeys(levels))


def _resolve_thresholds(thresholds: dict[str, float] | None) -> dict[str, float]:
    resolved = dict(DEFAULT_THRESHOLDS)
    if thresholds is None:
        return resolved
    if not isinstance(thresholds, dict):
        raise InvalidTypeError(
            f"thresholds must be a dict level -> float, got {type(thresholds).__name__}"
        )
    for level, value in thresholds.items():
        require_choice(level, LEVELS, "level (thresholds)")
        resolved[level] = require_fraction(value, f"thresholds[{level!r}]")
    return resolved


@typed_options
def memorization(
    predictions: Sequence[str],
    references: Sequence[str],
    *,
    levels: str | Iterable[str] = LEVELS,
    thresholds: dict[str, float] | None = None,
    autojunk: bool = True,
    return_matches: bool = False,
    show_progress: bool = False,
    workers: int = -1,
) -> dict:
    """Share of generated units (per level) that nearly copy a training unit.

    Returns ``{"memorization_<level>": float}`` for each level asked (NaN when the predictions
    have no unit of that level, e.g. couplets of one-line poems). With ``return_matches``,
    ``"matches"`` maps each level to a list of dicts, one per memorized generated unit:
    ``prediction`` and ``unit`` (indices), ``text``, ``reference`` and ``reference_unit``
    (indices of the best training match: the highest ratio, first in corpus order on ties),
    ``reference_text`` and ``ratio``. ``thresholds`` overrides the paper's per level;
    ``workers``: threads of the bounds (each with one rapidfuzz and one BLAS thread; while they
    run, numpy's BLAS is limited to one thread in the whole process) and processes of the
    difflib checks (-1: every core available).
    """
    predictions = require_texts(predictions, "predictions")
    references = require_texts(references, "references")
    levels = _resolve_levels(levels)
    thresholds = _resolve_thresholds(thresholds)
    if workers != -1:
        require_positive_int(workers, "workers")
    result: dict = {}
    matches: dict[str, list[dict]] = {}
    for level in levels:
        generated, generated_ids = _units_by_text(predictions, level)
        # a PoemCorpus keeps its training index for the next call, and on disk for the next
        # process
        training, choices = derived(
            references,
            ("memorization_index", level),
            partial(_training_index, references, level),
            _index_form(),
        )
        found = _memorized(
            generated.texts,
            choices,
            thresholds[level],
            autojunk=autojunk,
            find_best=return_matches,
            workers=workers,
            show_progress=show_progress,
            description=f"memorization ({level})",
        )
        total = sum(len(ids) for ids in generated_ids)
        memorized = sum(found[i] is not None for ids in generated_ids for i in ids)
        result[f"memorization_{level}"] = memorized / total if total else math.nan
        if return_matches:
            matches[level] = [
                asdict(_unit_match(p, u, generated.texts[i], found[i], training))
                for p, ids in enumerate(generated_ids)
                for u, i in enumerate(ids)
                if found[i] is not None
            ]
    if return_matches:
        result["matches"] = matches
    return result


def _unit_match(
    prediction: int, unit: int, text: str, found: tuple[int, float], training: _Corpus
) -> UnitMatch:
    training_id, ratio = found
    reference, reference_unit = map(int, training.first[training_id])
    return UnitMatch(
        prediction=prediction,
        unit=unit,
        text=text,
        reference=reference,
        reference_unit=reference_unit,
        reference_text=training.texts[training_id],
        ratio=ratio,
    )
