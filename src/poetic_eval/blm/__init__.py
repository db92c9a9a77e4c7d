"""Blackbird Language Matrices (BLM-AgrI, BLM-CausI, BLM-OdI): evaluation of causal LMs."""

from __future__ import annotations

from .choice_scoring import EncodedChoices, encode_choices, score_choices
from .evaluation import METHODS, choice_scores, evaluate_blm
from .evaluation_items import (
    CORRECT_LABEL,
    LETTERS,
    EvaluationItem,
    evaluation_item,
    evaluation_items,
    read_record_file,
)
from .prompts import PROMPT_LANGUAGES, blm_prompt, candidate_continuations, running_context
from .report_section import blm_section
from .results import blm_results, label_table, letter_f1

__all__ = [
    "CORRECT_LABEL",
    "LETTERS",
    "METHODS",
    "PROMPT_LANGUAGES",
    "EncodedChoices",
    "EvaluationItem",
    "blm_prompt",
    "blm_results",
    "blm_section",
    "candidate_continuations",
    "choice_scores",
    "encode_choices",
    "evaluate_blm",
    "evaluation_item",
    "evaluation_items",
    "label_table",
    "letter_f1",
    "read_record_file",
    "running_context",
    "score_choices",
]
