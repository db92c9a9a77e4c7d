"""The English subject-verb agreement dataset family: the grammar and lexicon, the templates of
the Marvin & Linzen and BLiMP families, conversion of their published files, and the verb list."""

from .agreement_pairs import (
    LABEL_NAMES,
    PLURAL,
    SINGULAR,
    AgreementPair,
    label_from_tse,
    other_number,
    pair_tokens,
    single_token_difference,
    tse_label,
)
from .grammar import (
    BLIMP_FAMILIES,
    DEFAULT_PAIRS_PER_FAMILY,
    FAMILIES,
    FAMILY_DESCRIPTIONS,
    MARVIN_LINZEN_FAMILIES,
    family_capacity,
    generate_all_pairs,
    generate_pairs,
)
from .grammatical_number import noun_pair_number, verb_pair_number
from .lexicon import DEFAULT_LEXICON, AgreementLexicon, load_lexicon
from .sources import ConvertedSource, convert_source
from .verb_lexicon import DEFAULT_MIN_ZIPF, VerbEntry, load_verb_list

__all__ = [
    "BLIMP_FAMILIES",
    "DEFAULT_LEXICON",
    "DEFAULT_MIN_ZIPF",
    "DEFAULT_PAIRS_PER_FAMILY",
    "FAMILIES",
    "FAMILY_DESCRIPTIONS",
    "LABEL_NAMES",
    "MARVIN_LINZEN_FAMILIES",
    "PLURAL",
    "SINGULAR",
    "AgreementLexicon",
    "AgreementPair",
    "ConvertedSource",
    "VerbEntry",
    "convert_source",
    "family_capacity",
    "generate_all_pairs",
    "generate_pairs",
    "label_from_tse",
    "load_lexicon",
    "load_verb_list",
    "noun_pair_number",
    "other_number",
    "pair_tokens",
    "single_token_difference",
    "tse_label",
    "verb_pair_number",
]
