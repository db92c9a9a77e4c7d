"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

* the release format: :mod:`.records` reads and validates records in the BLM-It release format,
  :mod:`.item_sources` finds items (a built folder or a release file), :mod:`.answer_labels`
  gives each answer's label;
* :mod:`.generator`: generates the six configs (``agr_ii`` ... ``od_iii``) from the project's own
  Italian lexicon;
* :mod:`.evaluation`: evaluates a causal LM on the items, by prompting for a letter or by the
  likelihood of each candidate sentence.
"""

from .answer_labels import LETTERS, as_items
from .evaluation import (
    blm_results,
    choice_scores,
    evaluate_blm,
    evaluate_configs,
    evaluate_sets,
    prefixes_and_continuations,
)
from .generator import (
    CONFIGS,
    TASK_NAMES,
    BlmSizes,
    LexiconError,
    examples_section,
    generate_config,
    label_inventory,
    load_lexicon,
    shortcut_section,
    text_format_text,
)
from .records import BlmRecordError, BlmRecordWarning, read_blm_items, validate_blm_record
from .text_forms import TEXT_FORMATS

__all__ = [
    "CONFIGS",
    "LETTERS",
    "TASK_NAMES",
    "TEXT_FORMATS",
    "BlmRecordError",
    "BlmRecordWarning",
    "BlmSizes",
    "LexiconError",
    "as_items",
    "blm_results",
    "choice_scores",
    "evaluate_blm",
    "evaluate_configs",
    "evaluate_sets",
    "examples_section",
    "generate_config",
    "label_inventory",
    "load_lexicon",
    "prefixes_and_continuations",
    "read_blm_items",
    "shortcut_section",
    "text_format_text",
    "validate_blm_record",
]
