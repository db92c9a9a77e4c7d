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

from functools import lru_cache

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
from .word_forms import Form, WordForms

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


def _evidence(match: int, spelling: int, historical: bool) -> int:
    return (match * len(SPELLING_LEVELS) + spelling) * 2 + historical


@lru_cache(maxsize=500_000)
def _form_candidates(a: Form, b: Form) -> tuple[tuple[int, int, bool], ...]:
    """(vowel cell, shape cell, match) of the stressed and the weak alignment of two forms;
    match indexes MATCHES."""
    found = []
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
    found.append((vowel_pair_index(a.vowel, b.vowel), _shape(relation, kind, coda), match))
    if not (a.final_stressed and b.final_stressed):
        weak_relation = vowel_relation(a.final_vowel, b.final_vowel)
        if weak_relation != FAR or a.final_coda == b.final_coda:
            stressed = "1" if a.final_stressed or b.final_stressed else "2"
            onset = "s" if a.final_onset == b.final_onset else "d"
            weak_coda = coda_relation(a.final_coda, b.final_coda)
            found.append((
                len(VOWEL_PAIRS) + vowel_pair_index(a.final_vowel, b.final_vowel),
                _shape(weak_relation, f"W{stressed}{onset}", weak_coda),
                int(weak_coda <= 1),
            ))  # fmt: skip
    return tuple(found)


def pair_candidates(a: WordForms, b: WordForms) -> tuple[Candidate, ...]:
    """Every candidate (vowel cell, shape cell, evidence cell) of two different words."""
    spelling = spelling_agreement(a, b)
    if not a.forms or not b.forms:
        shape = UNKNOWN_SHAPE_CELL + (0 if spelling <= 1 else 1)
        return ((UNKNOWN_VOWEL_CELL, shape, _evidence(0, spelling, False)),)
    found: dict[Candidate, None] = {}
    for form_a in a.forms:
        for form_b in b.forms:
            historical = form_a.historical or form_b.historical
            for vowel, shape, match in _form_candidates(form_a, form_b):
                found[(vowel, shape, _evidence(match, spelling, historical))] = None
    return tuple(found)
