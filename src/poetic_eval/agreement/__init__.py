"""The English subject-verb agreement dataset family: the grammar and lexicon, the templates of
the Marvin & Linzen and BLiMP families, conversion of their published files, and the verb list."""

from .agreement_pairs import LABEL_NAMES, AgreementPair
from .grammar import (
    BLIMP_FAMILIES,
    DEFAULT_PAIRS_PER_FAMILY,
    FAMILIES,
    FAMILY_DESCRIPTIONS,
    MARVIN_LINZEN_FAMILIES,
    family_capacity,
    generate_pairs,
)
from .lexicon import DEFAULT_LEXICON, load_lexicon
from .sources import convert_source
from .verb_lexicon import DEFAULT_MIN_ZIPF, load_verb_list

__all__ = [
    "BLIMP_FAMILIES",
    "DEFAULT_LEXICON",
    "DEFAULT_MIN_ZIPF",
    "DEFAULT_PAIRS_PER_FAMILY",
    "FAMILIES",
    "FAMILY_DESCRIPTIONS",
    "LABEL_NAMES",
    "MARVIN_LINZEN_FAMILIES",
    "AgreementPair",
    "convert_source",
    "family_capacity",
    "generate_pairs",
    "load_lexicon",
    "load_verb_list",
]
