"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

* :mod:`.records`: read and validate records in the BLM-It release format;
* :mod:`.configs`: generate the six configs (``agr_ii`` ... ``od_iii``) from the project's own
  Italian lexicon (:mod:`.lexicon`, ``blm/data/``), morphology (:mod:`.articles`,
  :mod:`.noun_phrases`, :mod:`.conjugation`, :mod:`.verb_groups`) and templates
  (:mod:`.agreement_matrices`, :mod:`.alternation_matrices`; labels in :mod:`.labels`).
"""

from .card_sections import TASK_NAMES, examples_section, label_inventory
from .configs import CONFIGS, BlmSizes, generate_config
from .labels import AGREEMENT_LABELS, AGREEMENT_RULES, ALTERNATION_LABELS, ALTERNATION_RULES
from .lexicon import Lexicon, LexiconError, load_lexicon
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

__all__ = [
    "AGREEMENT_LABELS",
    "AGREEMENT_RULES",
    "ALTERNATION_LABELS",
    "ALTERNATION_RULES",
    "ANSWER_LETTERS",
    "CONFIGS",
    "TASK_NAMES",
    "BlmItem",
    "BlmRecordError",
    "BlmSizes",
    "Lexicon",
    "LexiconError",
    "examples_section",
    "generate_config",
    "label_inventory",
    "load_lexicon",
    "make_blm_record",
    "read_blm_items",
    "strip_answer_prefix",
    "strip_context_prefix",
    "validate_blm_record",
]
