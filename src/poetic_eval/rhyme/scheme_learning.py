"""Learning the rhyme model from poems without labels: Reddy & Knight's EM over stanzas.

Reddy & Knight (2011, "Unsupervised discovery of rhyme schemes") treat a stanza's scheme as
hidden: a scheme is drawn from a prior, and every pair of lines in one rhyme group is a
rhyming pair. EM alternates between the posterior over each stanza's schemes given the current
pair probabilities (E) and new pair probabilities and scheme priors from those posteriors (M).
They learn a table over word pairs; here the pairs are described by phonetic classes instead
(:mod:`poetic_eval.rhyme.pair_features`), which generalise to words never seen together, and
the model is a naive-Bayes likelihood ratio over three cells per pair:

- **rhyme side**, P(cell | rhyme): the count of each cell over the pairs of lines of the
  training stanzas, each weighted by its squared link posterior (E step; squaring keeps the
  many small posteriors of non-rhyming pairs from adding up to rhyme mass), smoothed towards
  the non-rhyme distribution;
- **non-rhyme side**, P(cell | not a rhyme): the cells of random pairs of line-final words from
  two different poems, which are almost never rhymes;
- **scheme priors** for stanzas of 2 to 6 lines; for longer stanzas a sequential prior (open a
  group, or join the group whose latest line is d lines back), by self-training on them;
- a pair's cells are those of its best candidate under the current tables (hard assignment of
  the alignment, as in Viterbi training).

Longer stanzas are cut into 4-line windows (and a 2- or 3-line remainder), as sonnets fall into
quatrains and a couplet. Everything is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from .letters import letters_by_first_occurrence
from .pair_features import (
    CODA_BLOCKS,
    MATCHES,
    N_EVIDENCE_CELLS,
    N_SHAPE_CELLS,
    N_VOWEL_CELLS,
    SHAPE_TYPES,
    SPELLING_LEVELS,
    evidence_blocks,
    pair_candidates,
    shape_blocks,
    vowel_blocks,
)
from .pair_model import RhymeModel
from .phonetics import CODA_RELATIONS, NEAR, SAME, VOWEL_PAIRS, vowel_relation
from .scheme_decoder import TABLE_LINES, line_pairs, scheme_table
from .word_forms import word_forms

WINDOW = 4
#: Pseudo-counts pulling the rhyme side towards the non-rhyme side (rare cells stay neutral-low).
RHYME_SMOOTHING = 20.0
NON_RHYME_SMOOTHING = 0.5
PRIOR_SMOOTHING = 1.0
#: Share of the previous tables kept at each update after the first two (see learn_model).
DAMPING = 0.5
#: Distances of the join prior of long stanzas (longer ones use the last).
JOIN_DISTANCES = 8
BLOCKS = (np.array(vowel_blocks()), np.array(shape_blocks()), np.array(evidence_blocks()))


STANZA, WINDOWED = "stanza", "window"
#: Longest stanza used whole to learn the sequential prior of long stanzas.
LONGEST_STANZA = 24


def training_units(
    stanzas: Iterable[Sequence[str]], golds: Sequence[str] | None = None
) -> list[tuple]:
    """(kind, line-final words) units: stanzas of 2 to :data:`TABLE_LINES` lines as they are
    (kind "stanza"), longer ones cut into 4-line windows plus a remainder of 2 or more lines
    (kind "window"). With ``golds`` (one scheme per stanza), each unit is (kind, words, gold
    scheme of those lines), for supervised learning (:func:`learn_model`)."""
    units: list[tuple] = []
    stanzas = list(stanzas)
    golds = [None] * len(stanzas) if golds is None else list(golds)
    for words, gold in zip(stanzas, golds, strict=True):
        words = tuple(words)
        if len(words) <= TABLE_LINES:
            pieces = [(STANZA, 0, len(words))] if len(words) >= 2 else []
        else:
            pieces = [(WINDOWED, start, min(start + WINDOW, len(words)))
                      for start in range(0, len(words), WINDOW)
                      if len(words) - start >= 2]  # fmt: skip
        for kind, start, end in pieces:
            if gold is None:
                units.append((kind, words[start:end]))
            else:
                units.append((kind, words[start:end], letters_by_first_occurrence(gold[start:end])))
    return units


@dataclass
class _Pairs:
    """Distinct word pairs with their candidates as padded cell-index arrays."""

    vowel: np.ndarray
    shape: np.ndarray
    evidence: np.ndarray

    @classmethod
    def build(cls, keys: list[tuple[str, str]], language: str = "en") -> _Pairs:
        candidates = [pair_candidates(word_forms(a, language), word_forms(b, language))
                      for a, b in keys]  # fmt: skip
        width = max((len(c) for c in candidates), default=1)
        arrays = [np.full((len(keys), width), size, dtype=np.int64)
                  for size in (N_VOWEL_CELLS, N_SHAPE_CELLS, N_EVIDENCE_CELLS)]  # fmt: skip
        for row, found in enumerate(candidates):
            for column, cells in enumerate(found):
                for array, cell in zip(arrays, cells):
                    array[row, column] = cell
        return cls(*arrays)

    def best(self, tables: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
        """(score, index of the best candidate) of every pair under ``tables``."""
        padded = [np.append(t, -np.inf) for t in tables]
        scores = padded[0][self.vowel] + padded[1][self.shape] + padded[2][self.evidence]
        best = np.argmax(scores, axis=1)
        return scores[np.arange(len(scores)), best], best

    def cells(self, best: np.ndarray) -> tuple[np.ndarray, ...]:
        rows = np.arange(len(best))
        return self.vowel[rows, best], self.shape[rows, best], self.evidence[rows, best]


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def initial_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hand-set starting log-likelihood ratios: same vowels and codas rhyme, others less so."""
    relation_scores = {SAME: 2.0, NEAR: -1.0}
    pairs = [relation_scores.get(vowel_relation(a, b), -3.0) for a, b in VOWEL_PAIRS]
    vowel = np.array(pairs * (2 * len(CODA_BLOCKS)) + [0.0])
    coda_scores = [2.0, 0.5, 0.0, -1.5, -3.0]
    type_scores = {"M": 0.0, "F0": 0.0, "F1": -1.0, "F2": -3.0, "X": -2.0}
    shape = np.array(
        [coda_scores[c] + type_scores.get(kind, -1.5)
         for kind in SHAPE_TYPES for c in range(len(CODA_RELATIONS))] + [1.0, -3.0]
    )  # fmt: skip
    evidence = np.zeros(N_EVIDENCE_CELLS)
    for match in range(len(MATCHES)):
        for old in (0, 1):
            evidence[(match * len(SPELLING_LEVELS)) * 2 + old] = 0.5
    return vowel, shape, evidence


