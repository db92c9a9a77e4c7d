"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

* the release format: :mod:`.records` reads and validates records in the BLM-It release format,
  :mod:`.item_sources` finds items (a built folder or a release file), :mod:`.answer_labels`
  gives each answer's label;
* :mod:`.generator`: generates the six configs (``agr_ii`` ... ``od_iii``) from the project's own
  Italian lexicon;
* :mod:`.evaluation`: evaluates a causal LM on the items, by prompting for a letter or by the
  likelihood of each candidate sentence.
"""

from .answer_labels import CORRECT_LABEL, LETTERS, UNLABELLED, answer_labels, as_items
from .evaluation import (
    METHODS,
    PROMPT_LANGUAGES,
    blm_prompt,
    blm_results,
    candidate_continuations,
    choice_scores,
    evaluate_blm,
    evaluate_configs,
    evaluate_sets,
    label_table,
    letter_f1,
    prefixes_and_continuations,
    running_context,
)
from .generator import (
    AGREEMENT_LABELS,
    AGREEMENT_RULES,
    ALTERNATION_LABELS,
    ALTERNATION_RULES,
    CONFIGS,
    TASK_NAMES,
    BlmSizes,
    Lexicon,
    LexiconError,
    examples_section,
    generate_config,
    label_inventory,
    load_lexicon,
    shortcut_section,
    text_format_text,
)
from .records import (
    BlmItem,
    BlmRecordError,
    BlmRecordWarning,
    make_blm_record,
    read_blm_items,
    strip_answer_prefix,
    validate_blm_record,
)
from .text_forms import TEXT_FORMATS, release_form, to_text_form

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
    "TEXT_FORMATS",
    "UNLABELLED",
    "BlmItem",
    "BlmRecordError",
    "BlmRecordWarning",
    "BlmSizes",
    "Lexicon",
    "LexiconError",
    "answer_labels",
    "as_items",
    "blm_prompt",
    "blm_results",
    "candidate_continuations",
    "choice_scores",
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
    "release_form",
    "running_context",
    "shortcut_section",
    "strip_answer_prefix",
    "text_format_text",
    "to_text_form",
    "validate_blm_record",
]
