"""Input handling shared by the poem metric modules in ``metrics/``.

``evaluate`` converts inputs to the declared features before a module sees them: a single string
becomes a list of its characters and numbers become strings; a dict fails with ``KeyError: 0``,
a generator is taken as empty, and a missing column fails with ``NoneType has no len``. The
mixins check ``predictions`` (and a ``references`` corpus) first, with the errors of
:func:`poetic_eval.text.require_texts`, and hand ``evaluate`` the checked list. Modules with
other columns (scores, logits, letters) use :class:`ColumnInputs`: their ``prepare_columns``
checks the columns (:func:`checked_columns`), moves tensors to the CPU once per batch and fills
optional columns before ``evaluate`` sees them.

The diversity metrics compare generated poems with a human *corpus* of any size, which is not
row-aligned with the predictions. A ``references`` that is not a declared feature would be
dropped by ``evaluate``, so :class:`PoemCorpusInputs` passes it on as the ``reference_corpus``
keyword of ``_compute``.

Put a mixin before ``evaluate.Metric`` in the bases. The mixins themselves are not
``evaluate`` modules, so ``evaluate.load`` still finds the metric class in the module file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..checks import require_values_on_device
from ..errors import InvalidTypeError, InvalidValueError
from ..text import require_texts
from ..text.poem_inputs import require_encodable


def checked_columns(
    inputs: Mapping[str, Any], columns: Sequence[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """``inputs`` of an ``evaluate`` module's ``add_batch``/``compute`` with its ``columns``
    checked: each a list-like (a generator is read into a list; a dict or a single string is
    an error naming the column), and the ``required`` ones given all together or not at all
    (none: the rows were added before)."""
    inputs = dict(inputs)
    for name in columns:
        value = inputs.get(name)
        if value is None:
            continue
        if isinstance(value, (str, bytes, Mapping)):
            raise InvalidTypeError(
                f"{name} must be a list with one value per row, got {type(value).__name__}"
            )
        if isinstance(value, Iterable) and not hasattr(value, "__len__"):
            inputs[name] = list(value)
    given = [name for name in required if inputs.get(name) is not None]
    if given and len(given) < len(required):
        missing = [name for name in required if name not in given]
        raise InvalidValueError(
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing: "
            f"{', '.join(required)} are given together (got only {', '.join(given)})"
        )
    return inputs


class PoemInputs:
    """Checks ``predictions`` is a list of non-blank strings before ``evaluate`` converts it."""

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> Any:
        """Add one poem (a string) to the metric's buffer."""
        if prediction is not None and not isinstance(prediction, str):
            raise InvalidTypeError(f"prediction must be a string, got {type(prediction).__name__}")
        if prediction is not None and not prediction.strip():
            raise InvalidValueError("prediction is empty or only whitespace")
        if prediction is not None:
            require_encodable(prediction, "prediction")
        return super().add(prediction=prediction, reference=reference, **kwargs)  # type: ignore[misc]

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Add a batch of poems (a list of strings) to the metric's buffer."""
        if predictions is not None:
            predictions = require_texts(predictions, "predictions")
        return super().add_batch(predictions=predictions, references=references, **kwargs)  # type: ignore[misc]

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric on ``predictions`` and the poems added before."""
        if predictions is not None:
            predictions = require_texts(predictions, "predictions")
        return super().compute(predictions=predictions, references=references, **kwargs)  # type: ignore[misc]


class PoemCorpusInputs(PoemInputs):
    """:class:`PoemInputs`, with ``references`` taken as a corpus (human or training poems) of
    any size. ``references_required`` (True unless a module says otherwise) makes a missing
    corpus an error on the process that computes (``process_id`` 0)."""

    references_required = True

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric; ``references`` is the corpus compared with, of any length."""
        if references is not None:
            references = require_texts(references, "references")
        elif self.references_required and getattr(self, "process_id", 0) == 0:
            raise InvalidValueError(f"references (the human corpus) is required for {self.name}")
        return super().compute(predictions=predictions, reference_corpus=references, **kwargs)


class ColumnInputs:
    """For modules whose columns are not poems (scores, logits, letters): ``add``,
    ``add_batch`` and ``compute`` pass all their keyword arguments through the module's
    :meth:`prepare_columns` before ``evaluate`` converts them."""

    def prepare_columns(self, inputs: dict[str, Any], call: str) -> dict[str, Any]:
        """``inputs`` (every keyword argument of ``call``: ``"add"``, ``"add_batch"`` or
        ``"compute"``) as they go on to ``evaluate``; override it to check columns, move
        tensors to the CPU and fill optional columns. The default returns them unchanged."""
        return inputs

    def add(self, **inputs: Any) -> Any:
        """Add one row to the metric's buffer."""
        return super().add(**self.prepare_columns(_on_device(inputs), "add"))  # type: ignore[misc]

    def add_batch(self, **inputs: Any) -> Any:
        """Add a batch of rows to the metric's buffer."""
        return super().add_batch(**self.prepare_columns(_on_device(inputs), "add_batch"))  # type: ignore[misc]

    def compute(self, **inputs: Any) -> Any:
        """Compute the metric; rows given here are added as one last batch."""
        return super().compute(**self.prepare_columns(_on_device(inputs), "compute"))  # type: ignore[misc]


def _on_device(inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs``, each tensor checked to hold values (not on the ``meta`` device), and each
    string (alone or in a list) to be text: Arrow fails on a lone surrogate naming no row."""
    for name, value in inputs.items():
        require_values_on_device(value, name)
        if isinstance(value, str):
            require_encodable(value, name)
        elif isinstance(value, (list, tuple)):
            for row, item in enumerate(value):
                if isinstance(item, str):
                    require_encodable(item, f"{name}[{row}]")
    return inputs
