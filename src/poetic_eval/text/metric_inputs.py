"""Input handling shared by the poem metric modules in ``metrics/``.

``evaluate`` converts inputs to the declared features before a module sees them: a single string
becomes a list of its characters and numbers become strings. The mixins check ``predictions``
(and a ``references`` corpus) first, with the errors of :func:`poetic_eval.text.require_texts`.

The diversity metrics compare generated poems with a human *corpus* of any size, which is not
row-aligned with the predictions. A ``references`` that is not a declared feature would be
dropped by ``evaluate``, so :class:`PoemCorpusInputs` passes it on as the ``reference_corpus``
keyword of ``_compute``.

Put a mixin before ``evaluate.Metric`` in the bases. The mixins themselves are not
``evaluate`` modules, so ``evaluate.load`` still finds the metric class in the module file.
"""

from __future__ import annotations

from typing import Any

from .validation import require_texts


class PoemInputs:
    """Checks ``predictions`` is a list of non-blank strings before ``evaluate`` converts it."""

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> Any:
        """Add one poem (a string) to the metric's buffer."""
        if prediction is not None and not isinstance(prediction, str):
            raise TypeError(f"prediction must be a string, got {type(prediction).__name__}")
        if prediction is not None and not prediction.strip():
            raise ValueError("prediction is empty or only whitespace")
        return super().add(prediction=prediction, reference=reference, **kwargs)  # type: ignore[misc]

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Add a batch of poems (a list of strings) to the metric's buffer."""
        if predictions is not None:
            require_texts(predictions, "predictions")
        return super().add_batch(predictions=predictions, references=references, **kwargs)  # type: ignore[misc]

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric on ``predictions`` and the poems added before."""
        if predictions is not None:
            require_texts(predictions, "predictions")
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
            raise ValueError(f"references (the human corpus) is required for {self.name}")
        return super().compute(predictions=predictions, reference_corpus=references, **kwargs)