def vowel_pools() -> np.ndarray:
    """The pool of each vowel cell for pooled smoothing: the relation of its vowels (same,
    near, far; :func:`poetic_eval.rhyme.phonetics.vowel_relation`), the unknown cell apart."""
    relations = [vowel_relation(a, b) for a, b in VOWEL_PAIRS]
    pools = [relations[cell % len(VOWEL_PAIRS)] for cell in range(N_VOWEL_CELLS - 1)]
    return np.array([*pools, 3])


def _ratio(
    rhyme: np.ndarray, other: np.ndarray, blocks: np.ndarray, pools: np.ndarray | None = None
) -> np.ndarray:
    """log P(cell | block, rhyme) - log P(cell | block, not), smoothed as in the module
    docstring; each block of cells is a conditional distribution of its own.

    With ``pools`` (a pool id per cell), a cell's rhyme side is smoothed towards its pool's
    ratio instead of towards no evidence: with little data (German), a vowel pair never seen
    in a rhyme then scores like the other pairs of its relation (far vowels low), not 0."""
    ratio = np.zeros(len(rhyme))
    for block in np.unique(blocks):
        at = blocks == block
        o, r = other[at], rhyme[at]
        p_other = (o + NON_RHYME_SMOOTHING) / (o.sum() + NON_RHYME_SMOOTHING * len(o))
        target = p_other
        if pools is not None:
            pool = pools[at]
            pooled = np.zeros(len(o))
            for k in np.unique(pool):
                inside = pool == k
                share_rhyme = (r[inside].sum() + RHYME_SMOOTHING * p_other[inside].sum()) / (
                    r.sum() + RHYME_SMOOTHING
                )
                pooled[inside] = share_rhyme / p_other[inside].sum()
            target = p_other * pooled / (p_other * pooled).sum()
        p_rhyme = (r + RHYME_SMOOTHING * target) / (r.sum() + RHYME_SMOOTHING)
        ratio[at] = np.log(p_rhyme) - np.log(p_other)
    return ratio


