"""The form of a metric's Space: one text field per input of the card's example, and back.

A metric Space (:mod:`poetic_eval.evaluate_modules.spaces`) shows a form whose fields are the
keyword arguments of the example in the module's ``_KWARGS_DESCRIPTION`` (the example the
card shows and the doctests run), filled in with that example. Each argument becomes a field by
the shape of its value:

- ``poems``: strings, some with line breaks, separated by a line holding only ``---``;
- ``lines``: strings without line breaks, one per line;
- ``numbers``: numbers, one per line (commas or spaces separate them too);
- ``vectors``: lists of numbers, one JSON list per line;
- ``options``: every other argument (``window=5``, ``return_matches=True``, ...) together, as
  one JSON object; any other keyword of ``compute`` can be added there.

:func:`form_spec` reads the example (no metric is loaded: the example runs with a stand-in
loader that records what it passes to ``compute``) and writes each field's text;
:func:`parse_form` turns the texts a user submits back into ``compute``'s arguments (the
example's texts give back the example's arguments exactly; the tests check every metric).
Gradio is not imported here (:mod:`.space_app` builds the page).
"""

from __future__ import annotations

import ast
import doctest
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .locations import metric_path

POEM_SEPARATOR = "---"
KINDS = ("poems", "lines", "numbers", "vectors", "options")
OPTIONS = "options"
_HINTS = {
    "poems": f"one poem after another, separated by a line holding only {POEM_SEPARATOR}",
    "lines": "one per line",
    "numbers": "one number per line",
    "vectors": "one JSON list of numbers per line",
    "options": "the other keyword arguments of compute, as a JSON object",
}
# trailing blanks allowed: a separator typed as "--- " in the form still separates poems
_SEPARATOR_LINE = re.compile(rf"^{re.escape(POEM_SEPARATOR)}[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class FormField:
    """One field of the form: the ``compute`` argument it fills (``options``: several), how its
    text is read, and the example's text."""

    name: str
    kind: str
    example: str

    @property
    def label(self) -> str:
        return f"{self.name} ({_HINTS[self.kind]})"

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind, "example": self.example}


class _Computed(Exception):
    """Raised by the stand-in metric's ``compute`` to stop the example there."""

    def __init__(self, arguments: dict[str, Any]):
        super().__init__("compute called")
        self.arguments = arguments


class _RecordingMetric:
    # the example stops at its first compute call: the arguments are all the form needs
    def compute(self, **arguments):
        raise _Computed(arguments)


def example_text(module_file: str | Path) -> str:
    """The ``_KWARGS_DESCRIPTION`` string of a metric module file (read, not imported)."""
    module_file = Path(module_file)
    tree = ast.parse(module_file.read_text(encoding="utf-8"), str(module_file))
    for node in tree.body:
        targets = [getattr(t, "id", None) for t in getattr(node, "targets", [])]
        if "_KWARGS_DESCRIPTION" in targets:
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
            raise ValueError(f"{module_file}: _KWARGS_DESCRIPTION is not a plain string")
    raise ValueError(f"{module_file}: no _KWARGS_DESCRIPTION")


def example_arguments(name: str, text: str | None = None) -> dict[str, Any]:
    """The keyword arguments the documented example of metric ``name`` passes to ``compute``
    (the first call), found by running the example up to that call."""
    if text is None:
        text = example_text(Path(metric_path(name)) / f"{name}.py")

    def load(_name, **options):
        if options:  # the Space loads the module without options
            raise ValueError(f"{name}: the example loads the metric with options {options}")
        return _RecordingMetric()

    namespace: dict[str, Any] = {"_load": load}
    for example in doctest.DocTestParser().get_examples(text):
        source = example.source.replace("poetic_eval.load_metric(", "_load(")
        try:
            exec(compile(source, f"<{name} example>", "exec"), namespace)  # noqa: S102
        except _Computed as computed:
            return computed.arguments
    raise ValueError(f"{name}: the documented example never calls compute")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def field_kind(value: Any) -> str:
    """The kind of field that holds ``value`` (``options`` when no list field fits)."""
    # an empty list has no element to tell its kind: it goes with the options
    if not isinstance(value, (list, tuple)) or not value:
        return OPTIONS
    if all(isinstance(item, str) for item in value):
        return "poems" if any("\n" in item for item in value) else "lines"
    if all(_is_number(item) for item in value):
        return "numbers"
    if all(isinstance(item, (list, tuple)) and all(map(_is_number, item)) for item in value):
        return "vectors"
    return OPTIONS


