"""Phonetic and written features of a pair of line-final words, as cells of three small tables.

Every way of lining up the two words' endings (each pair of their forms, see
:mod:`poetic_eval.rhyme.word_forms`, compared from the stressed vowel and, for weak rhymes, on the
last syllable) is one *candidate*, described by three cells:

- **vowel** (table A): the pair of compared vowels, in the stressed table (rhymes from the
  stressed vowel) or the weak table (last syllables, at least one unstressed); one more cell
  for a word without any pronunciation;
- **shape** (table B): the vowels' relation (same, near, far) x the alignment type x the coda
  relation (:mod:`poetic_eval.rhyme.phonetics`). Types: ``M`` both end on the stressed
  syllable; ``F0``-``F2`` both have the same number of syllables after it, and what follows is
  the same, close or different; ``X`` they have different numbers; ``W1``/``W2`` a weak rhyme
  of the last syllables with one or both unstressed, ``s``/``d`` whether the consonants before
  those vowels are the same; two cells for words without pronunciation (written endings equal
  or not);
- **evidence** (table C): whether the candidate is a perfect rhyme x the written-ending
  agreement (:func:`spelling_agreement`) x whether a historical form is used.

A pair's graded score is the best candidate's sum of the three cells' learned log-likelihood
ratios (:mod:`poetic_eval.rhyme.pair_model`).
"""

from __future__ import annotations

from .phonetics import (
    CODA_RELATIONS,
    FAR,
    SAME,
    VOWEL_PAIRS,
    VOWEL_RELATIONS,
    coda_relation,
    rest_relation,
    vowel_pair_index,
    vowel_relation,
)
from .word_forms import FinalSyllable, StressedEnding, WordForms

SHAPE_TYPES = ("M", "F0", "F1", "F2", "X", "W1s", "W1d", "W2s", "W2d")
_TYPE_INDEX = {name: i for i, name in enumerate(SHAPE_TYPES)}
N_VOWEL_CELLS = 2 * len(VOWEL_PAIRS) + 1
UNKNOWN_VOWEL_CELL = 2 * len(VOWEL_PAIRS)
_SHAPES_PER_RELATION = len(SHAPE_TYPES) * len(CODA_RELATIONS)
N_SHAPE_CELLS = len(VOWEL_RELATIONS) * _SHAPES_PER_RELATION + 2
UNKNOWN_SHAPE_CELL = len(VOWEL_RELATIONS) * _SHAPES_PER_RELATION
SPELLING_LEVELS = ("same_ending_3", "same_ending", "same_last_2", "different")
#: What the written evidence is conditioned on: how well the sounds already match.
MATCHES = ("imperfect, other coda", "imperfect, same coda", "perfect")
N_EVIDENCE_CELLS = len(MATCHES) * len(SPELLING_LEVELS) * 2

Candidate = tuple[int, int, int]


def vowel_cell_names() -> list[str]:
    names = [f"stressed {a}~{b}" for a, b in VOWEL_PAIRS] + [f"weak {a}~{b}" for a, b in VOWEL_PAIRS]
    return names + ["no pronunciation"]


def shape_cell_names() -> list[str]:
    names = [
        f"{relation} vowels, {kind}, {coda} coda"
        for relation in VOWEL_RELATIONS
        for kind in SHAPE_TYPES
        for coda in CODA_RELATIONS
    ]
    return names + ["no pronunciation, same ending", "no pronunciation, other ending"]


def evidence_cell_names() -> list[str]:
    return [
        f"{match}, {spelling}, {'historical' if old else 'modern'}"
        for match in MATCHES
        for spelling in SPELLING_LEVELS
        for old in (False, True)
    ]


def shape_blocks() -> list[int]:
    """The block of each shape cell: (vowel relation, weak alignment?), and one for words without
    pronunciation. A shape's probability is conditional on its block, which the vowel cell
    already decides, so the three cells do not count the same evidence twice."""
    blocks = [
        relation * 2 + kind.startswith("W")
        for relation in range(len(VOWEL_RELATIONS))
        for kind in SHAPE_TYPES
        for _ in CODA_RELATIONS
    ]
    return blocks + [2 * len(VOWEL_RELATIONS)] * 2


