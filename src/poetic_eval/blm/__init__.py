"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

Records in the BLM-It release format (:mod:`.records`); the evaluation of causal LMs on them
(:mod:`.evaluation`: prompting for a letter, or the likelihood of each candidate sentence, with
the shared prompt/context scored once by :mod:`.choice_scoring`; scores in :mod:`.results`).
"""

from .answer_labels import CORRECT_LABEL, LETTERS, UNLABELLED, answer_labels, as_items
from .choice_scoring import EncodedChoices, encode_choices, score_choices
from .evaluation import METHODS, choice_scores, evaluate_blm
from .prompts import PROMPT_LANGUAGES, blm_prompt, candidate_continuations, running_context
from .records import (
    ANSWER_LETTERS,
    BlmItem,
    BlmRecordError,
    make_blm_record,
    read_blm_items,
    strip_answer_prefix,
    strip_context_prefix,
    validate_blm_record,
)
from .report_section import blm_section, evaluate_configs
from .results import blm_results, label_table, letter_f1

__all__ = [
    "ANSWER_LETTERS",
    "CORRECT_LABEL",
    "LETTERS",
    "METHODS",
    "PROMPT_LANGUAGES",
    "UNLABELLED",
    "BlmItem",
    "BlmRecordError",
    "EncodedChoices",
    "answer_labels",
    "as_items",
    "blm_prompt",
    "blm_results",
    "blm_section",
    "candidate_continuations",
    "choice_scores",
    "encode_choices",
    "evaluate_blm",
    "evaluate_configs",
    "label_table",
    "letter_f1",
    "make_blm_record",
    "read_blm_items",
    "running_context",
    "score_choices",
    "strip_answer_prefix",
    "strip_context_prefix",
    "validate_blm_record",
]
