"""Blackbird Language Matrices for Italian (BLM-AgrI, BLM-CausI, BLM-OdI).

Records in the BLM-It release format (:mod:`.records`) and, in the modules beside it, the
generator of our own items from a self-written Italian lexicon and morphology.
"""

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
    "ANSWER_LETTERS",
    "BlmItem",
    "BlmRecordError",
    "make_blm_record",
    "read_blm_items",
    "strip_answer_prefix",
    "strip_context_prefix",
    "validate_blm_record",
]
