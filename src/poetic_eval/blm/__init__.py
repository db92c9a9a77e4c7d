"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

* :mod:`.records`: read and validate records in the BLM-It release format;
* :mod:`.configs`: generate the six configs (``agr_ii`` ... ``od_iii``) from the project's own
  Italian lexicon (:mod:`.lexicon`, ``blm/data/``), morphology (:mod:`.articles`,
  :mod:`.noun_phrases`, :mod:`.conjugation`, :mod:`.verb_groups`) and templates
  (:mod:`.agreement_matrices`, :mod:`.alternation_matrices`; labels in :mod:`.labels`);
* :mod:`.evaluation`: evaluate a causal LM on the items, by prompting for a letter
  (:mod:`.prompts`) or by the likelihood of each candidate sentence, the shared prompt/context
  scored once (:mod:`.choice_scoring`); scores (accuracy, macro-F1, chosen labels) in
  :mod:`.results`, a report table in :mod:`.report_section`.
"""

from .answer_labels import CORRECT_LABEL, LETTERS, UNLABELLED, answer_labels, as_items
from .card_sections import TASK_NAMES, examples_section, label_inventory
from .choice_scoring import EncodedChoices, encode_choices, score_choices
from .configs import CONFIGS, BlmSizes, generate_config
from .evaluation import METHODS, choice_scores, evaluate_blm, prefixes_and_continuations
from .labels import AGREEMENT_LABELS, AGREEMENT_RULES, ALTERNATION_LABELS, ALTERNATION_RULES
from .lexicon import Lexicon, LexiconError, load_lexicon
from .prompts import PROMPT_LANGUAGES, blm_prompt, candidate_continuations, running_context
from .records import (
    BlmItem,
    BlmRecordError,
    BlmRecordWarning,
    make_blm_record,
    read_blm_items,
    strip_answer_prefix,
    validate_blm_record,
)
from .report_section import blm_section, evaluate_configs, evaluate_sets
from .results import blm_results, label_table, letter_f1

__all__ = [
    "AGREEMENT_LABELS",
    "AGREEMENT_RULES",
    "ALTERNATION_LABELS",
    "ALTERNATION_RULES",
    "CONFIGS",
    "CORRECT_LABEL",
    "LETTERS",
    "METHODS",
    "PROMPT_LANGUAGES",
    "TASK_NAMES",
    "UNLABELLED",
    "BlmItem",
    "BlmRecordError",
    "BlmRecordWarning",
    "BlmSizes",
    "EncodedChoices",
    "Lexicon",
    "LexiconError",
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
    "evaluate_sets",
    "examples_section",
    "generate_config",
    "label_inventory",
    "label_table",
    "letter_f1",
    "load_lexicon",
    "make_blm_record",
    "prefixes_and_continuations",
    "read_blm_items",
    "running_context",
    "score_choices",
    "strip_answer_prefix",
    "validate_blm_record",
]
