"""The table of analyzers. Adding one: write its module, then list its record here."""

from __future__ import annotations

from collections.abc import Iterable

from ..checks import check_option_types, require_choice, require_choices
from .analyzer import Analyzer
from .lexical import COLLECTION_TYPE_TOKEN_RATIO, TYPE_TOKEN_RATIO
from .meter import STRESS_PER_LINE, SYLLABLES_PER_LINE
from .novelty import INTER_NOVELTY, INTRA_NOVELTY
from .rhyme_chains import RHYME_CHAINS, RHYME_RICHNESS, RHYME_SCHEME
from .structure import LINE_COUNT, LINES_PER_STANZA, STANZA_COUNT
from .topicality import TOPICALITY

#: Every analyzer by name, in the order results list them.
ANALYZERS: dict[str, Analyzer] = {
    analyzer.name: analyzer
    for analyzer in (
        STANZA_COUNT,
        LINE_COUNT,
        LINES_PER_STANZA,
        SYLLABLES_PER_LINE,
        STRESS_PER_LINE,
        RHYME_SCHEME,
        RHYME_CHAINS,
        RHYME_RICHNESS,
        INTRA_NOVELTY,
        TYPE_TOKEN_RATIO,
        INTER_NOVELTY,
        TOPICALITY,
        COLLECTION_TYPE_TOKEN_RATIO,
    )
}


def get_analyzer(name: str) -> Analyzer:
    """The analyzer called ``name``; ValueError listing the names when there is none."""
    return ANALYZERS[require_choice(name, ANALYZERS, "analyzer")]


def select_analyzers(names: Iterable[str] | None, kind: str) -> list[Analyzer]:
    """Analyzers of ``kind`` among ``names`` (all of that kind when None), in table order."""
    if names is None:
        return [analyzer for analyzer in ANALYZERS.values() if analyzer.kind == kind]
    if isinstance(names, str):
        names = [names]
    chosen = {get_analyzer(name).name for name in names}
    return [a for a in ANALYZERS.values() if a.name in chosen and a.kind == kind]


def option_names() -> set[str]:
    """Every option some analyzer accepts."""
    return {option for analyzer in ANALYZERS.values() for option in analyzer.options}


def check_options(options: dict) -> None:
    """ValueError naming an option no analyzer accepts, with the valid names; TypeError for a
    ``bool``/``int``/``float`` option of the wrong type (as ``@typed_options`` words it: the
    analyzers are reached through the public functions that call this, not checked again)."""
    require_choices(sorted(options), sorted(option_names()), "analyzer option")
    for analyzer in ANALYZERS.values():
        check_option_types(
            analyzer.analyze, {k: options[k] for k in analyzer.options if k in options}
        )
