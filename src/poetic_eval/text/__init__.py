"""Poem text: lines, stanzas, tokens and lengths; reading text files and poem files; the checked
poems a caller passes; corpora of poems with what is derived from them."""

from .corpus import PoemCorpus, StoredForm, derived
from .languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, resolve_language
from .poem_files import (
    JSON_POEM_SUFFIXES,
    json_poem_items,
    parse_poem_item,
    read_poem_blocks,
    read_poems_by_suffix,
    write_poems,
)
from .poem_inputs import require_texts
from .poems import (
    common_prefix_length,
    final_word,
    length,
    lines,
    stanzas,
    tokens,
    without_punctuation,
)
from .text_files import NotARegularFileError, TextFileError, read_text_file, refuse_special_file

__all__ = [
    "DEFAULT_LANGUAGE",
    "JSON_POEM_SUFFIXES",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "NotARegularFileError",
    "PoemCorpus",
    "StoredForm",
    "TextFileError",
    "common_prefix_length",
    "derived",
    "final_word",
    "json_poem_items",
    "length",
    "lines",
    "parse_poem_item",
    "read_poem_blocks",
    "read_poems_by_suffix",
    "read_text_file",
    "refuse_special_file",
    "require_texts",
    "resolve_language",
    "stanzas",
    "tokens",
    "without_punctuation",
    "write_poems",
]
