"""Dataset builders: one module per dataset, each turning source files into a hub-ready repo.

A builder module ``builders/<name>.py`` provides::

    DESCRIPTION: str                                   # one line, for --help
    def add_arguments(parser: argparse.ArgumentParser) -> None
        # options beyond the common --source PATH / --out DIR / --seed N / --no-progress
    def from_arguments(args: argparse.Namespace) -> poetic_eval.hub.dataset_repo.HubDataset
        # args.source: Path | None (None: the builder's default source), args.seed: int,
        # args.progress: bool, plus the options added above

and is registered by one entry in :data:`BUILDERS`. ``python -m builders <name> ...`` and
``poetic-eval build <name> ...`` then build it, and ``python -m builders all`` builds every
registered dataset into ``DIR/<name>`` (see :mod:`builders.command_line`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class RegisteredBuilder:
    """A dataset builder: its name (= dataset folder and hub repo name) and module.

    ``all_options`` names the options of ``python -m builders all`` this builder receives
    (``"n_pairs"`` -> ``--n-pairs``); ``--<name>-source`` is always forwarded as ``--source``.
    """

    name: str
    module: str
    all_options: tuple[str, ...] = ()

    def load(self) -> ModuleType:
        return importlib.import_module(self.module, __package__)


BUILDERS: dict[str, RegisteredBuilder] = {
    builder.name: builder
    for builder in (
        RegisteredBuilder("bpomp", ".bpomp", all_options=("n_pairs",)),
        RegisteredBuilder("agreement", ".agreement"),
        RegisteredBuilder("quatrain", ".quatrain"),
        RegisteredBuilder("blm", ".blm"),
    )
}


def builder_module(name: str) -> ModuleType:
    """The module of the registered builder ``name``; ValueError lists the valid names."""
    if name not in BUILDERS:
        raise ValueError(f"unknown dataset {name!r}; available: {', '.join(BUILDERS)}")
    return BUILDERS[name].load()
