"""The search behind memorization: for each generated unit, the training unit with the highest
Ratcliff-Obershelp ratio ``difflib.SequenceMatcher(None, training, generated).ratio()`` at or
above a threshold, exact (the result equals the naive difflib scan over all pairs) and fast.

Ratcliff-Obershelp matching blocks form a common subsequence, so ``ratio <= 2 * LCS / (|a| +
|b|)`` (the normalised Indel similarity) and ``ratio <= 2 * min(|a|, |b|) / (|a| + |b|)``.
Candidates are pruned in steps, each an upper bound of the ratio (with a small float tolerance,
so that no pair at the threshold is lost): the length bound; the character-histogram bound
``LCS <= sum_c min(count_a(c), count_b(c))`` (a common subsequence uses each character at most
as often as either text has it), computed for a whole block of pairs by one matrix product (see
:func:`~.ratio_bounds.histogram_bound`; it removes nearly every pair at the verse and couplet
levels, and is skipped where it keeps most, as quatrains at 0.7); a banded LCS bound, the sum
of the LCS of each 64-character piece of the training unit with the stretch of the generated
unit it can be aligned to (see :func:`~.ratio_bounds.banded_lcs_bound`; rapidfuzz compares such
short pieces many at a time, several times faster than whole units), where the histogram keeps
many pairs; then the exact Indel similarity of the few pairs left. difflib runs only on the
survivors, best bound first, in ``workers`` processes when there are many: the result equals
the naive difflib scan over all pairs.
"""

from __future__ import annotations

import difflib
import math
import multiprocessing
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cached_property, partial

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel
from threadpoolctl import threadpool_limits
from tqdm.auto import tqdm

from ..checks import require_fraction, require_positive_int
from .ratio_bounds import (
    ALPHABET,
    BOUND_TOLERANCE,
    banded_lcs_bound,
    char_counts,
    code_points,
    exact_indel,
    histogram_bound,
    length_window,
    unit_pieces,
)

#: Generated units compared together: length groups of at most this many (and at least 32).
_QUERY_BLOCK = 256
#: Pairs of one bound matrix (training units x a block of queries): bounds the memory of a
#: group (float32: 32 MB) however large the corpus.
_MAX_MATRIX_CELLS = 8_000_000
_MIN_MATRIX_CELLS = 1_000_000  # pairs per rapidfuzz call, at least (when there are as many)
#: Above this share of surviving pairs, one dense rapidfuzz pass over the group is cheaper
#: than gathering the survivors (low thresholds, e.g. quatrains at 0.7).
_DENSE_SHARE = 0.02
_PARALLEL_PAIRS = 4000  # difflib pairs (~50 us each) worth starting worker processes for
_GROUP_WIDTH = 8  # characters of length spread within a group of units
_SPARSE_SHARE = 0.1  # histogram survivors below this share go straight to the exact Indel
_USELESS_SHARE = 0.5  # a histogram that keeps more than this share of the pairs is skipped


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


@dataclass
class UnitIndex:
    """Distinct training units sorted by length, with what the bounds need; built once per
    corpus and level (:func:`build_unit_index`) and kept on a PoemCorpus."""

    texts: list[str]  # sorted by length (stable)
    ids: np.ndarray  # for each, the index of its first occurrence in the training units
    lengths: np.ndarray
    pieces: list[list[str]]  # unit_pieces(texts)
    alphabet: dict[str, int]  # character -> histogram column; any other -> column ALPHABET
    # (ALPHABET + 1, units) uint8 character counts, saturating at 255: one row per character,
    # so that the histogram bound gathers contiguous runs of units (see histogram_bound)
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


def build_unit_index(training: Sequence[str]) -> UnitIndex:
    distinct: dict[str, int] = {}
    for index, unit in enumerate(training):
        distinct.setdefault(unit, index)
    choices = list(distinct)
    first = np.fromiter(distinct.values(), dtype=np.int64, count=len(choices))
    lengths = np.fromiter(map(len, choices), dtype=np.int64, count=len(choices))
    order = np.argsort(lengths, kind="stable")
    texts = [choices[i] for i in order.tolist()]
    codes = code_points(texts)
    frequency = np.bincount(codes)
    common = np.argsort(-frequency, kind="stable")[:ALPHABET]
    common = common[frequency[common] > 0]
    alphabet = {chr(int(code)): column for column, code in enumerate(common.tolist())}
    return UnitIndex(
        texts=texts,
        ids=first[order],
        lengths=lengths[order],
        pieces=unit_pieces(texts),
        alphabet=alphabet,
        counts=char_counts(texts, alphabet, codes, by_character=True),
    )


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


def _training_groups(
    lengths: np.ndarray, block_lengths: np.ndarray, threshold: float
) -> list[tuple[int, int]]:
    """(start, end) runs of the length-sorted training units that can reach ``threshold``
    against a block of queries of the (sorted) ``block_lengths``, in groups whose bound matrix
    (units x queries) holds at most :data:`_MAX_MATRIX_CELLS`."""
    low, high = length_window(block_lengths[0], block_lengths[-1], threshold)
    first = int(np.searchsorted(lengths, math.floor(low), side="left"))
    last = int(np.searchsorted(lengths, math.ceil(high), side="right"))
    step = max(1, _MAX_MATRIX_CELLS // len(block_lengths))
    least = max(1, _MIN_MATRIX_CELLS // len(block_lengths))
    groups = _length_groups(lengths[first:last], _GROUP_WIDTH, step, least)
    return [(first + start, first + end) for start, end in groups]


def _candidate_blocks(
    queries: list[str],
    choices: UnitIndex,
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
    query_counts = char_counts(queries, choices.alphabet, saturate=False)
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
            block_queries = _object_array([queries[i] for i in block])
            futures = [
                pool.submit(survivors, block, block_queries, start, end)
                for start, end in _training_groups(lengths, query_lengths[block], threshold)
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
        margin = histogram_bound(counts, query_counts)
        margin -= text_need[:, None]  # in place: no (texts, queries) matrix of needs
        kept = margin >= query_need
        del margin
        passed = int(np.count_nonzero(kept))
        histogram.record(kept.size, passed)
        if passed <= _SPARSE_SHARE * kept.size:
            return exact_indel(texts, queries, *_true_cells(kept), slack, workers)
    banded = banded_lcs_bound(pieces, lengths, queries.tolist(), query_lengths, threshold, workers)
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
    return exact_indel(texts, queries, rows, columns, slack, workers)


def _true_cells(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(mask)`` of a 2-D mask, in the same (row-major) order, through the flat
    indices (several times faster than the 2-D nonzero on sparse masks)."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])


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
    return nearest_units(
        generated,
        build_unit_index(training),
        threshold,
        autojunk=autojunk,
        find_best=find_best,
        workers=workers,
        show_progress=show_progress,
        description=description,
    )


def nearest_units(
    generated: Sequence[str],
    choices: UnitIndex,
    threshold: float,
    *,
    autojunk: bool,
    find_best: bool,
    workers: int,
    show_progress: bool,
    description: str,
) -> list[tuple[int, float] | None]:
    """:func:`memorized_units` against a built :class:`UnitIndex` (checked options)."""
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
