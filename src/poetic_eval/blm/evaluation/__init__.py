"""Evaluate a causal LM on BLM items: by prompting for a letter (:mod:`.prompts`) or by the
likelihood of each candidate sentence after the context (:mod:`.methods`, scored through
:mod:`poetic_eval.lm.choices`); scores (accuracy, macro-F1, chosen labels) in :mod:`.results`;
whole sets under several settings in :mod:`.sets`."""

from .methods import METHODS, choice_scores, evaluate_blm, prefixes_and_continuations
from .prompts import PROMPT_LANGUAGES, blm_prompt, candidate_continuations, running_context
from .results import blm_results, label_table, letter_f1
from .sets import evaluate_configs, evaluate_sets

__all__ = [
    "METHODS",
    "PROMPT_LANGUAGES",
    "blm_prompt",
    "blm_results",
    "candidate_continuations",
    "choice_scores",
    "evaluate_blm",
    "evaluate_configs",
    "evaluate_sets",
    "label_table",
    "letter_f1",
    "prefixes_and_continuations",
    "running_context",
]
