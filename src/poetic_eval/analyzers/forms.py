"""Expectations for common poetic forms, shipped as ``forms.json`` beside this module.

A form is a set of single-poem analyzer expectations; a poem has the form when it passes all
of them. The shipped forms (sonnet, limerick, quatrain, haiku) and the tolerances they use
are described in the poem_analysis metric card, with the pass rates measured on real and
on line-shuffled poems.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..checks import require_choice
from ..errors import InvalidTypeError, InvalidValueError
from .analyzer import Evaluation
from .expectations import expectation
from .poem import Poem, as_poem
from .registry import check_options, get_analyzer

FORMS_FILE = Path(__file__).resolve().parent / "forms.json"


@lru_cache(maxsize=1)
def _forms() -> dict[str, dict[str, Any]]:
    return json.loads(FORMS_FILE.read_text(encoding="utf-8"))


def form_names() -> list[str]:
    """Names of the shipped forms."""
    return sorted(_forms())


def form_description(name: str) -> str:
    """One sentence describing a shipped form."""
    return _form(name)["description"]


def form_expectations(name: str) -> dict[str, Any]:
    """The expectations of a shipped form, ``{analyzer name: expectation}`` (JSON form)."""
    return json.loads(json.dumps(_form(name)["expectations"]))


def _form(name: str) -> dict[str, Any]:
    forms = _forms()
    return forms[require_choice(name, sorted(forms), "form")]


@dataclass(frozen=True)
class FormEvaluation:
    """Whether a poem meets every expectation, and each analyzer's evaluation."""

    form: str | None
    passed: bool
    checks: dict[str, Evaluation]

    def to_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "passed": self.passed,
            "checks": {name: check.to_json() for name, check in self.checks.items()},
        }


def resolve_expectations(form: str | Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(form name or None, expectations) from a form name or an expectations mapping."""
    if isinstance(form, str):
        return form, form_expectations(form)
    if not isinstance(form, Mapping) or not form:
        raise InvalidTypeError(
            "form must be a shipped form name or a mapping {analyzer: expectation}"
        )
    for name in form:
        if get_analyzer(name).kind != "single":
            raise InvalidValueError(f"{name} is a collection analyzer; a form checks single poems")
    return None, {name: expectation(spec) for name, spec in form.items()}


def evaluate_poem(
    poem: str | Poem, form: str | Mapping[str, Any], **options: Any
) -> FormEvaluation:
    """Evaluate one poem against a shipped form ("sonnet") or ``{analyzer: expectation}``.

    ``options`` are analyzer options (e.g. ``rhyme_window=None``, ``rhyme_options={"near":
    True}``), passed to the analyzers that declare them.
    """
    check_options(options)
    poem = as_poem(poem)
    name, expectations = resolve_expectations(form)
    values = {analyzer: get_analyzer(analyzer).run(poem, options) for analyzer in expectations}
    return judge_expectations(values, name, expectations)


def judge_values(values: Mapping[str, Any], form: str | Mapping[str, Any]) -> FormEvaluation:
    """Evaluate already computed analyzer values (``{name: value}``) against a form."""
    return judge_expectations(values, *resolve_expectations(form))


def judge_expectations(
    values: Mapping[str, Any], name: str | None, expectations: Mapping[str, Any]
) -> FormEvaluation:
    """:func:`judge_values` against a form already resolved by :func:`resolve_expectations`
    (``name``, ``expectations``): resolve once, judge many poems."""
    missing = [analyzer for analyzer in expectations if analyzer not in values]
    if missing:
        raise InvalidValueError(f"the form checks {', '.join(missing)}, which were not analyzed")
    checks = {
        analyzer: get_analyzer(analyzer).judge(values[analyzer], expected)
        for analyzer, expected in expectations.items()
    }
    return FormEvaluation(name, all(check.passed for check in checks.values()), checks)