def format_field(kind: str, value: Any) -> str:
    """The text of a field holding ``value`` (``options``: a dict of arguments)."""
    if kind == "poems":
        return f"\n{POEM_SEPARATOR}\n".join(value)
    if kind == "lines":
        return "\n".join(value)
    if kind in ("numbers", "vectors"):
        # json.dumps writes floats as repr does: the shortest text that reads back exactly
        return "\n".join(json.dumps(item) for item in value)
    return json.dumps(value, indent=1) if value else "{}"


def parse_field(field: FormField, text: str) -> Any:
    """The value of a field's text; an empty text gives None (the argument is left out)."""
    if not text.strip():
        return {} if field.kind == OPTIONS else None
    if field.kind == "poems":
        return [part.strip("\n") for part in _SEPARATOR_LINE.split(text) if part.strip()]
    if field.kind == "lines":
        return [line for line in text.splitlines() if line.strip()]
    if field.kind == "numbers":
        return [_number(field.name, token) for token in re.split(r"[\s,]+", text.strip())]
    if field.kind == "vectors":
        return [_vector(field.name, line) for line in text.splitlines() if line.strip()]
    options = _json(field.name, text)
    if not isinstance(options, dict):
        raise TypeError(f'{field.name}: give a JSON object, e.g. {{"window": 5}}')
    return options


def _json(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{name}: not JSON ({error.msg} at line {error.lineno})") from None


def _number(name: str, token: str) -> int | float:
    try:
        # JSON first so that "5" stays the int 5 and the example's arguments read back exactly
        value = json.loads(token)
    except json.JSONDecodeError:
        value = None
    if not _is_number(value):
        try:
            value = float(token)  # also 1e-3, nan, inf
        except ValueError:
            raise ValueError(f"{name}: {token!r} is not a number") from None
    return value


def _vector(name: str, line: str) -> list:
    value = _json(name, line)
    if not isinstance(value, list) or not all(map(_is_number, value)):
        raise ValueError(f"{name}: each line must be a JSON list of numbers, got {line.strip()}")
    return value


def form_fields(arguments: dict[str, Any]) -> list[FormField]:
    """One field per list argument of the example, in its order, then one ``options`` field
    for the rest (always present, so that other arguments can be given)."""
    fields, options = [], {}
    for name, value in arguments.items():
        kind = field_kind(value)
        if kind == OPTIONS:
            options[name] = value
        else:
            fields.append(FormField(name, kind, format_field(kind, value)))
    if OPTIONS in arguments:
        raise ValueError(f"a compute argument is named {OPTIONS!r}, the name of the options field")
    return [*fields, FormField(OPTIONS, OPTIONS, format_field(OPTIONS, options))]


def parse_form(fields: Sequence[FormField], texts: Sequence[str]) -> dict[str, Any]:
    """``compute``'s keyword arguments from the texts of the form's fields."""
    if len(texts) != len(fields):
        raise ValueError(f"expected {len(fields)} fields, got {len(texts)}")
    arguments: dict[str, Any] = {}
    for field, text in zip(fields, texts):
        value = parse_field(field, text or "")
        if field.kind == OPTIONS:
            clash = sorted(set(value) & set(arguments))
            if clash:
                raise ValueError(f"options: {', '.join(clash)} has its own field above")
            arguments.update(value)
        elif value is not None:
            arguments[field.name] = value
    return arguments


def form_spec(name: str) -> dict[str, Any]:
    """What the Space's ``form.json`` holds: the metric's name and its fields, each with the
    example's text."""
    fields = form_fields(example_arguments(name))
    return {"metric": name, "fields": [field.to_dict() for field in fields]}


def fields_of(spec: dict[str, Any]) -> list[FormField]:
    """The fields of a ``form.json`` spec."""
    fields = [FormField(f["name"], f["kind"], f["example"]) for f in spec["fields"]]
    unknown = [field.kind for field in fields if field.kind not in KINDS]
    if unknown:
        raise ValueError(f"form.json: unknown field kind(s) {unknown}; known: {', '.join(KINDS)}")
    return fields


def plain_json(value: Any) -> Any:
    """A result as JSON data: numpy scalars and arrays become numbers and lists, keys strings,
    and a NaN or infinite float None (JSON has no such number)."""
    if isinstance(value, dict):
        return {str(key): plain_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_json(item) for item in value]
    if hasattr(value, "tolist"):
        return plain_json(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def one_line(error: BaseException) -> str:
    """An error as the one line a user reads: its message's first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__
