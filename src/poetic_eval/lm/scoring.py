"""Score texts and minimal pairs with a language model: log-probabilities in nats.

Causal LMs (BLiMP / Marvin & Linzen / BPoMP convention): the score of a text is the sum over its
tokens of log p(token | previous tokens). The first token is conditioned on a document-start
token so that no token goes unscored: ``LanguageModel.start_token_id`` when set, else the
tokenizer's BOS, else its EOS (see :func:`poetic_eval.lm.language_model.document_start_token_id`).
For the default model, SmolLM2-135M-Instruct, that token is ``<|endoftext|>`` (id 0), the
document separator SmolLM2 was pretrained with; its GGUF tokenizer's nominal BOS is the chat-turn
opener ``<|im_start|>``, which is not a document start. Texts are tokenized without special
tokens, then the start token is prepended.

Texts that share a prefix (the two texts of a minimal pair, rows of a template dataset) are packed
into prefix trees and each distinct prefix is run through the model once
(:mod:`poetic_eval.lm.causal`); the numbers equal separate scoring to float tolerance.

Masked LMs: pseudo-log-likelihood (Salazar et al. 2020), :mod:`poetic_eval.lm.masked`.

``reduction="mean"`` divides by the number of scored tokens (length normalisation). Scores are
float64 numpy arrays; computation runs in the model's dtype (float32 by default;
``dtype=torch.bfloat16`` is faster on GPUs and on CPUs with AVX512-BF16 or AMX but less exact,
so it is opt-in only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from tqdm.auto import tqdm

from ..checks import require_choice, require_positive_int, typed_options
from ..errors import InvalidValueError
from ..text import require_texts
from .causal import sequence_log_probs
from .input_checks import check_vocabulary, require_finite_scores
from .language_model import LanguageModel, document_start_token_id
from .loading import load_language_model
from .masked import pseudo_log_likelihoods

REDUCTIONS = ("sum", "mean")


@typed_options
def score_texts(
    texts: Sequence[str],
    model: Any = None,
    reduction: str = "sum",
    batch_size: int | None = None,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
    show_progress: bool = True,
    share_prefixes: bool = True,
    pack_tokens: int | None = None,
) -> np.ndarray:
    """Log-probability (nats) of each text under ``model``: a convenience over
    :meth:`LanguageModel.score_texts <poetic_eval.lm.LanguageModel.score_texts>` (same numbers).

    Args:
        texts: non-empty strings.
        model: None (the default SmolLM2 model, loaded for this call), a model name or path, a
            ``(model, tokenizer)`` pair or a loaded
            :class:`~poetic_eval.lm.language_model.LanguageModel` (hold one to score many times).
        reduction: ``"sum"`` (total log-prob) or ``"mean"`` (per scored token).
        batch_size: a cap on sequences per forward pass (causal LMs: packed prefix trees;
            masked LMs: masked copies); the model's token budget sets the batches otherwise.
        device, dtype: where and in what precision to run (see :func:`load_language_model`).
        show_progress: show a progress bar over forward passes.
        share_prefixes: causal LMs: compute shared prefixes once (same numbers, less work).
        pack_tokens: causal LMs: most tokens in one packed prefix tree (default 256, at most the
            token budget).

    Raises:
        ValueError: an empty text, a text longer than the model's context (the row is named),
            an unknown reduction, or a model that is neither causal nor masked.
    """
    lm = load_language_model(model, device=device, dtype=dtype)
    return text_log_probs(
        lm,
        texts,
        reduction=reduction,
        batch_size=batch_size,
        show_progress=show_progress,
        share_prefixes=share_prefixes,
        pack_tokens=pack_tokens,
    )


def text_log_probs(
    lm: LanguageModel,
    texts: Sequence[str],
    *,
    reduction: str = "sum",
    batch_size: int | None = None,
    show_progress: bool = False,
    share_prefixes: bool = True,
    pack_tokens: int | None = None,
) -> np.ndarray:
    """:func:`score_texts` under a loaded model (the engine's ``score_texts`` verb)."""
    texts = require_texts(texts, "texts")
    require_choice(reduction, REDUCTIONS, "reduction")
    if batch_size is not None:
        require_positive_int(batch_size, "batch_size")
    if pack_tokens is not None:
        require_positive_int(pack_tokens, "pack_tokens", minimum=2)
    bar = _progress_factory(show_progress, lm)
    if lm.kind == "causal":
        sequences, counts = causal_sequences(lm, texts)
        check_vocabulary(lm, sequences, "texts")  # position 0 is the start token
        totals = sequence_log_probs(
            lm,
            sequences,
            share_prefixes=share_prefixes,
            batch_size=batch_size,
            pack_tokens=pack_tokens,
            progress=bar,
        )
    else:
        encodings, special, counts = _masked_encodings(lm, texts)
        check_vocabulary(lm, encodings, "texts")
        totals = pseudo_log_likelihoods(lm, encodings, special, batch_size=batch_size, progress=bar)
    return require_finite_scores(lm, totals / counts if reduction == "mean" else totals, "texts")


@typed_options
def score_pairs(
    good: Sequence[str],
    bad: Sequence[str],
    model: Any = None,
    reduction: str = "sum",
    **options: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the good and the bad text of each minimal pair, as two arrays: a convenience
    over :meth:`LanguageModel.score_pairs <poetic_eval.lm.LanguageModel.score_pairs>`.

    Both texts of every pair are scored in one call, so prefixes shared within a pair and across
    pairs are computed once. ``options`` are those of :func:`score_texts`.
    """
    loading = {key: options.pop(key) for key in ("device", "dtype") if key in options}
    options.setdefault("show_progress", True)
    lm = load_language_model(model, **loading)
    return pair_log_probs(lm, good, bad, reduction=reduction, **options)


def pair_log_probs(
    lm: LanguageModel, good: Sequence[str], bad: Sequence[str], *, reduction: str = "sum", **options
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`score_pairs` under a loaded model (the engine's ``score_pairs`` verb)."""
    good = require_texts(good, "good")
    bad = require_texts(bad, "bad")
    if len(good) != len(bad):
        raise InvalidValueError(
            f"good and bad must have the same length, got {len(good)} and {len(bad)}"
        )
    try:
        scores = text_log_probs(lm, list(good) + list(bad), reduction=reduction, **options)
    except ValueError as error:  # rows of the joined list -> rows of good / bad
        raise InvalidValueError(_pair_rows(str(error), len(good))) from None
    return scores[: len(good)], scores[len(good) :]


def _pair_rows(message: str, pairs: int) -> str:
    """``texts[i]`` in a message about ``good + bad`` rewritten as ``good[i]`` or ``bad[i - n]``."""

    def name(match: re.Match) -> str:
        row = int(match.group(1))
        return f"good[{row}]" if row < pairs else f"bad[{row - pairs}]"

    return re.sub(r"texts\[(\d+)\]", name, message)


def _progress_factory(show_progress: bool, lm: LanguageModel):
    def bar(items):
        return tqdm(items, desc=f"scoring ({lm.kind} LM)", unit="batch", disable=not show_progress)

    return bar


def causal_sequences(lm: LanguageModel, texts: list[str]) -> tuple[list[list[int]], np.ndarray]:
    """The token sequences :func:`score_texts` scores with a causal LM (the document-start token,
    then the text's tokens) and each text's number of scored tokens.

    Tokenize once, score many times: :func:`poetic_eval.lm.sequence_log_probs` on these
    sequences gives ``score_texts(texts, lm)`` (a training loop scoring the same pairs at every
    evaluation pays for tokenization once). ValueError names a text without tokens or one
    longer than the model's context.
    """
    start = document_start_token_id(lm)
    encoded = lm.tokenizer(texts, add_special_tokens=False)["input_ids"]
    limit = lm.context_length
    sequences = []
    for row, ids in enumerate(encoded):
        if not ids:
            raise InvalidValueError(f"texts[{row}] has no tokens after tokenization")
        if limit is not None and len(ids) + 1 > limit:
            raise InvalidValueError(
                f"texts[{row}] has {len(ids)} tokens (+1 start token); {lm.name} accepts at most "
                f"{limit} positions"
            )
        sequences.append([start, *ids])
    counts = np.array([len(ids) for ids in encoded], dtype=np.float64)
    return sequences, counts


def _masked_encodings(lm: LanguageModel, texts: list[str]):
    encoded = lm.tokenizer(texts, return_special_tokens_mask=True)
    limit = lm.context_length
    special = encoded["special_tokens_mask"]
    for row, ids in enumerate(encoded["input_ids"]):
        if limit is not None and len(ids) > limit:
            raise InvalidValueError(
                f"texts[{row}] has {len(ids)} tokens with special tokens; {lm.name} accepts at "
                f"most {limit} positions"
            )
        if not any(flag == 0 for flag in special[row]):
            raise InvalidValueError(f"texts[{row}] has no tokens after tokenization")
    counts = np.array([flags.count(0) for flags in special], dtype=np.float64)
    return encoded["input_ids"], special, counts
