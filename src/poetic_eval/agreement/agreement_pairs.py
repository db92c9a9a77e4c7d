"""Subject-verb agreement minimal pairs: the row type, the labels and the one-token check.

Rows follow the refining-tse convention (Newman et al. 2021): ``sentence_good`` and
``sentence_bad`` differ in exactly one whitespace token, and the label says whether the
verb form of the good sentence is singular or plural. refining-tse writes that label as a
number, -1 (correct verb singular) or -2 (correct verb plural); the published datasets use
a ClassLabel with :data:`LABEL_NAMES` instead, so index 0 = "singular" = -1 and
index 1 = "plural" = -2 (:func:`tse_label`, :func:`label_from_tse`).
"""

from __future__ import annotations

import string
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..checks import require_choice
from ..errors import InvalidValueError

SINGULAR = "singular"
PLURAL = "plural"
LABEL_NAMES = (SINGULAR, PLURAL)
"""ClassLabel names, in index order."""

#: refining-tse's numeric labels by label name.
TSE_LABELS = {SINGULAR: -1, PLURAL: -2}
_EDGE_PUNCTUATION = string.punctuation


@dataclass(frozen=True)
class AgreementPair:
    """One minimal pair.

    ``label`` is "singular" or "plural": the number of the verb form in ``sentence_good``
    (the varied verb's subject). ``family`` names the template family or paradigm (a Marvin
    & Linzen template such as ``obj_rel_across_anim`` or a BLiMP paradigm UID) and ``case``
    the numbers of the nouns in Marvin & Linzen's notation, e.g. ``sing_MS_MV_plur_ES``
    (singular main subject and verb, plural embedded subject); ``case`` is "" when the
    source does not record it.
    """

    sentence_good: str
    sentence_bad: str
    label: str
    family: str
    case: str

    def __post_init__(self) -> None:
        require_choice(self.label, LABEL_NAMES, "label")

    def as_row(self) -> dict[str, str]:
        return asdict(self)


def other_number(label: str) -> str:
    """The other grammatical number: singular <-> plural."""
    require_choice(label, LABEL_NAMES, "label")
    return PLURAL if label == SINGULAR else SINGULAR


def tse_label(label: str) -> int:
    """refining-tse's numeric label: -1 for "singular", -2 for "plural"."""
    require_choice(label, TSE_LABELS, "label")
    return TSE_LABELS[label]


def label_from_tse(value: object) -> str:
    """The label name of refining-tse's numeric label (-1 -> "singular", -2 -> "plural"); a
    ValueError for anything else (the readers add the file and line)."""
    for name, number in TSE_LABELS.items():
        if value == number and not isinstance(value, bool):
            return name
    raise InvalidValueError(
        f"a refining-tse label must be -1 (singular) or -2 (plural), got {value!r}"
    )


def pair_tokens(sentence: str) -> list[str]:
    """Whitespace tokens of a sentence after stripping punctuation at both ends (refining-tse)."""
    return sentence.strip().strip(_EDGE_PUNCTUATION).split()


def single_token_difference(sentence_good: str, sentence_bad: str) -> tuple[int, str, str]:
    """Position and the two words of the one token where the sentences differ.

    Both sentences are split by :func:`pair_tokens`. Raises ValueError when the token
    counts differ or when not exactly one position differs.
    """
    good, bad = pair_tokens(sentence_good), pair_tokens(sentence_bad)
    if len(good) != len(bad):
        raise InvalidValueError(
            f"sentences have {len(good)} and {len(bad)} tokens, a minimal pair needs the same "
            f"number: {sentence_good!r} / {sentence_bad!r}"
        )
    positions = [index for index, (a, b) in enumerate(zip(good, bad)) if a != b]
    if len(positions) != 1:
        raise InvalidValueError(
            f"sentences differ in {len(positions)} tokens, expected exactly 1: "
            f"{sentence_good!r} / {sentence_bad!r}"
        )
    index = positions[0]
    return index, good[index], bad[index]


def as_tse_label(label: Any, where: str) -> int:
    """-1 or -2 from a refining-tse number or a label name ("singular" / "plural");
    ValueError naming ``where`` otherwise."""
    if isinstance(label, str) and label in TSE_LABELS:
        return TSE_LABELS[label]
    numeric = isinstance(label, (int, np.integer)) and not isinstance(label, (bool, np.bool_))
    if not numeric or int(label) not in TSE_LABELS.values():
        raise InvalidValueError(
            f"{where}: label must be -1, -2, 'singular' or 'plural', got {label!r}"
        )
    return int(label)
