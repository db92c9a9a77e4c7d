"""Scheme letters and line-final words: the vocabulary every rhyme-scheme method shares."""

from __future__ import annotations

import string

from ..checks import typed_options
from ..text import final_word, lines

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


def letters_by_first_occurrence(labels) -> str:
    """Scheme letters (:func:`scheme_letter`) over any sequence of hashable labels, by first
    occurrence: ``"abab"`` -> ``"ABAB"``, ``(3, 3, 0)`` -> ``"AAB"``."""
    letters: dict[object, str] = {}
    for label in labels:
        if label not in letters:
            letters[label] = scheme_letter(len(letters))
    return "".join(letters[label] for label in labels)


def scheme_of_links(length: int, links) -> str:
    """The scheme of ``length`` lines whose groups are the transitive closure (union-find) of
    the linked pairs ``links`` (an iterable of (i, j) line indices), letters by first
    occurrence."""
    parent = list(range(length))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in links:
        i, j = root(i), root(j)
        parent[max(i, j)] = min(i, j)
    return letters_by_first_occurrence([root(i) for i in range(length)])
