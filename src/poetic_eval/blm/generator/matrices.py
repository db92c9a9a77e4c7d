"""A generated BLM matrix (7 context sentences, 8 labelled answers) and its record.

Every sentence carries its annotation: the ``pattern`` (tags in order, e.g.
``"Prefix Subj_pl P1_sg P2_pl V_pl"`` or ``"Pat Pass da-Ag P-NP"``) and its ``chunks`` (tag and
text of each part; the sentence is the chunks joined by spaces, capitalised and with a final
period for AgrI). :func:`matrix_record` places the answers (the correct one at a given letter,
the others in a seeded order) and writes the release-format record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..records import LETTERS, make_blm_record
from ..text_forms import to_text_form

#: BLM lexical types: II changes one of the matrix's words per sentence, III draws all afresh
LEXICAL_TYPES = ("II", "III")


@dataclass(frozen=True)
class Chunk:
    tag: str
    text: str


@dataclass(frozen=True)
class Sentence:
    pattern: str
    chunks: tuple[Chunk, ...]
    text: str
    verb: str = ""  # the lemma of the sentence's verb (AgrI: of its predicate, essere + adjective)

    def annotation(self, text_format: str = "natural") -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "verb": self.verb,
            "chunks": [
                {"tag": chunk.tag, "text": to_text_form(chunk.text, text_format)}
                for chunk in self.chunks
            ],
        }


@dataclass(frozen=True)
class Matrix:
    """Context sentences and answers; ``answers[0]`` is the correct one (label "Correct")."""

    context: tuple[Sentence, ...]
    answers: tuple[tuple[str, Sentence], ...]
    verb: str
    #: CausI/OdI: the context told without its noun modifiers (*il vaso* for *il vaso di
    #: vetro*), on which an item's being new and an answer's repeating a context sentence are
    #: judged: a modifier alone makes no new item (so the items drawn, and their answers, are
    #: those drawn without modifiers)
    plain_context: tuple[Sentence, ...] = ()

    def answer_texts(self) -> list[str]:
        return [sentence.text for _, sentence in self.answers]

    def context_key(self) -> tuple[str, ...]:
        """What tells this item's context from another's (:attr:`plain_context` if any)."""
        return tuple(sentence.text for sentence in self.plain_context or self.context)

    def is_well_formed(self) -> bool:
        """7 context sentences, 8 answers that all differ, none repeating a context sentence
        (with or without its modifiers)."""
        texts = self.answer_texts()
        contexts = {sentence.text for sentence in (*self.context, *self.plain_context)}
        return (
            len(self.context) == 7
            and len(texts) == len(LETTERS)
            and len(set(texts)) == len(texts)
            and not contexts & set(texts)
        )


def matrix_record(
    item_id: int,
    matrix: Matrix,
    correct_position: int,
    rng: random.Random,
    text_format: str = "natural",
) -> dict[str, Any]:
    """The release-format record of ``matrix``, its correct answer at ``correct_position``,
    its sentences and chunks in ``text_format`` (:mod:`..text_forms`)."""
    others = list(matrix.answers[1:])
    rng.shuffle(others)
    placed = others[:correct_position] + [matrix.answers[0]] + others[correct_position:]
    return make_blm_record(
        item_id,
        [to_text_form(sentence.text, text_format) for sentence in matrix.context],
        [to_text_form(sentence.text, text_format) for _, sentence in placed],
        correct_position,
        [label for label, _ in placed],
        verb=matrix.verb,
        context_annotation=[sentence.annotation(text_format) for sentence in matrix.context],
        answer_annotation=[sentence.annotation(text_format) for _, sentence in placed],
    )


def balanced_positions(n_items: int, rng: random.Random) -> list[int]:
    """``n_items`` answer positions (0-7), each ``n_items // 8`` or one more times, shuffled."""
    n_letters = len(LETTERS)
    remainder = n_items % n_letters
    positions = [i % n_letters for i in range(n_items - remainder)]
    positions += rng.sample(range(n_letters), remainder)  # which letters get one more: seeded
    rng.shuffle(positions)
    return positions


def pick(rng: random.Random, values: Sequence[Any], *, avoid: Sequence[Any] = ()) -> Any:
    """A random element of ``values`` that is not in ``avoid``; ValueError when none is left."""
    if not avoid and values:
        return values[rng.randrange(len(values))]
    allowed = [value for value in values if value not in avoid]
    if not allowed:
        raise ValueError(f"nothing to choose from {list(values)[:5]} without {list(avoid)}")
    return allowed[rng.randrange(len(allowed))]
