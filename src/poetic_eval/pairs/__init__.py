"""Minimal pairs in general: accuracy statistics with bootstrap intervals and paired model
comparison, reading pair tables, and (:mod:`.verb_agreement`) the verb-slot metrics of
Newman et al. (TSE, EW, MW). The English agreement dataset is :mod:`poetic_eval.agreement`."""

from .pair_tables import collect_pairs, load_pair_tables, pair_columns
from .statistics import compare_pair_preferences, pair_preference
from .verb_agreement import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    aggregate_verb_agreement,
    evaluate_verb_agreement,
    score_verb_slots,
    verb_slot_log_probs,
    verb_weighted_agreement,
)

__all__ = [
    "DEFAULT_BOTTOM_CUTOFFS",
    "DEFAULT_TOP_CUTOFFS",
    "aggregate_verb_agreement",
    "collect_pairs",
    "compare_pair_preferences",
    "evaluate_verb_agreement",
    "load_pair_tables",
    "pair_columns",
    "pair_preference",
    "score_verb_slots",
    "verb_slot_log_probs",
    "verb_weighted_agreement",
]
