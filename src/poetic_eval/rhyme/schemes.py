"""Rhyme schemes of poems: letters over lines from the line-final words' rhymes.

Lines whose final words rhyme (:func:`poetic_eval.rhyme.rhymes`) get the same letter, closed
transitively (union-find) and lettered by first occurrence ("ABAB", limericks "AABBA"). By
default a repeated line-final word also links its lines, as in the paper's data (its
"repetitions" are rhymes based on the same word); ``link_repetitions=False`` turns that off.
"""

from __future__ import annotations

import string
from itertools import combinations

from ..text import final_word, lines, typed_options
from .word_rhymes import keys_rhyme, rhyme_key, wider_rhyme

#: The 15 rhyme schemes of a quatrain (the partitions of 4 lines), in the paper's order.
QUATRAIN_SCHEMES: tuple[str, ...] = (
    "AAAA", "AAAB", "AABA", "AABB", "AABC", "ABAA", "ABAB", "ABAC",
    "ABBA", "ABBB", "ABBC", "ABCA", "ABCB", "ABCC", "ABCD",
)  # fmt: skip

#: Scheme letters, in order of first occurrence (52 groups; more continue past "z" in Unicode).
SCHEME_LETTERS = string.ascii_uppercase + string.ascii_lowercase


def end_words(poem: str) -> list[str]:
    """Line-final words of the non-empty lines of ``poem`` (:func:`poetic_eval.text.final_word`)."""
    return [final_word(line) for line in lines(poem)]


@typed_options
def scheme_letter(index: int) -> str:
    """The letter of the ``index``-th rhyme group (A-Z, a-z, then Unicode letters from U+00C0)."""
    if index < len(SCHEME_LETTERS):
        return SCHEME_LETTERS[index]
    return chr(0xC0 + index - len(SCHEME_LETTERS))


@typed_options
def scheme_of_words(
    words: list[str],
    *,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
) -> str:
    """Rhyme scheme over a list of line-final words (see :func:`rhyme_scheme`)."""
    keys = [rhyme_key(word) for word in words]
    parent = list(range(len(words)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in combinations(range(len(words)), 2):
        key_i, key_j = keys[i], keys[j]
        if key_i[0] and key_i[0] == key_j[0]:
            linked = link_repetitions
        else:
            linked = keys_rhyme(key_i, key_j) or wider_rhyme(
                key_i[0], key_j[0], weak=weak, near=near, historical=historical
            )
        if linked:
            parent[max(root(i), root(j))] = min(root(i), root(j))

    letters: dict[int, str] = {}
    for i in range(len(words)):
        letters.setdefault(root(i), scheme_letter(len(letters)))
    return "".join(letters[root(i)] for i in range(len(words)))


@typed_options
def rhyme_scheme(
    poem: str,
    *,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
) -> str:
    """Rhyme scheme of ``poem`` (lines separated by "\\n"; blank lines ignored), e.g. "ABAB".

    Lines whose final words rhyme (:func:`rhymes`) get the same letter, closed transitively
    (union-find): if lines 1-2 and 2-3 rhyme, 1 and 3 share a letter. Letters follow first
    occurrence. Any number of lines: a limerick gives "AABBA". With ``link_repetitions`` (the
    default), lines ending in the same word also share a letter (the paper counts such
    repetitions as rhymes and reports them apart; see :func:`is_repetition`). ``weak``,
    ``near`` and ``historical`` also link those wider rhymes (see :func:`rhymes`); all are off
    by default.
    """
    if not isinstance(poem, str):
        raise TypeError(f"poem must be a string, got {type(poem).__name__}")
    return scheme_of_words(
        end_words(poem),
        link_repetitions=link_repetitions,
        weak=weak,
        near=near,
        historical=historical,
    )


def is_repetition(poem: str, scheme: str | None = None) -> bool:
    """The paper's reference definition of a repetition, on this module's line-final words.

    True when the line-final words (:func:`end_words`, compared case-sensitively, as in the
    reference code) contain a duplicate AND the poem's scheme is not all-distinct ("ABCD" for a
    quatrain). The reference takes the last whitespace token and strips ASCII punctuation, which
    agrees wherever punctuation is attached to the word; on text that sets punctuation apart
    ("sight !", as in many digitised editions) it would compare empty strings, so the line-final
    word rule of the rhyme scheme is used instead, and lines without a word never count.
    ``scheme`` may be passed when already computed.
    """
    words = [word for word in end_words(poem) if word]
    scheme = rhyme_scheme(poem) if scheme is None else scheme
    rhyming = len(set(scheme)) < len(scheme)
    return rhyming and len(set(words)) < len(words)
