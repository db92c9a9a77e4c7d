"""Scheme letters written independently of poetic_eval.rhyme, for the rhyme-scheme tests."""

from __future__ import annotations


def restricted_growth(partition: tuple[int, ...]) -> str:
    """Letters by first occurrence of a sequence of group ids."""
    letters: dict[int, str] = {}
    return "".join(letters.setdefault(g, chr(65 + len(letters))) for g in partition)
