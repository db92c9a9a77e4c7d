"""Novelty as n-gram overlap (ROUGE F1): within a poem and across the poems of a collection.

High values mean repetition. Every mean is over *ordered* pairs of distinct items, with text
``i`` as the prediction and text ``j`` as the target (ROUGE F1 is symmetric up to rounding), and
the numbers are rouge-score's (:mod:`~poetic_eval.analyzers.rouge`; no stemming by default).

- **intra_novelty** (single poem): mean F1 over ordered pairs of distinct lines. Blank lines
  are left out by default; ``include_blank_lines=True`` keeps them as empty lines (F1 0 with
  everything), as the reference code does. ``None`` for a poem of one line (no pair).
- **inter_novelty** (collection), over ordered pairs of distinct poems, three ways:
  ``single_string`` (each poem's lines joined by spaces), ``line_by_line`` (the F1 of the
  zipped lines ``(i_k, j_k)``, ``k`` up to the shorter poem, summed and divided by
  ``line_by_line_divisor``) and ``all_lines`` (the mean over all line pairs of the two
  poems). Exact over all pairs by default; ``sample_pairs=K`` draws ``K`` distinct ordered
  pairs with ``seed`` instead, and ``pairs`` reports how many were used.
- ``line_by_line_divisor``: the paper and the spec say "zip lines, average", so the default
  ``"shorter"`` divides by the number of zipped pairs (the shorter poem's line count: a mean);
  ``"first"`` divides by the first poem's (``i``'s) line count, as the reference code does, so
  the lines of a longer first poem that have no partner count as 0. The two agree on poems of
  equal length.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..checks import require_choice, require_choices, require_positive_int
from ..errors import InvalidValueError
from .analyzer import Analyzer
from .poem import Poem
from .rouge import DEFAULT_ROUGE_TYPES, RougeTexts, check_rouge_types

WAYS = ("single_string", "line_by_line", "all_lines")
#: What the line-by-line sum of a pair of poems is divided by (module docstring).
LINE_BY_LINE_DIVISORS = ("shorter", "first")
# rows of an F1 matrix computed at once: memory grows as block_size x n, never n x n
DEFAULT_BLOCK_SIZE = 256


def poem_lines(poem: Poem, include_blank_lines: bool = False) -> tuple[str, ...]:
    """The lines novelty compares: non-empty ones, or all of them with blanks as ""."""
    return poem.raw_lines if include_blank_lines else poem.lines


def mean_pairwise_f1(
    texts: RougeTexts, rouge_type: str, *, block_size: int = DEFAULT_BLOCK_SIZE, bar=None
) -> float:
    """Mean F1 over the ordered pairs of distinct texts (at least 2 texts), computed in
    blocks of ``block_size`` rows (``bar``: a tqdm bar advanced once per block)."""
    n = len(texts)
    everything = np.arange(n)
    total = 0.0
    for start in range(0, n, block_size):
        rows = np.arange(start, min(n, start + block_size))
        block = texts.f1_matrix(rouge_type, rows, everything)
        # the diagonal pairs a text with itself (F1 1), which is not a pair of distinct texts
        block[np.arange(len(rows)), rows] = 0.0
        total += float(block.sum())
        if bar is not None:
            bar.update()
    return total / (n * (n - 1))


def intra_novelty(
    poem: Poem,
    include_blank_lines: bool = False,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    use_stemmer: bool = False,
) -> dict[str, float | None]:
    """Mean ROUGE F1 over ordered pairs of distinct lines, per ROUGE type."""
    rouge_types = check_rouge_types(rouge_types)
    lines = poem_lines(poem, include_blank_lines)
    if len(lines) < 2:
        return {rouge_type: None for rouge_type in rouge_types}
    texts = RougeTexts(lines, use_stemmer=use_stemmer)
    return {rouge_type: mean_pairwise_f1(texts, rouge_type) for rouge_type in rouge_types}


#: Above this many ordered pairs of poems, comparing all of them takes minutes to hours (every
#: line of every pair is compared), so the ``analyze`` command asks for ``--sample-pairs``.
MAX_ALL_PAIRS = 25_000_000


def check_all_pairs(n_poems: int, sample_pairs: int | None, option: str = "--sample-pairs") -> None:
    """Refuse, before any work, an all-pairs inter-poem novelty over more than
    :data:`MAX_ALL_PAIRS` ordered pairs when no sample size was given, saying what to give."""
    pairs = n_poems * (n_poems - 1)
    if sample_pairs is None and pairs > MAX_ALL_PAIRS:
        raise InvalidValueError(
            f"inter-poem novelty over all {pairs:,} ordered pairs of {n_poems:,} poems would "
            f"compare every line of every pair (more than {MAX_ALL_PAIRS:,} pairs: minutes to "
            f"hours); give {option} K to use K sampled pairs (e.g. {option} 1000000), or "
            f"{option} {pairs} for all of them"
        )


def sample_ordered_pairs(n: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` distinct ordered pairs (i, j), i != j, of ``range(n)``, drawn uniformly."""
    population = n * (n - 1)
    rng = np.random.default_rng(seed)
    index = np.sort(rng.choice(population, size=min(count, population), replace=False))
    # index = i x (n - 1) + r enumerates the pairs without the diagonal: j is r, or r + 1 once
    # r reaches i
    first, rest = np.divmod(index, n - 1)
    return first, rest + (rest >= first)