@dataclass
class _Posteriors:
    """E-step results: per stanza length, the link posterior of each pair of each unit."""

    links: dict[int, np.ndarray]
    schemes: dict[int, np.ndarray]
    log_likelihood: float


def _e_step(ids, pair_score, repetition, priors) -> _Posteriors:
    links, schemes, log_likelihood = {}, {}, 0.0
    for group, rows in ids.items():
        length = group[0]
        table = scheme_table(length)[1]
        scores = np.where(rows >= 0, pair_score[np.maximum(rows, 0)], repetition)
        totals = scores @ table.T + priors[group]
        peak = totals.max(axis=1, keepdims=True)
        weights = np.exp(totals - peak)
        norm = weights.sum(axis=1, keepdims=True)
        log_likelihood += float((np.log(norm) + peak).sum())
        schemes[group] = weights / norm
        links[group] = schemes[group] @ table
    return _Posteriors(links, schemes, log_likelihood)


def _sequential_prior(
    long_stanzas: list[list[str]], model: RhymeModel, rounds: int = 3
) -> tuple[np.ndarray, float]:
    """(join prior, new-group prior) of long stanzas by self-training: decode them with the
    current priors, count how often a line opens a group or joins the group whose latest line
    is ``d`` back (d = 1..JOIN_DISTANCES, longer ones together), and repeat."""
    join, new = np.full(JOIN_DISTANCES, np.log(0.1)), np.log(0.5)
    for _ in range(rounds):
        model.join_prior, model.new_prior = join, new
        joins, opened, lines = np.zeros(JOIN_DISTANCES), 0, 0
        for scheme in model.schemes(long_stanzas):
            latest: dict[str, int] = {}
            for line, letter in enumerate(scheme):
                if letter in latest:
                    joins[min(line - latest[letter], JOIN_DISTANCES) - 1] += 1
                elif line:
                    opened += 1
                latest[letter] = line
            lines += len(scheme) - 1
        join = np.log(joins + 0.5) - np.log(lines + 1.0)
        new = float(np.log(opened + 0.5) - np.log(lines + 1.0))
    return join, new


def _pair_layouts(
    units: Sequence[tuple], language: str = "en"
) -> tuple[dict[tuple[str, str], int], dict[tuple[int, str], np.ndarray], dict]:
    """The distinct word pairs of ``units`` (pair -> id); per (lines, kind), one row per unit
    with the id of each of its line pairs (-1: the same word twice); and per (lines, kind) the
    gold scheme of each row where units carry one. Units with an unknown end word, or outside
    2 to :data:`TABLE_LINES` lines, are left out."""
    keys: dict[tuple[str, str], int] = {}
    layouts: dict[tuple[int, str], list[list[int]]] = {}
    golds: dict[tuple[int, str], list[str]] = {}
    for kind, words, *gold in units:
        unit = [word_forms(w, language).word for w in words]
        if not (2 <= len(unit) <= TABLE_LINES and all(unit)):
            continue
        row = []
        for i, j in line_pairs(len(unit)):
            a, b = unit[i], unit[j]
            row.append(-1 if a == b else keys.setdefault(_key(a, b), len(keys)))
        layouts.setdefault((len(unit), kind), []).append(row)
        if gold:
            golds.setdefault((len(unit), kind), []).append(gold[0])
    ids = {group: np.array(rows, dtype=np.int64) for group, rows in sorted(layouts.items())}
    return keys, ids, golds


def _gold_posteriors(ids, golds) -> _Posteriors:
    """The posteriors of supervised learning: each unit's gold scheme with probability 1 (the
    same in every EM round, so built once)."""
    schemes, links = {}, {}
    for group in ids:
        names, table = scheme_table(group[0])
        index = {name: k for k, name in enumerate(names)}
        one_hot = np.zeros((len(golds[group]), len(names)))
        one_hot[np.arange(len(one_hot)), [index[g] for g in golds[group]]] = 1.0
        schemes[group], links[group] = one_hot, one_hot @ table
    return _Posteriors(links, schemes, 0.0)


