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

The search for near-duplicate units, exact and pruned by upper bounds of the ratio, is
:mod:`poetic_eval.diversity.near_duplicates`; what depends on the training units alone (their
length order, pieces and histograms) is built once per level and kept on a
:class:`~poetic_eval.text.PoemCorpus`, and on disk for a later process (see
:func:`_index_form`).

``autojunk`` (default True, as the reference code) is passed to ``SequenceMatcher``; the
generated unit is the second sequence, so its characters that occur more than ``1 + n // 100``
times in a unit of 200+ characters cannot start a match. The ratio is therefore not symmetric.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from itertools import chain

import numpy as np

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
from .near_duplicates import UnitIndex, build_unit_index, nearest_units
from .ratio_bounds import unit_pieces
from .stored_forms import code_version

LEVELS = ("quatrain", "couplet", "verse")
DEFAULT_THRESHOLDS = {"quatrain": 0.7, "couplet": 0.8, "verse": 0.9}


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


def _training_index(references: Sequence[str], level: str) -> tuple[_Corpus, UnitIndex]:
    """The distinct training units of ``level`` and their :class:`UnitIndex`."""
    training, _ = _units_by_text(references, level)
    return training, build_unit_index(training.texts)


#: Bumped when the arrays of :func:`_index_form` change meaning; the code's hash is added too.
INDEX_FORMAT = "memorization-index/v2"


def _index_form() -> StoredForm:
    """The training index of a level as arrays (no pickles): the distinct units in corpus
    order as UTF-8 with their lengths, where each first occurs, their length order, the
    histogram alphabet and counts. Pieces are cut again on reading (cheap)."""

    def encode(index: tuple[_Corpus, UnitIndex]) -> dict[str, np.ndarray]:
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

    def decode(arrays: dict[str, np.ndarray]) -> tuple[_Corpus, UnitIndex]:
        joined = arrays["utf8"].tobytes().decode("utf-8", "surrogatepass")
        lengths, order = arrays["lengths"], arrays["order"]
        ends = np.cumsum(lengths)
        texts = list(map(joined.__getitem__, map(slice, (ends - lengths).tolist(), ends.tolist())))
        inverse = np.empty_like(order)
        inverse[order] = np.arange(len(order))
        choices = UnitIndex(
            texts=texts,
            ids=order,
            lengths=lengths,
            pieces=unit_pieces(texts),
            alphabet={chr(code): column for column, code in enumerate(arrays["alphabet"].tolist())},
            counts=arrays["counts"],
        )
        return _Corpus(_Reordered(texts, inverse), arrays["first"]), choices

    return StoredForm("memorization-index", f"{INDEX_FORMAT} {code_version()}", encode, decode)


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
    search = {"autojunk": autojunk, "workers": workers, "show_progress": show_progress}
    for level in levels:
        share, found = _level_matches(
            predictions, references, level, thresholds[level], return_matches, search
        )
        result[f"memorization_{level}"] = share
        if return_matches:
            matches[level] = found
    if return_matches:
        result["matches"] = matches
    return result


def _level_matches(
    predictions: list[str],
    references: Sequence[str],
    level: str,
    threshold: float,
    return_matches: bool,
    search: dict,
) -> tuple[float, list[dict]]:
    """The share of memorized units of ``level`` and (with ``return_matches``) their matches."""
    generated, generated_ids = _units_by_text(predictions, level)
    # a PoemCorpus keeps its training index for the next call, and on disk for the next process
    training, choices = derived(
        references,
        ("memorization_index", level),
        partial(_training_index, references, level),
        _index_form(),
    )
    found = nearest_units(
        generated.texts,
        choices,
        threshold,
        find_best=return_matches,
        description=f"memorization ({level})",
        **search,
    )
    total = sum(len(ids) for ids in generated_ids)
    memorized = sum(found[i] is not None for ids in generated_ids for i in ids)
    share = memorized / total if total else math.nan
    if not return_matches:
        return share, []
    return share, [
        asdict(_unit_match(p, u, generated.texts[i], found[i], training))
        for p, ids in enumerate(generated_ids)
        for u, i in enumerate(ids)
        if found[i] is not None
    ]


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