class _Collection:
    """Lines and single strings of a collection, tokenized once for every way and type."""

    def __init__(self, poems: Sequence[Poem], include_blank_lines: bool, use_stemmer: bool):
        line_lists = [poem_lines(poem, include_blank_lines) for poem in poems]
        self.sizes = np.array([len(lines) for lines in line_lists], dtype=np.int64)
        self.starts = np.concatenate(([0], np.cumsum(self.sizes)))[:-1]
        self.owner = np.repeat(np.arange(len(poems)), self.sizes)
        self.lines = RougeTexts(
            [line for lines in line_lists for line in lines], use_stemmer=use_stemmer
        )
        self.strings = RougeTexts(
            [" ".join(lines) for lines in line_lists], use_stemmer=use_stemmer
        )


def _block_count(data: _Collection, way: str, block_size: int) -> int:
    """Blocks :func:`_all_pairs` computes for one way and ROUGE type (for the progress bar)."""
    if way == "single_string":
        return math.ceil(len(data.sizes) / block_size)
    if way == "all_lines":
        return math.ceil(len(data.owner) / block_size)
    holders = [int(np.sum(data.sizes > k)) for k in range(int(data.sizes.max()))]
    return sum(math.ceil(count / block_size) for count in holders if count >= 2)


def _line_by_line_divisors(
    first_sizes: np.ndarray, second_sizes: np.ndarray, divisor: str
) -> np.ndarray:
    """Divisors of the line-by-line sums, first poems as rows and second ones as columns."""
    if divisor == "first":
        return np.broadcast_to(first_sizes[:, None], (len(first_sizes), len(second_sizes)))
    return np.minimum.outer(first_sizes, second_sizes)


def _all_pairs(
    data: _Collection, way: str, rouge_type: str, block_size: int, bar, divisor: str = "shorter"
) -> float:
    n = len(data.sizes)
    if way == "single_string":
        return mean_pairwise_f1(data.strings, rouge_type, block_size=block_size, bar=bar)
    if way == "line_by_line":
        total = 0.0
        # the k-th lines of all poems that have one are compared at once, the poems holding a k-th
        # line being rows and columns alike; each F1 is divided by its pair's divisor before summing
        for k in range(int(data.sizes.max())):
            holders = np.flatnonzero(data.sizes > k)
            if len(holders) < 2:
                continue
            rows_all = data.starts[holders] + k
            for start in range(0, len(holders), block_size):
                part = slice(start, start + block_size)
                block = data.lines.f1_matrix(rouge_type, rows_all[part], rows_all)
                block /= _line_by_line_divisors(
                    data.sizes[holders[part]], data.sizes[holders], divisor
                )
                block[np.arange(block.shape[0]), np.arange(start, start + block.shape[0])] = 0.0
                total += float(block.sum())
                bar.update()
        return total / (n * (n - 1))
    # a pair of poems' mean over its line pairs is sum / (size_i x size_j): each line carries
    # 1 / its poem's size on both sides, and line pairs within one poem are zeroed
    weights = 1.0 / data.sizes[data.owner]
    everything = np.arange(len(data.owner))
    total = 0.0
    for start in range(0, len(everything), block_size):
        rows = everything[start : start + block_size]
        block = data.lines.f1_matrix(rouge_type, rows, everything)
        block *= weights[rows][:, None] * weights[None, :]
        block[data.owner[rows][:, None] == data.owner[None, :]] = 0.0
        total += float(block.sum())
        bar.update()
    return total / (n * (n - 1))


