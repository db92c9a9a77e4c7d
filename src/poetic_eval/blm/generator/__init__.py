"""The generator of the six BLM configs (``agr_ii`` ... ``od_iii``) from the project's own Italian
lexicon (types in :mod:`.lexicon`, read from ``blm/generator/data/`` by :mod:`.lexicon_loading`,
checked by :mod:`.lexicon_checks`), morphology
(:mod:`.articles`, :mod:`.noun_phrases`, :mod:`.conjugation`, :mod:`.verb_groups`) and templates
(:mod:`.agreement_matrices` with its counter in :mod:`.agreement_counter`,
:mod:`.alternation_matrices` under the semantic filters of :mod:`.alternation_filters`;
labels in :mod:`.labels`); the card's
examples, label inventory, context-blind baseline (:mod:`.shortcut_baseline`; what it reads,
for the generator's developers: :mod:`.baseline_diagnosis`) and measured rates
(:mod:`.data_profile`) in :mod:`.card_sections`."""

from .card_sections import (
    TASK_NAMES,
    examples_section,
    label_inventory,
    profile_section,
    shortcut_section,
    text_format_text,
)
from .configs import CONFIGS, BlmSizes, generate_config
from .labels import AGREEMENT_LABELS, AGREEMENT_RULES, ALTERNATION_LABELS, ALTERNATION_RULES
from .lexicon import Lexicon, LexiconError
from .lexicon_loading import load_lexicon

__all__ = [
    "AGREEMENT_LABELS",
    "AGREEMENT_RULES",
    "ALTERNATION_LABELS",
    "ALTERNATION_RULES",
    "CONFIGS",
    "TASK_NAMES",
    "BlmSizes",
    "Lexicon",
    "LexiconError",
    "examples_section",
    "generate_config",
    "label_inventory",
    "load_lexicon",
    "profile_section",
    "shortcut_section",
    "text_format_text",
]
