"""Command-line options several sub-commands share: which pairs to read, which model to run."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence

from ..checks.names import require_choice
from ..errors import InvalidValueError


def first_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is not an option: the sub-command it names, if any.

    Only flags without a value (``--debug``, ``-h``) may come before a sub-command.
    """
    return next((word for word in argv if not word.startswith("-")), None)


def choice_of(choices: Sequence[str], what: str) -> Callable[[str], str]:
    """argparse type: one of ``choices``; a misspelt one is refused with the closest named
    (argparse's own ``choices=`` lists them but suggests none)."""

    def parse(text: str) -> str:
        try:
            return require_choice(text, choices, what)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def choices_metavar(choices: Sequence[str]) -> str:
    """``{a,b,c}``: how argparse shows an option's choices."""
    return "{" + ",".join(choices) + "}"


def add_show_progress_flag(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``, the command-line spelling of ``show_progress=False``."""
    parser.add_argument(
        "--no-progress", dest="show_progress", action="store_false", help="hide progress bars"
    )


def add_pair_dataset_arguments(parser: argparse.ArgumentParser) -> None:
    """``--dataset``, ``--config`` (repeatable) and ``--split`` of a minimal-pair dataset."""
    parser.add_argument(
        "--dataset", required=True, help="dataset folder, or a parquet/jsonl/csv file"
    )
    parser.add_argument(
        "--config", action="append", help="config(s) to score (default: all with pairs)"
    )
    parser.add_argument(
        "--split", default=None, help="split of a dataset folder (default: its only split, or test)"
    )


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """The scoring language model and how it is loaded: ``--model``, ``--device``, ``--dtype``,
    and transformers/accelerate's placement (``--device-map``, ``--max-memory``,
    ``--offload-folder``, ``--quantization``; docs/language_models.md)."""
    parser.add_argument(
        "--model", default=None, help="HF model name or local path (default: SmolLM2-135M)"
    )
    parser.add_argument(
        "--device", default=None, help="cpu, cuda, cuda:1 ... (default: cuda if available)"
    )
    dtypes = ("float32", "bfloat16", "float16", "auto")
    parser.add_argument(
        "--dtype", type=choice_of(dtypes, "dtype"), metavar=choices_metavar(dtypes),
        default="float32", help="weight dtype (auto: the checkpoint's own)",
    )  # fmt: skip
    parser.add_argument(
        "--device-map",
        type=device_map_value,
        default=None,
        help="accelerate's device map: auto, balanced, balanced_low_0, sequential or a JSON "
        'object {"module": device} (a model split over GPUs, CPU memory and disk)',
    )
    parser.add_argument(
        "--max-memory",
        type=max_memory_value,
        default=None,
        help="most memory per device for the map, e.g. 0=20GiB,1=20GiB,cpu=60GiB (the rest is "
        "offloaded to --offload-folder)",
    )
    parser.add_argument(
        "--offload-folder", default=None, help="folder for weights offloaded to disk"
    )
    parser.add_argument(
        "--quantization",
        default=None,
        help="int8 (torchao; CPU and CUDA), bnb-8bit or bnb-4bit (bitsandbytes; CUDA)",
    )


DEVICE_MAPS = ("auto", "balanced", "balanced_low_0", "sequential")


def device_map_value(text: str) -> str | dict:
    """argparse type: one of :data:`DEVICE_MAPS` or a JSON object of module name to device."""
    if text.lstrip().startswith("{"):
        try:
            mapping = json.loads(text)
        except json.JSONDecodeError as error:
            raise argparse.ArgumentTypeError(f"not a JSON object: {error}") from None
        if not isinstance(mapping, dict):
            raise argparse.ArgumentTypeError("the device map must be a JSON object")
        return mapping
    try:
        return require_choice(text, DEVICE_MAPS, "device map")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def max_memory_value(text: str) -> dict:
    """argparse type: ``device=size`` entries joined by commas (a GPU index or ``cpu``; a size
    accelerate reads, such as ``20GiB``, or bytes) as the dict ``from_pretrained(max_memory=)``
    takes."""
    limits: dict = {}
    for entry in text.split(","):
        device, separator, size = entry.strip().partition("=")
        if not separator or not device or not size:
            raise argparse.ArgumentTypeError(
                f"{entry.strip()!r} is not device=size (e.g. 0=20GiB,cpu=60GiB)"
            )
        # accelerate reads a bare number only as an int (bytes), a size only with its unit
        limits[int(device) if device.isdigit() else device] = int(size) if size.isdigit() else size
    return limits


def model_loading_options(args: argparse.Namespace, device=None) -> dict:
    """The keywords of ``load_language_model`` from the model options (``device`` in place of
    ``--device`` when given: a torchrun process's own GPU)."""
    import torch

    return {
        "device": device if device is not None else args.device,
        "dtype": "auto" if args.dtype == "auto" else getattr(torch, args.dtype),
        "device_map": args.device_map,
        "max_memory": args.max_memory,
        "offload_folder": args.offload_folder,
        "quantization": args.quantization,
    }


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (a count or a size: 0 would leave nothing to do)."""
    return _bounded_int(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _bounded_int(text, 0)


def _bounded_int(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


#: How ``--option NAME=VALUE`` values are read (also in the commands' --help).
OPTION_GRAMMAR = (
    "VALUE is read as: true/false (any case) -> a boolean, none/null -> None, an integer "
    '(20, -3) -> int, a decimal number (0.5, 1e-3) -> float, JSON starting with [ { or " '
    "-> a list, an object or a string; anything else is the string itself"
)

_INTEGER = re.compile(r"[+-]?\d+")
# a pattern, not float(): float() would also take "nan", "inf" and "1_0", which stay strings
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_WORDS = {"true": True, "false": False, "none": None, "null": None}


def parse_option_value(text: str, name: str = "VALUE") -> object:
    """A ``--option`` value by :data:`OPTION_GRAMMAR`: ``"False"`` -> False, ``"20"`` -> 20,
    ``"0.5"`` -> 0.5, ``'{"verse": 0.95}'`` -> a dict, ``"cuda"`` -> ``"cuda"``."""
    stripped = text.strip()
    if stripped.lower() in _WORDS:
        return _WORDS[stripped.lower()]
    # before the decimal test, which matches "20" too: a whole number stays an int
    if _INTEGER.fullmatch(stripped):
        return int(stripped)
    if _DECIMAL.fullmatch(stripped):
        return float(stripped)
    if stripped[:1] in ("[", "{", '"'):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as error:
            raise InvalidValueError(
                f"{name}: {text!r} starts like JSON but is not valid JSON ({error.msg} at "
                f"column {error.colno}); quote it as a JSON string to pass it as text"
            ) from None
    return text


def parse_option(text: str, flag: str = "--option") -> tuple[str, object]:
    """``"length_bins=20"`` -> ``("length_bins", 20)``; the value by :data:`OPTION_GRAMMAR`."""
    name, separator, value = text.partition("=")
    if not separator or not name.strip():
        raise InvalidValueError(f"{flag} expects NAME=VALUE, got {text!r}")
    name = name.strip()
    return name, parse_option_value(value, f"{flag} {name}")


def add_language_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--language {en,de}``: the language of the poems, checked by
    :func:`poetic_eval.text.resolve_language` (a misspelt code gets the choices and the
    closest one); ``what`` says what it changes for the command."""
    from ..text.languages import DEFAULT_LANGUAGE, LANGUAGES, resolve_language

    def parse(text: str) -> str:
        try:
            return resolve_language(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parser.add_argument(
        "--language",
        type=parse,
        default=DEFAULT_LANGUAGE,
        metavar=choices_metavar(LANGUAGES),
        help=f"the poems' language (default {DEFAULT_LANGUAGE}): {what}",
    )