def gold_sequential_prior(golds: Iterable[str]) -> tuple[np.ndarray, float]:
    """(join prior, new-group prior) counted on gold schemes of long stanzas (as
    :func:`_sequential_prior` counts on decoded ones)."""
    joins, opened, lines = np.zeros(JOIN_DISTANCES), 0, 0
    for scheme in golds:
        latest: dict[str, int] = {}
        for line, letter in enumerate(scheme):
            if letter in latest:
                joins[min(line - latest[letter], JOIN_DISTANCES) - 1] += 1
            elif line:
                opened += 1
            latest[letter] = line
        lines += len(scheme) - 1
    join = np.log(joins + 0.5) - np.log(lines + 1.0)
    return join, float(np.log(opened + 0.5) - np.log(lines + 1.0))


def _m_step(
    ids: dict[tuple[int, str], np.ndarray],
    posteriors: _Posteriors,
    cells: tuple[np.ndarray, ...],
    priors: dict[tuple[int, str], np.ndarray],
    prior_smoothing: float = PRIOR_SMOOTHING,
) -> tuple[list[np.ndarray], float, float]:
    """The rhyme side of the M step: (cell counts per block, link mass on repeated words,
    total link mass); the scheme ``priors`` are updated in place."""
    counts = [np.zeros(N_VOWEL_CELLS), np.zeros(N_SHAPE_CELLS), np.zeros(N_EVIDENCE_CELLS)]
    repeated = total = 0.0
    for group, rows in ids.items():
        link, real = posteriors.links[group], rows >= 0
        # Squared posteriors on the rhyme side: small posteriors summed over the many
        # non-rhyming pairs would otherwise give every unrelated shape a share of rhyme
        # mass (and the prior learned with them would come out too sharp).
        weight = link**2
        for count, cell in zip(counts, cells):
            np.add.at(count, cell[rows[real]], weight[real])
        repeated += float(link[~real].sum())
        total += float(link.sum())
        posterior = posteriors.schemes[group]
        priors[group] = np.log(posterior.sum(axis=0) + prior_smoothing) - np.log(
            len(rows) + prior_smoothing * posterior.shape[1]
        )
    return counts, repeated, total


def learn_model(
    units: Sequence[tuple[str, Sequence[str]]],
    random_pairs: Sequence[tuple[str, str]],
    *,
    long_stanzas: Sequence[Sequence[str]] = (),
    iterations: int = 20,
    show_progress: bool = True,
    language: str = "en",
    long_golds: Sequence[str] | None = None,
    pooled_smoothing: bool = False,
    prior_smoothing: float = PRIOR_SMOOTHING,
) -> RhymeModel:
    """EM over ``units`` (:func:`training_units`), the non-rhyme side from ``random_pairs``
    (line-final words of different poems), the long stanzas' prior from ``long_stanzas``
    (:func:`_set_long_prior`); words read by the rules of ``language``. **Supervised** when
    every unit carries a gold scheme: the E step's posteriors are the gold schemes (the pair
    cells still follow the tables), and the long stanzas' prior is counted on ``long_golds``.
    ``pooled_smoothing``: see :func:`_ratio`; ``prior_smoothing``: pseudo-count per scheme."""
    data = _TrainingData.build(units, random_pairs, language)
    tables, repetition = initial_tables(), 3.0
    priors = {group: _uniform(len(scheme_table(group[0])[0])) for group in data.ids}
    history = []
    for step in tqdm(range(iterations), desc="rhyme EM", disable=not show_progress):
        pair_score, best = data.unit_pairs.best(tables)
        posteriors = _e_step(data.ids, pair_score, repetition, priors)
        history.append(posteriors.log_likelihood)
        cells = data.unit_pairs.cells(best)
        counts, repeated, total = _m_step(
            data.ids, data.gold or posteriors, cells, priors, prior_smoothing
        )
        updated = _new_tables(counts, data.other_pairs, tables, pooled_smoothing)
        # Damped after the first steps: the best candidate of a pair follows the tables, and
        # undamped updates can swing between two sets of best candidates.
        keep = DAMPING if step >= 2 else 0.0
        tables = tuple(keep * old + (1 - keep) * new for old, new in zip(tables, updated))
        repetition = float(np.log((repeated + 1e-3) / total) - np.log(data.repeated_other))
    model = _model_of(data, tables, repetition, priors, history, language)
    _set_long_prior(model, long_stanzas, long_golds)
    return model


