"""Report sections of the diversity dimensions: tables and figures, generated next to human.

Each function takes a :class:`~poetic_eval.diversity.profile.DiversityProfile`, the options the
profile was computed with and the path its figure is written to (None for a dimension without
a figure), and returns a :class:`poetic_eval.report.Section`; :data:`DIMENSION_SECTIONS` gives
each dimension of :data:`poetic_eval.diversity.DIMENSIONS` its section and figure file name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...diversity.memorization import DEFAULT_THRESHOLDS, LEVELS
from .. import FIGURES_DIR, Section, Table
from ..figures import length_histograms, max_similarity_histograms, rhyme_scheme_bars

if TYPE_CHECKING:
    from ...diversity.profile import DiversityProfile


def _side_by_side(scores: dict[str, Any], rows: Sequence[tuple[str, str]]) -> list[list[Any]]:
    """Rows (label, generated, human) for the statistics present in ``scores``."""
    return [
        [label, scores.get(key), scores.get(f"reference_{key}")]
        for label, key in rows
        if key in scores
    ]


def memorization_section(profile: DiversityProfile, options: dict, figure: Path | None) -> Section:
    # the thresholds the profile used: the user's per level, the defaults for the others
    thresholds = {**DEFAULT_THRESHOLDS, **(options.get("memorization_thresholds") or {})}
    rows = [
        [level, thresholds[level], profile.scores[f"memorization_{level}"]]
        for level in LEVELS
        if f"memorization_{level}" in profile.scores
    ]
    return Section(
        title="Memorization",
        text="Share of generated units whose Ratcliff-Obershelp similarity to some human unit "
        "of the same level reaches the threshold.",
        tables=[Table(["level", "threshold", "memorized share"], rows)],
    )


def _whole(profile: DiversityProfile) -> str:
    """Label for human counts and figures that use the whole corpus beside sampled statistics."""
    return "" if profile.human_samples is None else " (human: whole corpus)"


def length_section(profile: DiversityProfile, options: dict, figure: Path | None) -> Section:
    s = profile.scores
    rows = _side_by_side(
        s, [(name, f"length_{name}") for name in ("mean", "median", "std", "min", "max")]
    )
    path = length_histograms(
        profile.details["lengths"], profile.details["reference_lengths"],
        figure, bins=options.get("length_bins", 30),
    )  # fmt: skip
    return Section(
        title="Length",
        text=f"Histogram intersection {s['length_histogram_intersection']:.4g} "
        f"(1 = same distribution); Wasserstein distance {s['length_wasserstein']:.4g} tokens.",
        tables=[Table(["length (tokens)", "generated", "human"], rows)],
        figures=[
            {"path": f"{FIGURES_DIR}/{path.name}", "caption": f"length histograms{_whole(profile)}"}
        ],
    )


def rhyme_section(profile: DiversityProfile, options: dict, figure: Path | None) -> Section:
    s = profile.scores
    generated = profile.details["scheme_distribution"]
    human = profile.details["reference_scheme_distribution"]
    rows = _side_by_side(
        s,
        [("entropy", "rhyme_entropy"), ("real rhymes", "real_rhymes"),
         ("repetitions", "repetitions")],
    )  # fmt: skip
    whole = _whole(profile)
    rows.append([f"quatrains{whole}", s["quatrain_predictions"], s["quatrain_references"]])
    path = rhyme_scheme_bars(generated, human, figure)
    return Section(
        title="Rhyme",
        text=f"KL(generated ‖ human) {s['rhyme_kl']:.4g}; cross-entropy "
        f"{s['rhyme_cross_entropy']:.4g}. Poems skipped as not quatrains: "
        f"{s['non_quatrain_predictions']} generated, {s['non_quatrain_references']} human.",
        tables=[
            Table(["rhyme", "generated", "human"], rows),
            Table(
                ["scheme", "generated", "human"],
                [[scheme, generated[scheme], human[scheme]] for scheme in generated],
                caption="rhyme-scheme distributions",
            ),
        ],
        figures=[{"path": f"{FIGURES_DIR}/{path.name}", "caption": f"rhyme schemes{whole}"}],
    )


def lexical_section(profile: DiversityProfile, options: dict, figure: Path | None) -> Section:
    rows = _side_by_side(profile.scores, [("ATTR", "attr"), ("MATTR", "mattr"), ("MTLD", "mtld")])
    return Section(
        title="Lexical diversity", tables=[Table(["measure", "generated", "human"], rows)]
    )


def semantic_section(profile: DiversityProfile, options: dict, figure: Path | None) -> Section:
    s, details = profile.scores, profile.details
    rows = [["within", s["within_max_sim"], s.get("reference_within_max_sim")]]
    if "across_max_sim" in s:
        # no human cell: "across" already compares generated poems with the human ones
        rows.append(["across (to human)", s["across_max_sim"], None])
    series = {"generated within": details["within_max_sim_values"]}
    if "across_max_sim_values" in details:
        series["generated across"] = details["across_max_sim_values"]
    if "reference_within_max_sim_values" in details:
        series["human within"] = details["reference_within_max_sim_values"]
    path = max_similarity_histograms(series, figure)
    return Section(
        title="Semantic similarity",
        text="Mean over poems of the cosine similarity to the nearest other poem "
        "(lower = more diverse).",
        tables=[Table(["max cosine similarity", "generated", "human"], rows)],
        figures=[{"path": f"{FIGURES_DIR}/{path.name}", "caption": "maximum similarity"}],
    )


#: (profile, options, path of the dimension's figure or None) -> its report section
SectionBuilder = Callable[["DiversityProfile", dict, "Path | None"], Section]


@dataclass(frozen=True)
class DimensionSection:
    """How one diversity dimension is reported: its section and its figure's file name."""

    build: SectionBuilder
    figure: str | None = None

    def section(
        self, profile: DiversityProfile, options: dict, figures: Path, suffix: str = ""
    ) -> Section:
        """The section; its figure, if it has one, is written as ``figures / self.figure``
        (``suffix`` added to the file's stem, for a second language's figures)."""
        if not self.figure:
            return self.build(profile, options, None)
        name = Path(self.figure)
        return self.build(profile, options, figures / f"{name.stem}{suffix}{name.suffix}")


def combined_section(title: str, text: str, parts: dict[str, Section]) -> Section:
    """One section holding the tables and figures of several dimension sections, each table
    and figure captioned with the dimension's title (a language's block of the report)."""
    texts, tables, figures = [text] if text else [], [], []
    for part in parts.values():
        if part.text:
            texts.append(f"{part.title}: {part.text}")
        for table in part.tables:
            caption = f"{part.title}: {table.caption}" if table.caption else part.title
            tables.append(Table(table.columns, table.rows, caption))
        figures += part.figures
    return Section(title=title, text=" ".join(texts), tables=tables, figures=figures)


DIMENSION_SECTIONS: dict[str, DimensionSection] = {
    "memorization": DimensionSection(memorization_section),
    "length": DimensionSection(length_section, "length_histograms.png"),
    "rhyme": DimensionSection(rhyme_section, "rhyme_schemes.png"),
    "lexical": DimensionSection(lexical_section),
    "semantic": DimensionSection(semantic_section, "max_similarity.png"),
}
