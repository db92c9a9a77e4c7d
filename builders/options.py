"""How a builder declares its options: once, as a frozen dataclass whose fields carry their
help text and command-line flag in ``metadata`` (:func:`option`).

The command line (``poetic-eval build``, :mod:`poetic_eval.cli.build`) is generated from these
declarations, and so is the build command a card records (:func:`recorded_command`).
"""

from __future__ import annotations

import dataclasses
import shlex
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poetic_eval.checks import require_choice

_METADATA_KEY = "poetic_eval.builders"


def option(
    default: Any,
    *,
    help: str,
    flag: str | None = None,
    metavar: str | None = None,
    choices: Sequence[str] | None = None,
    recorded: bool = True,
    in_all: bool = False,
) -> Any:
    """A dataclass field that is a build option.

    ``flag`` defaults to ``--`` + the field name with ``-`` for ``_``; a boolean's flag turns
    its default off (``--no-progress`` for ``show_progress=True``). ``recorded=False`` keeps a
    display option out of the card's build command; ``in_all=True`` makes ``build all`` offer
    it and pass it to every builder declaring it.
    """
    metadata = {
        "help": help,
        "flag": flag,
        "metavar": metavar,
        "choices": tuple(choices) if choices is not None else None,
        "recorded": recorded,
        "in_all": in_all,
    }
    return dataclasses.field(default=default, metadata={_METADATA_KEY: metadata})


@dataclass(frozen=True)
class BuildConfig:
    """The options every builder takes; a builder's config class adds its own."""

    source: Path | None = option(
        None,
        metavar="PATH",
        help="source file (default: the builder's bundled or generated source)",
    )
    license: str | None = option(
        None,
        help="license of the built data, written into the card (default: cc-by-4.0 for the "
        "project's own data, 'other' for a source of yours: set it to your source's license)",
    )
    license_name: str | None = option(
        None,
        metavar="NAME",
        help="with license 'other': an id for your source's license (e.g. my-corpus-terms-1.0), "
        "written into the card as license_name",
    )
    license_link: str | None = option(
        None,
        metavar="URL",
        help="with license 'other': where your source's license is (a URL), written into the "
        "card as license_link",
    )
    seed: int = option(0, help="random seed (default 0)")
    show_progress: bool = option(
        True, flag="--no-progress", help="hide progress bars", recorded=False
    )

    def __post_init__(self) -> None:
        for spec in declared_options(type(self)):
            if spec.choices is not None:
                require_choice(getattr(self, spec.name), spec.choices, spec.flag)


@dataclass(frozen=True)
class OptionSpec:
    """One declared option, as the command line and the card's command see it."""

    name: str  # the field name, and the argparse dest
    flag: str
    kind: type  # what a command-line string is converted to (bool: a switch)
    default: Any
    help: str
    metavar: str | None
    choices: tuple[str, ...] | None
    recorded: bool
    in_all: bool

    def words(self, value: Any) -> list[str]:
        """The command-line words giving ``value`` (none for a default switch or None).

        A path appears by file name only: the card is published, and must depend neither on
        where it was built nor on the builder's folders and user name.
        """
        if self.kind is bool:
            return [self.flag] if value != self.default else []
        if value is None:
            return []
        return [self.flag, value.name if isinstance(value, Path) else str(value)]


def declared_options(config_class: type[BuildConfig]) -> list[OptionSpec]:
    """The options of ``config_class``, in declaration order (the common ones first)."""
    hints = typing.get_type_hints(config_class)
    specs = []
    for field in dataclasses.fields(config_class):
        declared = field.metadata[_METADATA_KEY]
        flag = declared["flag"] or "--" + field.name.replace("_", "-")
        specs.append(
            OptionSpec(
                name=field.name,
                flag=flag,
                kind=_value_type(hints[field.name]),
                default=field.default,
                help=declared["help"],
                metavar=declared["metavar"],
                choices=declared["choices"],
                recorded=declared["recorded"],
                in_all=declared["in_all"],
            )
        )
    return specs


def _value_type(annotation: Any) -> type:
    """``int`` for ``int`` and ``int | None``; the annotations are single types or optional."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        (annotation,) = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    return annotation


def recorded_command(name: str, config: BuildConfig, out: Path) -> str:
    """The ``poetic-eval build NAME ...`` command that builds ``config`` into ``out``.

    Every recorded option with a value appears, defaults included, so that the card says the
    sizes that were used; ``--out`` follows the license options, where earlier cards had it.
    """
    words = ["poetic-eval", "build", name]
    for spec in declared_options(type(config)):
        if spec.name == "seed":
            words += ["--out", out.name]
        if spec.recorded:
            words += spec.words(getattr(config, spec.name))
    return shlex.join(words)
