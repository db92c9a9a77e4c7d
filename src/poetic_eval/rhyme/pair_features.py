"""Phonetic and written features of a pair of line-final words, as cells of three small tables.

Every way of lining up the two words' endings (each pair of their forms, see
:mod:`poetic_eval.rhyme.word_forms`, compared from the stressed vowel and, for weak rhymes, on the
last syllable) is one *candidate*, described by three cells, a chain of conditional
probabilities so that no evidence counts twice:

- **shape** (table B): the alignment type x the coda relation (:mod:`poetic_eval.rhyme.phonetics`).
  Types: ``M`` both end on the stressed syllable; ``F0``-``F2`` both have the same number of
  syllables after it, and what follows is the same, close or different; ``X`` they have
  different numbers; ``W1``/``W2`` a weak rhyme of the last syllables with one or both
  unstressed (``W2``: no longer produced, see :func:`weak_alignment`), ``s``/``d`` whether
  the consonants before those vowels are the same; two cells for
  words without pronunciation (written endings equal or not);
- **vowels** (table A), given the shape's *block* (stressed or weak alignment x codas the same
  up to voicing / close / different): the pair of compared vowels, one of 136. Conditioning on
  the coda is what lets the model learn that with the same coda AH~UW is a rhyme poets used
  ("love" / "prove", "come" / "doom") while AY~AE is not ("light" / "hat");
- **evidence** (table C), given how well the sounds match (perfect / same coda / other): the
  written-ending agreement (:func:`spelling_agreement`) x whether a historical form is used.

A pair's graded score is the best candidate's sum of the three cells' learned log-likelihood
ratios (:mod:`poetic_eval.rhyme.pair_model`).
"""

from __future__ import annotations

from .phonetics import (
    CODA_RELATIONS,
    FAR,
    SAME,
    VOWEL_PAIRS,
    coda_relation,
    rest_relation,
    vowel_pair_index,
    vowel_relation,
)
from .word_forms import FinalSyllable, StressedEnding, WordForms

SHAPE_TYPES = ("M", "F0", "F1", "F2", "X", "W1s", "W1d", "W2s", "W2d")
_TYPE_INDEX = {name: i for i, name in enumerate(SHAPE_TYPES)}
N_SHAPE_CELLS = len(SHAPE_TYPES) * len(CODA_RELATIONS) + 2
UNKNOWN_SHAPE_CELL = len(SHAPE_TYPES) * len(CODA_RELATIONS)
#: Coda blocks the vowel pair is conditioned on: codas 0-1, 2-3 and 4 of CODA_RELATIONS.
CODA_BLOCKS = ("same coda", "close coda", "other coda")
_CODA_BLOCK = (0, 0, 1, 1, 2)
N_VOWEL_CELLS = 2 * len(CODA_BLOCKS) * len(VOWEL_PAIRS) + 1
UNKNOWN_VOWEL_CELL = N_VOWEL_CELLS - 1
SPELLING_LEVELS = ("same_ending_3", "same_ending", "same_last_2", "different")
#: What the written evidence is conditioned on: how well the sounds already match.
MATCHES = ("imperfect, other coda", "imperfect, same coda", "perfect")
N_EVIDENCE_CELLS = len(MATCHES) * len(SPELLING_LEVELS) * 2

Candidate = tuple[int, int, int]


def vowel_blocks() -> list[int]:
    """The block of each vowel cell: (stressed or weak alignment, coda block), which the shape
    cell decides; one more for words without pronunciation."""
    return [cell // len(VOWEL_PAIRS) for cell in range(N_VOWEL_CELLS)]


def shape_blocks() -> list[int]:
    """One block for every shape of pronounced words, one for the two unpronounced cells."""
    return [0] * UNKNOWN_SHAPE_CELL + [1, 1]


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


def _shape(kind: str, coda: int) -> int:
    return _TYPE_INDEX[kind] * len(CODA_RELATIONS) + coda


def _vowel(weak: bool, coda: int, a: str, b: str) -> int:
    block = weak * len(CODA_BLOCKS) + _CODA_BLOCK[coda]
    return block * len(VOWEL_PAIRS) + vowel_pair_index(a, b)


def stressed_alignment(a: StressedEnding, b: StressedEnding) -> tuple[int, int, int]:
    """(vowel cell, shape cell, match) of two endings compared from their stressed vowels;
    match indexes MATCHES, or is :data:`SUFFIX_ONLY` (see :func:`evidence_spelling`)."""
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
    if match == 0 and a.syllables_after and b.syllables_after:
        match = SUFFIX_ONLY
    return _vowel(False, coda, a.vowel, b.vowel), _shape(kind, coda), match


#: The match of a stressed alignment whose stressed syllables differ in vowel and coda while
#: both words go on after them: whatever the two words share lies in their unstressed
#: syllables ("singing" / "trusting", "copper" / "disorder"). Its evidence cell is that of an
#: imperfect match with another coda and *no* written agreement: a shared suffix is spelt alike
#: ("-ing", "-er", "-ed"), so the written ending (last vowel letters onward) says nothing more
#: than the shape's rest relation. Counted as written evidence, it made such suffix-only pairs
#: most of the false rhymes between unrelated line ends.
SUFFIX_ONLY = -1


def evidence_spelling(match: int, spelling: int) -> tuple[int, int]:
    """(match, spelling level) of a candidate's evidence cell: a :data:`SUFFIX_ONLY` match
    counts as "imperfect, other coda" with no written agreement."""
    if match == SUFFIX_ONLY:
        return 0, len(SPELLING_LEVELS) - 1
    return match, spelling


def weak_alignment(a: FinalSyllable, b: FinalSyllable) -> tuple[int, int, int] | None:
    """(vowel cell, shape cell, match) of two last syllables, one stressed and one not (a weak
    rhyme: "be" / "piety"); None when both are stressed, when both are unstressed, or when
    their vowels are far apart and codas differ.

    Two unstressed last syllables alone ("horses" / "vexes", "singing" / "trusting") are not
    compared: the same suffix is no rhyme, and where poets rhymed such words ("captivity" /
    "posterity") the stressed alignment compares the whole ending. Allowing them put most of
    the false rhymes between unrelated line ends (the W2 shape cells stay in the tables,
    unused, so that the model files keep their format)."""
    if a.stressed == b.stressed:
        return None
    relation = vowel_relation(a.vowel, b.vowel)
    if relation == FAR and a.coda != b.coda:
        return None
    stressed = "1" if a.stressed or b.stressed else "2"
    onset = "s" if a.onset == b.onset else "d"
    coda = coda_relation(a.coda, b.coda)
    return _vowel(True, coda, a.vowel, b.vowel), _shape(f"W{stressed}{onset}", coda), int(coda <= 1)


def evidence_cell(match: int, spelling: int, historical: bool) -> int:
    """The evidence cell of a candidate's sound match, written agreement and historical flag."""
    match, spelling = evidence_spelling(match, spelling)
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
