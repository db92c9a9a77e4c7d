"""Poem text: lines, stanzas, tokens and lengths; poem files; input checks; safe writes; caches."""

from .atomic_files import atomic_folder, atomic_path, recover_folder, write_text_atomically
from .cache_paths import cache_root
from .corpus import PoemCorpus, derived
from .metric_inputs import PoemCorpusInputs, PoemInputs
from .poem_files import load_poems, poem_from_item
from .poems import (
    final_word,
    length,
    lines,
    read_poems,
    remove_punctuation,
    stanzas,
    tokens,
    write_poems,
)
from .validation import require_fraction, require_positive_int, require_texts, typed_options

__all__ = [
    "PoemCorpus",
    "PoemCorpusInputs",
    "PoemInputs",
    "atomic_folder",
    "atomic_path",
    "cache_root",
    "derived",
    "final_word",
    "length",
    "lines",
    "load_poems",
    "poem_from_item",
    "read_poems",
    "recover_folder",
    "remove_punctuation",
    "require_fraction",
    "require_positive_int",
    "require_texts",
    "stanzas",
    "tokens",
    "typed_options",
    "write_poems",
    "write_text_atomically",
]
