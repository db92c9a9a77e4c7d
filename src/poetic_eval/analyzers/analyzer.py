"""The analyzer record: what every analyzer module declares, and how it is evaluated.

An analyzer *analyzes* (returns a value, no expectation needed) and *evaluates* (compares
that value with an :mod:`~poetic_eval.analyzers.expectations` expectation, giving pass/fail
and a graded score). ``kind`` says what it reads: ``"single"`` analyzers take one
:class:`~poetic_eval.analyzers.poem.Poem`, ``"collection"`` analyzers a list of them (the
poems of one author or system). ``aspect`` is the Erato family: poetic, novelty,
lexico-semantic or fluency.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..checks import unknown_name_message
from ..errors import InvalidTypeError, InvalidValueError
from .expectations import Distance, Expectation, absolute_difference, distance, expectation, passes
from .poem import Poem, as_poem

KINDS = ("single", "collection")
ASPECTS = ("poetic", "novelty", "lexico-semantic", "fluency")


@dataclass(frozen=True)
class Evaluation:
    """The outcome of evaluating one analyzer's value against an expectation.

    ``distance`` is how far the value is from the expectation (0 = met; see
    :func:`~poetic_eval.analyzers.expectations.distance`); ``score`` is the analyzer's graded
    score, named ``score_name``, with ``higher_is_better`` giving its direction (None when the
    value is not comparable, e.g. a list of the wrong length).
    """

    analyzer: str
    value: Any
    expected: dict[str, Any]
    passed: bool
    distance: float
    score: float | None
    score_name: str
    higher_is_better: bool

    def to_json(self) -> dict[str, Any]:
        # inf (not comparable) becomes null: json.dumps would write Infinity, not valid JSON
        distance_value = self.distance if self.distance != float("inf") else None
        return {
            "value": self.value,
            "expected": self.expected,
            "passed": self.passed,
            "distance": distance_value,
            "score": self.score,
            "score_name": self.score_name,
            "higher_is_better": self.higher_is_better,
        }


def _distance_as_score(measured: float, value: Any, spec: Expectation) -> float | None:
    return measured if measured != float("inf") else None


@dataclass(frozen=True)
class Analyzer:
    """One analyzer (see the module docstring).

    Attributes:
        name: registry key, also the key of its value in analysis results.
        kind: "single" or "collection".
        aspect: "poetic", "novelty", "lexico-semantic" or "fluency".
        analyze: ``analyze(poem_or_poems, **options) -> value``.
        description: one line for listings and tables.
        options: the keyword options ``analyze`` accepts (the runners pass only these).
        measure: distance between two whole values (default: absolute difference).
        element: distance between two list elements, for ``each``/``items`` expectations.
        grade: graded score from (distance, value, expectation); default: the distance.
        score_name: what the graded score is called ("abs_error", "mae", ...).
        higher_is_better: direction of the graded score.
    """

    name: str
    kind: str
    aspect: str
    analyze: Callable[..., Any]
    description: str
    options: tuple[str, ...] = ()
    measure: Distance = absolute_difference
    element: Distance = absolute_difference
    grade: Callable[[float, Any, Expectation], float | None] = field(default=_distance_as_score)
    score_name: str = "abs_error"
    higher_is_better: bool = False

    def __post_init__(self) -> None:
        for value, choices, what in ((self.kind, KINDS, "kind"), (self.aspect, ASPECTS, "aspect")):
            if value not in choices:
                raise InvalidValueError(
                    f"analyzer {self.name}: " + unknown_name_message(value, choices, what)
                )

    def run(self, subject: Any, options: Mapping[str, Any] | None = None) -> Any:
        """``analyze`` with the subset of ``options`` this analyzer declares."""
        # one options mapping serves every analyzer of a run: each takes only the keys it declares
        chosen = {key: value for key, value in (options or {}).items() if key in self.options}
        if self.kind == "single":
            subject = as_poem(subject)
        else:
            subject = as_poems(subject)
        return self.analyze(subject, **chosen)

    def judge(self, value: Any, expected: Any) -> Evaluation:
        """Evaluate an already computed value against an expectation (any accepted form)."""
        spec = expectation(expected)
        measured = distance(value, spec, self.measure, self.element)
        return Evaluation(
            analyzer=self.name,
            value=value,
            expected=spec.to_json(),
            passed=passes(measured, spec),
            distance=measured,
            score=self.grade(measured, value, spec),
            score_name=self.score_name,
            higher_is_better=self.higher_is_better,
        )

    def evaluate(
        self, subject: Any, expected: Any, options: Mapping[str, Any] | None = None
    ) -> Evaluation:
        """Analyze ``subject`` (a poem, or a list of poems for a collection analyzer) and
        evaluate the value against ``expected``."""
        return self.judge(self.run(subject, options), expected)


def as_poems(poems: Any) -> list[Poem]:
    """A collection as checked :class:`Poem` objects (strings are named by their index)."""
    # a str is a Sequence too: without this test a poem would become one poem per character
    if isinstance(poems, (str, Poem)) or not isinstance(poems, Sequence):
        raise InvalidTypeError(f"a collection must be a list of poems, got {type(poems).__name__}")
    return [as_poem(poem, f"poems[{index}]") for index, poem in enumerate(poems)]