def _sampled_pairs(
    data: _Collection,
    way: str,
    rouge_type: str,
    first: np.ndarray,
    second: np.ndarray,
    divisor: str = "shorter",
) -> float:
    if way == "single_string":
        return float(data.strings.f1_pairs(rouge_type, first, second).mean())
    if way == "line_by_line":
        shared = np.minimum(data.sizes[first], data.sizes[second])
        pair = np.repeat(np.arange(len(first)), shared)
        # a flat run of every sampled pair's line pairs: ``pair`` says whose, ``k`` the rank within
        k = np.arange(len(pair)) - np.repeat(np.cumsum(shared) - shared, shared)
    else:
        shared = data.sizes[first] * data.sizes[second]
        pair = np.repeat(np.arange(len(first)), shared)
        within = np.arange(len(pair)) - np.repeat(np.cumsum(shared) - shared, shared)
        k, m = np.divmod(within, data.sizes[second][pair])
    a = data.starts[first][pair] + k
    b = data.starts[second][pair] + (k if way == "line_by_line" else m)
    scores = data.lines.f1_pairs(rouge_type, a, b)
    divided_by = data.sizes[first] if way == "line_by_line" and divisor == "first" else shared
    per_pair = np.bincount(pair, weights=scores, minlength=len(first)) / divided_by
    return float(per_pair.mean())


def inter_novelty(
    poems: Sequence[Poem],
    ways: Sequence[str] = WAYS,
    include_blank_lines: bool = False,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    use_stemmer: bool = False,
    sample_pairs: int | None = None,
    seed: int = 0,
    block_size: int = DEFAULT_BLOCK_SIZE,
    show_progress: bool = False,
    line_by_line_divisor: str = "shorter",
) -> dict[str, Any]:
    """Mean ROUGE F1 across the poems of a collection, each of ``ways`` (module docstring).

    Returns ``{way: {rouge_type: mean}}`` plus ``pairs`` (ordered pairs of poems used) and
    ``sampled`` (whether they were a sample).
    """
    rouge_types = check_rouge_types(rouge_types)
    if not ways:
        raise InvalidValueError(f"ways must be a non-empty subset of {WAYS}, got {list(ways)}")
    require_choices(ways, WAYS, "way")
    if len(poems) < 2:
        raise InvalidValueError(f"inter-poem novelty needs at least 2 poems, got {len(poems)}")
    require_positive_int(block_size, "block_size")
    require_choice(line_by_line_divisor, LINE_BY_LINE_DIVISORS, "line_by_line_divisor")
    n = len(poems)
    data = _Collection(poems, include_blank_lines, use_stemmer)
    result: dict[str, Any] = {way: {} for way in ways}
    # a sample as large as all the ordered pairs is all of them: computed exactly instead
    if sample_pairs is not None and require_positive_int(sample_pairs, "sample_pairs") < n * (
        n - 1
    ):
        first, second = sample_ordered_pairs(n, sample_pairs, seed)
        for way in ways:
            for rouge_type in rouge_types:
                result[way][rouge_type] = _sampled_pairs(
                    data, way, rouge_type, first, second, line_by_line_divisor
                )
        return {**result, "pairs": len(first), "sampled": True}
    steps = sum(_block_count(data, way, block_size) for way in ways) * len(rouge_types)
    bar_options = {"desc": "inter-poem novelty", "unit": "block", "disable": not show_progress}
    with tqdm(total=steps, **bar_options) as bar:
        for way in ways:
            for rouge_type in rouge_types:
                result[way][rouge_type] = _all_pairs(
                    data, way, rouge_type, block_size, bar, line_by_line_divisor
                )
    return {**result, "pairs": n * (n - 1), "sampled": False}


_ROUGE_OPTIONS = ("include_blank_lines", "rouge_types", "use_stemmer")

INTRA_NOVELTY = Analyzer(
    name="intra_novelty",
    kind="single",
    aspect="novelty",
    analyze=intra_novelty,
    description="mean ROUGE F1 between the poem's lines (high = repetitive)",
    options=_ROUGE_OPTIONS,
)

INTER_NOVELTY = Analyzer(
    name="inter_novelty",
    kind="collection",
    aspect="novelty",
    analyze=inter_novelty,
    description="mean ROUGE F1 between the collection's poems, three ways (high = repetitive)",
    options=(
        *_ROUGE_OPTIONS,
        "ways",
        "sample_pairs",
        "seed",
        "block_size",
        "show_progress",
        "line_by_line_divisor",
    ),
)
