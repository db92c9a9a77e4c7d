"""TSE, EW and MW (Newman et al., NAACL 2021), in the order of the pipeline: the verb
:mod:`.slots` of agreement pairs, the model's :mod:`.distributions` over the vocabulary there,
the per-slot :mod:`.scores` (with :mod:`.cutoffs` of the vocabulary), the :mod:`.aggregate`
over slots, and :mod:`.evaluation`, which runs the whole pipeline for a model."""

from .aggregate import aggregate_verb_agreement, verb_weighted_agreement
from .distributions import VerbSlotLogProbs, as_verb_slots, verb_slot_log_probs, verb_vocabulary
from .evaluation import evaluate_verb_agreement
from .scores import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    score_verb_slots,
)
from .slots import VerbSlot, verb_slot, verb_slots

__all__ = [
    "DEFAULT_BOTTOM_CUTOFFS",
    "DEFAULT_TOP_CUTOFFS",
    "VerbSlot",
    "VerbSlotLogProbs",
    "aggregate_verb_agreement",
    "as_verb_slots",
    "evaluate_verb_agreement",
    "score_verb_slots",
    "verb_slot",
    "verb_slot_log_probs",
    "verb_slots",
    "verb_vocabulary",
    "verb_weighted_agreement",
]