def evidence_blocks() -> list[int]:
    """The block of each evidence cell: its sound match (MATCHES, which the shape cell decides)."""
    return [cell // (2 * len(SPELLING_LEVELS)) for cell in range(N_EVIDENCE_CELLS)]


def spelling_agreement(a: WordForms, b: WordForms) -> int:
    """Index into SPELLING_LEVELS: the same written ending (last vowel letters onward) of at
    least 3 letters ("love" / "prove"), the same shorter ending ("war" / "star"), the same last
    two letters, or none of these."""
    if a.ending is not None and a.ending == b.ending:
        return 0 if len(a.ending) >= 3 else 1
    if len(a.letters) >= 2 and a.letters[-2:] == b.letters[-2:]:
        return 2
    return 3


def _shape(relation: int, kind: str, coda: int) -> int:
    return relation * _SHAPES_PER_RELATION + _TYPE_INDEX[kind] * len(CODA_RELATIONS) + coda


def stressed_alignment(a: StressedEnding, b: StressedEnding) -> tuple[int, int, int]:
    """(vowel cell, shape cell, match) of two endings compared from their stressed vowels;
    match indexes MATCHES."""
    relation = vowel_relation(a.vowel, b.vowel)
    coda = coda_relation(a.coda, b.coda)
    if a.syllables_after == b.syllables_after == 0:
        kind = "M"
    elif a.syllables_after == b.syllables_after:
        kind = f"F{rest_relation(a.rest, b.rest)}"
    else:
        kind = "X"
    perfect = relation == SAME and coda == 0 and kind in ("M", "F0")
    match = 2 if perfect else int(coda <= 1)
    return vowel_pair_index(a.vowel, b.vowel), _shape(relation, kind, coda), match


def weak_alignment(a: FinalSyllable, b: FinalSyllable) -> tuple[int, int, int] | None:
    """(vowel cell, shape cell, match) of two last syllables, at least one unstressed (a weak
    rhyme); None when both are stressed, or their vowels are far apart and codas differ."""
    if a.stressed and b.stressed:
        return None
    relation = vowel_relation(a.vowel, b.vowel)
    if relation == FAR and a.coda != b.coda:
        return None
    stressed = "1" if a.stressed or b.stressed else "2"
    onset = "s" if a.onset == b.onset else "d"
    coda = coda_relation(a.coda, b.coda)
    return (
        len(VOWEL_PAIRS) + vowel_pair_index(a.vowel, b.vowel),
        _shape(relation, f"W{stressed}{onset}", coda),
        int(coda <= 1),
    )


def evidence_cell(match: int, spelling: int, historical: bool) -> int:
    """The evidence cell of a candidate's sound match, written agreement and historical flag."""
    return (match * len(SPELLING_LEVELS) + spelling) * 2 + historical


def unknown_candidate(spelling: int) -> Candidate:
    """The one candidate of a pair where a word has no pronunciation."""
    shape = UNKNOWN_SHAPE_CELL + (0 if spelling <= 1 else 1)
    return UNKNOWN_VOWEL_CELL, shape, evidence_cell(0, spelling, False)


def pair_candidates(a: WordForms, b: WordForms) -> tuple[Candidate, ...]:
    """Every candidate (vowel cell, shape cell, evidence cell) of two different words."""
    spelling = spelling_agreement(a, b)
    if not a.forms or not b.forms:
        return (unknown_candidate(spelling),)
    found: dict[Candidate, None] = {}
    for form_a in a.forms:
        for form_b in b.forms:
            historical = form_a.historical or form_b.historical
            for alignment in (stressed_alignment(form_a.ending, form_b.ending),
                              weak_alignment(form_a.final, form_b.final)):  # fmt: skip
                if alignment is not None:
                    vowel, shape, match = alignment
                    found[(vowel, shape, evidence_cell(match, spelling, historical))] = None
    return tuple(found)
