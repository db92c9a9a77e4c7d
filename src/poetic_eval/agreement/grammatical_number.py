"""Which word of a minimal pair is the singular one: agreeing verbs and subject nouns.

Used to label published pairs that carry no label (BLiMP) and to check labels. Both functions
look only at the two words, by English morphology: a table of be/have/do forms (with their
contractions) and irregular noun plurals, then regular suffix rules (-s, -es, -ies, -ves,
Latin and Greek plurals). A pair that fits no rule is an error rather than a guess.
"""

from __future__ import annotations

from ..errors import InvalidValueError
from .agreement_pairs import PLURAL, SINGULAR

_SINGULAR_AUXILIARIES = {"is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't"}
_PLURAL_AUXILIARIES = {"are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"}
_IRREGULAR_PLURALS = {
    "person": "people",
    "child": "children",
    "ox": "oxen",
    "foot": "feet",
    "tooth": "teeth",
    "goose": "geese",
    "mouse": "mice",
    "louse": "lice",
}
# (singular ending, plural ending) of Latin, Greek and Germanic plurals
_ENDING_PLURALS = (
    ("man", "men"),
    ("us", "i"),
    ("is", "es"),
    ("on", "a"),
    ("um", "a"),
    ("ix", "ices"),
    ("ex", "ices"),
    ("fe", "ves"),
    ("f", "ves"),
    ("y", "ies"),
)


def verb_pair_number(good: str, bad: str) -> str:
    """ "singular" or "plural": the number of the present-tense verb form ``good``.

    ``bad`` is the same verb in the other number ("likes"/"like", "isn't"/"aren't"; BLiMP
    also pairs "isn't" with "weren't"). Raises ValueError when neither word is recognisably
    the 3rd-person singular form of the other.
    """
    word, other = good.lower(), bad.lower()
    if word in _SINGULAR_AUXILIARIES:
        return SINGULAR
    if word in _PLURAL_AUXILIARIES:
        return PLURAL
    if word in _third_person_forms(other):
        return SINGULAR
    if other in _third_person_forms(word):
        return PLURAL
    raise InvalidValueError(
        f"cannot tell which of the verb forms {good!r} / {bad!r} is singular: neither is the "
        "other's -s form"
    )


def noun_pair_number(good: str, bad: str) -> str:
    """ "singular" or "plural": the number of the noun ``good``, ``bad`` being its other number.

    Raises ValueError when neither word is a plural of the other.
    """
    word, other = good.lower(), bad.lower()
    if other in _plural_forms(word):
        return SINGULAR
    if word in _plural_forms(other):
        return PLURAL
    raise InvalidValueError(
        f"cannot tell which of the nouns {good!r} / {bad!r} is singular: neither is a plural "
        "of the other"
    )


def _third_person_forms(base: str) -> set[str]:
    forms = {base + "s", base + "es"}
    if base.endswith("y"):
        forms.add(base[:-1] + "ies")
    return forms


def _plural_forms(singular: str) -> set[str]:
    forms = {singular + "s", singular + "es"}
    if singular in _IRREGULAR_PLURALS:
        forms.add(_IRREGULAR_PLURALS[singular])
    for ending, plural_ending in _ENDING_PLURALS:
        if singular.endswith(ending):
            forms.add(singular[: -len(ending)] + plural_ending)
    return forms
