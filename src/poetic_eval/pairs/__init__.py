"""Minimal pairs: accuracy statistics, the agreement grammar and its sources, and the verb-slot
metrics of Newman et al. (TSE, EW, MW) with the language-model side that feeds them."""

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
from .pair_tables import PAIR_COLUMNS, collect_pairs, load_pair_tables, pair_columns
from .sources import ConvertedSource, convert_source
from .statistics import compare_pair_preferences, pair_preference
from .verb_agreement_evaluation import evaluate_verb_agreement
from .verb_distributions import (
    VerbSlotLogProbs,
    as_verb_slots,
    verb_slot_log_probs,
    verb_vocabulary,
)
from .verb_lexicon import DEFAULT_MIN_ZIPF, VerbEntry, load_verb_list
from .verb_slots import VerbSlot, verb_slot, verb_slots
from .verb_weighted_agreement import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    aggregate_verb_agreement,
    score_verb_slots,
    verb_weighted_agreement,
)

__all__ = [
    "BLIMP_FAMILIES",
    "DEFAULT_BOTTOM_CUTOFFS",
    "DEFAULT_LEXICON",
    "DEFAULT_MIN_ZIPF",
    "DEFAULT_PAIRS_PER_FAMILY",
    "DEFAULT_TOP_CUTOFFS",
    "FAMILIES",
    "FAMILY_DESCRIPTIONS",
    "LABEL_NAMES",
    "MARVIN_LINZEN_FAMILIES",
    "PAIR_COLUMNS",
    "PLURAL",
    "SINGULAR",
    "AgreementLexicon",
    "AgreementPair",
    "ConvertedSource",
    "VerbEntry",
    "VerbSlot",
    "VerbSlotLogProbs",
    "aggregate_verb_agreement",
    "as_verb_slots",
    "collect_pairs",
    "compare_pair_preferences",
    "convert_source",
    "evaluate_verb_agreement",
    "family_capacity",
    "generate_all_pairs",
    "generate_pairs",
    "label_from_tse",
    "load_lexicon",
    "load_pair_tables",
    "load_verb_list",
    "noun_pair_number",
    "other_number",
    "pair_columns",
    "pair_preference",
    "pair_tokens",
    "score_verb_slots",
    "single_token_difference",
    "tse_label",
    "verb_pair_number",
    "verb_slot",
    "verb_slot_log_probs",
    "verb_slots",
    "verb_vocabulary",
    "verb_weighted_agreement",
]
