"""Dataset builders: one module per dataset, each turning source files into a hub-ready repo.

A builder module ``builders/<name>.py`` declares its options once and builds from them::

    @dataclass(frozen=True)
    class Config(BuildConfig):          # source, license, seed, show_progress, plus:
        n_pairs: int = option(1000, help="pairs per config (default 1000)")

    def build(config: Config) -> poetic_eval.hub.HubDataset: ...

and is registered by one entry in :data:`BUILDERS`. ``poetic-eval build <name>`` (options
generated from ``Config``, :mod:`poetic_eval.cli.build`) then builds it, ``poetic-eval build
all`` builds every registered dataset into ``DIR/<name>``, and the card records the equivalent
command (:func:`.options.recorded_command`). The registry holds each builder's one-line
description, so that listing the builders imports none of them.

In a checkout this folder is the package ``poetic_eval.builders`` through the link
``src/poetic_eval/builders``; the wheel ships it at the same place (``pyproject.toml``).
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from poetic_eval.checks import require_choice
from poetic_eval.errors import InvalidValueError

from .options import BuildConfig

if TYPE_CHECKING:
    from poetic_eval.hub import HubDataset


@dataclass(frozen=True)
class RegisteredBuilder:
    """A dataset builder: its name (= dataset folder and hub repo name), a one-line description
    (for ``--help``) and its module, imported when it builds."""

    name: str
    description: str
    module: str

    def load(self) -> ModuleType:
        return importlib.import_module(self.module, __package__)


BUILDERS: dict[str, RegisteredBuilder] = {
    builder.name: builder
    for builder in (
        RegisteredBuilder(
            "bpomp",
            "BPoMP limerick minimal pairs: rhyme_word_swap, line_swap, synonym_replace",
            ".bpomp",
        ),
        RegisteredBuilder(
            "agreement",
            "subject-verb agreement minimal pairs (Marvin & Linzen, BLiMP) and a verb list",
            ".agreement",
        ),
        RegisteredBuilder(
            "quatrain",
            "QuaTrain de-duplicated (sequential pass, overlap removal), 9:1 split, pseudo-sonnets",
            ".quatrain",
        ),
        RegisteredBuilder(
            "blm",
            "Italian Blackbird Language Matrices: agreement, causative and object-drop (II, III)",
            ".blm",
        ),
    )
}


def builder_module(name: str) -> ModuleType:
    """The module of the registered builder ``name``; ValueError suggests the closest name."""
    return BUILDERS[require_choice(name, BUILDERS, "builder")].load()


def build_dataset(name: str, config: BuildConfig) -> HubDataset:
    """Builder ``name``'s dataset from ``config``: empty configs left out, the license options
    (when given) in place of the builder's license (:func:`with_license`)."""
    dataset = with_license(builder_module(name).build(config).without_empty_configs(), config)
    if dataset.name != name:
        raise ValueError(f"builder {name!r} returned a dataset named {dataset.name!r}")
    return dataset


def with_license(dataset: HubDataset, config: BuildConfig) -> HubDataset:
    """``dataset`` with the ``license``, ``license_name`` and ``license_link`` of ``config``."""
    given = {"--license-name": config.license_name, "--license-link": config.license_link}
    missing = [flag for flag, value in given.items() if not value]
    if len(missing) == 1:
        (present,) = set(given) - set(missing)
        raise InvalidValueError(
            f"{present} needs {missing[0]} too (the hub wants both for license 'other')"
        )
    named = not missing
    license = config.license or dataset.license
    if named and license != "other":
        raise InvalidValueError(
            f"--license-name and --license-link are for license 'other', not {license!r}: "
            "add --license other, or drop them"
        )
    if not (config.license or named):
        return dataset
    return dataclasses.replace(
        dataset,
        license=license,
        license_name=config.license_name or "",
        license_link=config.license_link or "",
    )
