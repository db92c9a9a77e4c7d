"""Agreement minimal pairs reduced to the verb slot: left context, right context, the two forms.

Preprocessing follows refining-tse (Newman et al. 2021): strip punctuation at both ends, split
on whitespace, find the single differing token; the contexts come from ``sentence_good``, the
first word is capitalised and the right context ends with ".".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...agreement.agreement_pairs import as_tse_label, pair_tokens, single_token_difference
from ...checks import typed_options
from ...errors import InvalidValueError
from ...lm import ModelKind


@dataclass(frozen=True)
class VerbSlot:
    """One minimal pair reduced to the verb slot.

    ``left`` and ``right`` are the words of ``sentence_good`` around the verb after
    preprocessing (first word capitalised; ``right`` does not include the final ".").
    """

    left: tuple[str, ...]
    right: tuple[str, ...]
    correct: str
    incorrect: str
    label: int

    @property
    def left_text(self) -> str:
        return " ".join(self.left)

    def masked_text(self, mask_token: str) -> str:
        """``left [MASK] right.`` (the tokenizer adds [CLS] and [SEP])."""
        words = [*self.left, mask_token, *self.right]
        return " ".join(words) + "."

    def visible_text(self, kind: ModelKind, mask_token: str = "[MASK]") -> str:
        """What the model sees: the left context (causal) or the masked sentence (masked)."""
        return self.left_text if kind == "causal" else self.masked_text(mask_token)


@typed_options
def verb_slot(
    sentence_good: str, sentence_bad: str, label: int | str, row: int | None = None
) -> VerbSlot:
    """Preprocess one pair: strip punctuation at both ends, split on whitespace, find the one
    differing word, capitalise the first word of the context.

    Raises ValueError naming ``row`` when the sentences do not differ in exactly one word.
    """
    where = f"row {row}" if row is not None else "pair"
    label = as_tse_label(label, where)
    try:
        index, _, _ = single_token_difference(sentence_good, sentence_bad)
    except ValueError as error:
        raise InvalidValueError(
            f"{where}: {error}; a verb minimal pair differs in the verb only"
        ) from None
    good, bad = pair_tokens(sentence_good), pair_tokens(sentence_bad)
    good[0], bad[0] = _capitalized(good[0]), _capitalized(bad[0])
    return VerbSlot(
        left=tuple(good[:index]),
        right=tuple(good[index + 1 :]),
        correct=good[index],
        incorrect=bad[index],
        label=label,
    )


def _capitalized(word: str) -> str:
    # only the first character: str.capitalize() (the reference code's) would also lower the rest
    return word[:1].upper() + word[1:]


def verb_slots(
    sentences_good: Sequence[str], sentences_bad: Sequence[str], labels: Sequence[int]
) -> list[VerbSlot]:
    """:func:`verb_slot` for every row; the three sequences must have the same length."""
    if not (len(sentences_good) == len(sentences_bad) == len(labels)):
        raise InvalidValueError(
            f"sentences_good ({len(sentences_good)}), sentences_bad ({len(sentences_bad)}) and "
            f"labels ({len(labels)}) must have the same length"
        )
    for name, column in (("sentences_good", sentences_good), ("sentences_bad", sentences_bad)):
        for row, value in enumerate(column):
            if not isinstance(value, str) or not value.strip():
                raise InvalidValueError(
                    f"{name}[{row}] must be a non-empty string, got {value!r:.60}"
                )
    return [
        verb_slot(good, bad, label, row)
        for row, (good, bad, label) in enumerate(zip(sentences_good, sentences_bad, labels))
    ]
