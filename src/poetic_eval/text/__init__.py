"""Poem text: lines, stanzas, tokens and lengths; reading text files and poem files; input checks;
user errors; checked output locations and safe writes; caches."""

from .atomic_files import atomic_folder, atomic_path, recover_folder, write_text_atomically
from .cache_paths import cache_root
from .corpus import DISK_CACHE_MIN_POEMS, PoemCorpus, StoredForm, derived
from .metric_inputs import ColumnInputs, PoemCorpusInputs, PoemInputs, checked_columns
from .model_sources import check_device, check_model_source, loading_model
from .output_locations import (
    check_output_file,
    check_output_folder,
    files_not_listed,
    shown_names,
)
from .poem_files import (
    JSON_POEM_SUFFIXES,
    PoemItem,
    json_poem_items,
    parse_poem_item,
    read_poem_blocks,
    read_poems_by_suffix,
    write_poems,
)
from .poems import (
    common_prefix_length,
    final_word,
    length,
    lines,
    remove_punctuation,
    stanzas,
    tokens,
)
from .text_files import TextFileError, read_text_file
from .user_errors import (
    USER_ERRORS,
    DeviceError,
    ModelNotFoundError,
    OutputLocationError,
    OutputWriteError,
    UserError,
    describe_error,
)
from .validation import (
    check_option_types,
    is_number,
    option_types,
    require_fraction,
    require_positive_int,
    require_texts,
    typed_options,
)

__all__ = [
    "DISK_CACHE_MIN_POEMS",
    "JSON_POEM_SUFFIXES",
    "USER_ERRORS",
    "ColumnInputs",
    "DeviceError",
    "ModelNotFoundError",
    "OutputLocationError",
    "OutputWriteError",
    "PoemCorpus",
    "PoemCorpusInputs",
    "PoemInputs",
    "PoemItem",
    "StoredForm",
    "TextFileError",
    "UserError",
    "atomic_folder",
    "atomic_path",
    "cache_root",
    "check_device",
    "check_model_source",
    "check_option_types",
    "check_output_file",
    "check_output_folder",
    "checked_columns",
    "common_prefix_length",
    "derived",
    "describe_error",
    "files_not_listed",
    "final_word",
    "is_number",
    "json_poem_items",
    "length",
    "lines",
    "loading_model",
    "option_types",
    "parse_poem_item",
    "read_poem_blocks",
    "read_poems_by_suffix",
    "read_text_file",
    "recover_folder",
    "remove_punctuation",
    "require_fraction",
    "require_positive_int",
    "require_texts",
    "shown_names",
    "stanzas",
    "tokens",
    "typed_options",
    "write_poems",
    "write_text_atomically",
]
