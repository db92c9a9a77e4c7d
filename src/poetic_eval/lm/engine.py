"""The engine users hold: a loaded model with one entry point per scoring verb.

:class:`LanguageModel` is the loaded-model record (:class:`~.loaded_model.LoadedModel`) with the
verbs of every caller on top: :meth:`~LanguageModel.score_texts`,
:meth:`~LanguageModel.score_pairs`, :meth:`~LanguageModel.score_sequences`,
:meth:`~LanguageModel.score_choices` (continuations after shared prefixes) and
:meth:`~LanguageModel.slot_log_probs` (the distribution at a slot). Each verb checks what it is
given (its boolean and number options by type: :func:`~poetic_eval.checks.typed_options`) and
hands it to one computation below it (:mod:`.text_scores`, :mod:`.causal`, :mod:`.choices`,
:mod:`.slots`), which never calls back up. Causal and masked models answer the
same verbs (masked ones by pseudo-log-likelihood). It is built by
:func:`poetic_eval.lm.load_language_model`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import torch

from ..checks import require_choice, require_positive_int, typed_options
from ..errors import InvalidValueError
from ..text import require_texts
from .causal import sequence_log_probs
from .choices import encode_choices, score_choices
from .input_checks import (
    check_choice_inputs,
    checked_slot_rows,
    checked_token_sequences,
    require_equal_lengths,
    require_finite_scores,
)
from .loaded_model import LoadedModel
from .slots import slot_log_prob_batches
from .text_scores import REDUCTIONS, pair_log_probs, text_log_probs


class LanguageModel(LoadedModel):
    """A loaded causal or masked LM with its tokenizer and the scoring verbs.

    Scores are log-probabilities in nats (float64 numpy arrays); see the attributes of
    :class:`~poetic_eval.lm.loaded_model.LoadedModel`.
    """

    @typed_options
    def score_texts(
        self,
        texts: Sequence[str],
        reduction: str = "sum",
        *,
        batch_size: int | None = None,
        show_progress: bool = False,
        share_prefixes: bool = True,
        pack_tokens: int | None = None,
    ) -> np.ndarray:
        """Log-probability (nats) of each text.

        Args:
            texts: non-empty strings.
            reduction: ``"sum"`` (total log-prob) or ``"mean"`` (per scored token).
            batch_size: a cap on sequences per forward pass (causal LMs: packed prefix trees;
                masked LMs: masked copies); the model's token budget sets the batches otherwise.
            show_progress: show a progress bar over forward passes.
            share_prefixes: causal LMs: compute shared prefixes once (same numbers, less work).
            pack_tokens: causal LMs: most tokens in one packed prefix tree (default 256, at most
                the token budget).

        Raises:
            ValueError: an empty text, a text longer than the model's context (the row is
                named), an unknown reduction.
        """
        texts = require_texts(texts, "texts")
        options = _text_options(reduction, batch_size, pack_tokens)
        return text_log_probs(
            self, texts, show_progress=show_progress, share_prefixes=share_prefixes, **options
        )

    @typed_options
    def score_pairs(
        self,
        good: Sequence[str],
        bad: Sequence[str],
        reduction: str = "sum",
        *,
        batch_size: int | None = None,
        show_progress: bool = False,
        share_prefixes: bool = True,
        pack_tokens: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Scores of the good and the bad text of each minimal pair, as two arrays; both texts of
        every pair in one call (shared prefixes within and across pairs computed once).
        Options as :meth:`score_texts`; errors name ``good[i]`` / ``bad[i]``."""
        good = require_texts(good, "good")
        bad = require_texts(bad, "bad")
        require_equal_lengths(good=good, bad=bad)
        options = _text_options(reduction, batch_size, pack_tokens)
        return pair_log_probs(
            self, good, bad, show_progress=show_progress, share_prefixes=share_prefixes, **options
        )

    @typed_options
    def score_sequences(
        self,
        sequences: Sequence[Sequence[int]],
        *,
        share_prefixes: bool = True,
        batch_size: int | None = None,
        context_lengths: Sequence[int] | None = None,
    ) -> np.ndarray:
        """Causal LMs: sum of log p(token | previous) over positions 1.. of token sequences
        (after the first ``context_lengths[i]`` positions, when given): tokenize once with
        :func:`poetic_eval.lm.causal_sequences`, score many times
        (:func:`poetic_eval.lm.causal.sequence_log_probs`)."""
        if self.kind != "causal":
            raise InvalidValueError(
                f"{self.name} is a {self.kind} LM; token sequences need a causal LM"
            )
        if batch_size is not None:
            require_positive_int(batch_size, "batch_size")
        # integer ids inside the vocabulary: the sliced head never fills a row outside it
        sequences = checked_token_sequences(self, sequences)
        scores = sequence_log_probs(
            self,
            sequences,
            share_prefixes=share_prefixes,
            batch_size=batch_size,
            context_lengths=context_lengths,
        )
        return require_finite_scores(self, scores, "sequences")

    @typed_options
    def score_choices(
        self,
        prefixes: Sequence[str],
        continuations: Sequence[Sequence[str]],
        reduction: str = "sum",
        *,
        item_ids: Sequence[Any] | None = None,
        what: str = "text",
        batch_size: int | None = None,
        share_prefixes: bool = True,
        progress: Any = None,
    ) -> list[np.ndarray]:
        """log p(continuation | prefix) of every continuation of every item (multiple choice),
        one float64 array per item; every prefix shared within and across items is computed
        once (:mod:`poetic_eval.lm.choices`). ``item_ids`` and ``what`` name items and prefixes
        in errors; ``progress`` wraps the forward passes (e.g. ``tqdm``)."""
        require_choice(reduction, REDUCTIONS, "reduction")
        # lists (not strings), equal lengths, no empty item: before len() of a wrong type
        check_choice_inputs(prefixes, continuations, item_ids)
        if batch_size is not None:
            require_positive_int(batch_size, "batch_size")
        ids = list(range(len(prefixes))) if item_ids is None else list(item_ids)
        encoded = encode_choices(self, prefixes, continuations, ids, what=what)
        return score_choices(
            self,
            encoded,
            reduction=reduction,
            batch_size=batch_size,
            share_prefixes=share_prefixes,
            progress=progress,
        )

    @typed_options
    def slot_log_probs(
        self,
        rows: Sequence[Sequence[int]],
        *,
        max_rows: int | None = None,
        show_progress: bool = False,
    ) -> Iterator[tuple[int, torch.Tensor]]:
        """The distribution over the vocabulary at a slot of each encoded row: after the row's
        last token (causal) or at its one mask token (masked). Yields (first row, (rows, vocab)
        log-probs) per forward pass, in input order (:mod:`poetic_eval.lm.slots`)."""
        if max_rows is not None:
            require_positive_int(max_rows, "max_rows")
        rows = checked_slot_rows(self, rows)  # now, not at the generator's first step
        return slot_log_prob_batches(self, rows, max_rows=max_rows, show_progress=show_progress)


def _text_options(reduction: str, batch_size: int | None, pack_tokens: int | None) -> dict:
    require_choice(reduction, REDUCTIONS, "reduction")
    if batch_size is not None:
        require_positive_int(batch_size, "batch_size")
    if pack_tokens is not None:
        require_positive_int(pack_tokens, "pack_tokens", minimum=2)
    return {"reduction": reduction, "batch_size": batch_size, "pack_tokens": pack_tokens}