@dataclass
class _TrainingData:
    """What EM reads, prepared once: the units' pair layouts (:func:`_pair_layouts`), the gold
    posteriors when every unit carries a gold scheme (else None), the candidates of the units'
    pairs and of the random pairs, and the share of random pairs that repeat a word."""

    keys: dict[tuple[str, str], int]
    ids: dict[tuple[int, str], np.ndarray]
    gold: _Posteriors | None
    unit_pairs: _Pairs
    other_pairs: _Pairs
    repeated_other: float
    random_pairs: int

    @classmethod
    def build(cls, units, random_pairs, language: str) -> _TrainingData:
        keys, ids, golds = _pair_layouts(units, language)
        supervised = bool(golds) and all(len(golds.get(g, ())) == len(r) for g, r in ids.items())
        others = [(word_forms(a, language).word, word_forms(b, language).word)
                  for a, b in random_pairs]  # fmt: skip
        others = [(a, b) for a, b in others if a and b]
        repeated = (sum(a == b for a, b in others) + NON_RHYME_SMOOTHING) / (len(others) + 1)
        return cls(
            keys,
            ids,
            _gold_posteriors(ids, golds) if supervised else None,
            _Pairs.build(list(keys), language),
            _Pairs.build([_key(a, b) for a, b in others if a != b], language),
            repeated,
            len(others),
        )


def _model_of(data: _TrainingData, tables, repetition, priors, history, language) -> RhymeModel:
    """The model of EM's final tables and priors (the threshold from the quatrains' link rate
    under the final posteriors, or under the gold schemes when supervised)."""
    final = data.gold or _e_step(data.ids, data.unit_pairs.best(tables)[0], repetition, priors)
    quatrain_links = final.links.get((4, STANZA))
    base_rate = float(np.mean(quatrain_links)) if quatrain_links is not None else 0.3
    return RhymeModel(
        vowel=tables[0],
        shape=tables[1],
        evidence=tables[2],
        repetition=repetition,
        scheme_priors={n: p for (n, kind), p in priors.items() if kind == STANZA},
        join_prior=np.full(JOIN_DISTANCES, np.log(0.1)),
        new_prior=float(np.log(0.5)),
        threshold=float(np.log1p(-base_rate) - np.log(base_rate)),
        language=language,
        info={
            "units": {f"{n} lines, {kind}": len(rows) for (n, kind), rows in data.ids.items()},
            "distinct_pairs": len(data.keys), "random_pairs": data.random_pairs,
            "log_likelihood": [round(x, 1) for x in history],
            **({"supervised": True} if data.gold is not None else {}),
        },
    )  # fmt: skip


def _uniform(count: int) -> np.ndarray:
    return np.full(count, -np.log(count))


def _new_tables(counts, other_pairs: _Pairs, tables, pooled_smoothing: bool) -> list[np.ndarray]:
    """The M step's tables: the rhyme side's ``counts`` against the cells of the random pairs'
    best candidates under the current ``tables``."""
    other_cells = other_pairs.cells(other_pairs.best(tables)[1])
    sizes = (N_VOWEL_CELLS, N_SHAPE_CELLS, N_EVIDENCE_CELLS)
    other_counts = [
        np.bincount(c, minlength=n).astype(np.float64) for c, n in zip(other_cells, sizes)
    ]
    pools = (vowel_pools() if pooled_smoothing else None, None, None)
    return [_ratio(r, o, b, p) for r, o, b, p in zip(counts, other_counts, BLOCKS, pools)]


def _set_long_prior(model: RhymeModel, long_stanzas, long_golds) -> None:
    """The sequential prior of long stanzas: counted on ``long_golds`` when given, else by
    self-training on ``long_stanzas`` (those of more than :data:`TABLE_LINES` and at most
    :data:`LONGEST_STANZA` lines)."""
    long_stanzas = [list(w) for w in long_stanzas if TABLE_LINES < len(w) <= LONGEST_STANZA]
    if long_golds is not None:
        long_golds = [g for g in long_golds if TABLE_LINES < len(g) <= LONGEST_STANZA]
        model.join_prior, model.new_prior = gold_sequential_prior(long_golds)
        model.info["long_stanzas"] = len(long_golds)
    elif long_stanzas:
        model.join_prior, model.new_prior = _sequential_prior(long_stanzas, model)
        model.info["long_stanzas"] = len(long_stanzas)
