"""How a poem becomes one vector for semantic similarity.

``encoding="poem"`` (the paper's way, the default) embeds the poem as one sentence: its lines
joined by single spaces. A sentence encoder reads at most its maximum sequence length (256 word
pieces for all-MiniLM-L6-v2) and silently drops the rest, so a long poem is compared by its
opening only; :func:`encode_poems` warns once per call with the number of poems cut.
``"lines"`` embeds every line on its own and ``"chunks"`` embeds runs of consecutive lines that
fit the encoder's length (a line longer than that is split between words); the poem's vector is
the mean of its normalised line or chunk vectors, normalised again.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..checks import require_choice, typed_options
from ..errors import InvalidTypeError, InvalidValueError, TruncationWarning
from ..text import lines

#: The ways a poem is embedded (see the module docstring).
ENCODINGS = ("poem", "lines", "chunks")


def poem_sentence(poem: str) -> str:
    """The text that is embedded for a poem: its non-empty lines joined by single spaces."""
    return " ".join(lines(poem))


def check_encoding(encoding: str) -> str:
    """``encoding`` when it is one of :data:`ENCODINGS`; ValueError listing them otherwise."""
    return require_choice(encoding, ENCODINGS, "encoding")


@typed_options
def encode_poems(
    poems: Sequence[str],
    encoder: Any,
    *,
    encoding: str = "poem",
    batch_size: int = 64,
    device: str | None = None,
    show_progress: bool = False,
    description: str = "embedding poems",
) -> np.ndarray:
    """Embed poems with ``encoder`` and L2-normalize the rows; returns float32 (n, dim).

    ``encoding`` is ``"poem"``, ``"lines"`` or ``"chunks"`` (module docstring). ``device``
    is passed to the encoder's ``encode`` (None: where the encoder is). ``show_progress``
    shows one bar over the batches, labelled ``description``. A
    :class:`TruncationWarning` gives the number of poems (or lines, chunks) longer than the
    encoder's maximum sequence length, when the encoder has a tokenizer to tell.
    """
    check_encoding(encoding)
    budget = _token_budget(encoder)
    if encoding == "chunks" and budget is None:
        raise InvalidValueError(
            "encoding='chunks' needs an encoder with a tokenizer and a max_seq_length "
            "(a sentence-transformers model); use encoding='lines' with this encoder"
        )
    pieces: list[str] = []
    owners: list[int] = []
    for index, poem in enumerate(poems):
        found = _pieces(poem, encoding, encoder, budget)
        pieces += found
        owners += [index] * len(found)
    _warn_truncated(encoder, budget, pieces, owners, encoding, len(poems))
    run = {"batch_size": batch_size, "device": device}
    vectors = _normalized(_encode(encoder, pieces, run, show_progress, description))
    if encoding == "poem":
        return vectors
    pooled = np.zeros((len(poems), vectors.shape[1]), dtype=np.float32)
    # unbuffered: a poem owns several pieces, and ``pooled[owners] += vectors`` keeps only one
    np.add.at(pooled, np.asarray(owners), vectors)
    return _normalized(pooled)


def _encode(
    encoder: Any, texts: list[str], run: dict, show_progress: bool, description: str
) -> np.ndarray:
    """The encoder's vectors of ``texts``, batch by batch under one progress bar."""
    batch_size, device = run["batch_size"], run["device"]
    options = {"device": device} if device is not None else {}
    if options and not _accepts_device(encoder):
        raise InvalidTypeError(
            f"device={device!r} was given but the encoder's encode() takes no device; "
            "move the encoder there yourself and leave device unset"
        )
    step = batch_size * 16  # several encoder batches per bar update: fewer calls, same result
    parts = []
    with tqdm(total=len(texts), desc=description, unit="poem", disable=not show_progress) as bar:
        for start in range(0, len(texts), step):
            batch = texts[start : start + step]
            raw = encoder.encode(batch, batch_size=batch_size, show_progress_bar=False, **options)
            if hasattr(raw, "detach"):
                raw = raw.detach().cpu().numpy()
            parts.append(np.asarray(raw, dtype=np.float32))
            bar.update(len(batch))
    embeddings = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
    if embeddings.ndim != 2 or embeddings.shape[0] != len(texts):
        raise InvalidValueError(
            f"the encoder returned an array of shape {embeddings.shape} for {len(texts)} "
            "texts; expected one vector per poem (per line or chunk with those encodings)"
        )
    return embeddings


def _accepts_device(encoder: Any) -> bool:
    try:
        parameters = inspect.signature(encoder.encode).parameters.values()
    # no signature to read (a builtin or C-level method): let encode() itself decide
    except (TypeError, ValueError):
        return True
    return any(p.name == "device" or p.kind is p.VAR_KEYWORD for p in parameters)


def _normalized(embeddings: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    # a zero vector stays zero (its similarities 0) instead of becoming NaN
    return np.divide(embeddings, norms, out=np.zeros_like(embeddings), where=norms > 0)


def _pieces(poem: str, encoding: str, encoder: Any, budget: int | None) -> list[str]:
    if encoding == "poem":
        return [poem_sentence(poem)]
    # a poem without a non-empty line still gets one piece, so every poem has a vector
    poem_lines = lines(poem) or [poem_sentence(poem)]
    if encoding == "lines":
        return poem_lines
    return _chunks(poem_lines, encoder.tokenizer, budget)


def _chunks(poem_lines: list[str], tokenizer: Any, budget: int) -> list[str]:
    """Consecutive lines joined while they fit ``budget`` word pieces; a longer line is split
    between words."""
    chunks: list[str] = []
    current: list[str] = []
    used = 0
    for line in poem_lines:
        for part in _fitting_parts(line, tokenizer, budget):
            size = _token_count(tokenizer, part)
            if current and used + size > budget:
                chunks.append(" ".join(current))
                current, used = [], 0
            current.append(part)
            used += size
    if current:
        chunks.append(" ".join(current))
    return chunks


def _fitting_parts(line: str, tokenizer: Any, budget: int) -> list[str]:
    if _token_count(tokenizer, line) <= budget:
        return [line]
    parts: list[str] = []
    current: list[str] = []
    for word in line.split():
        if current and _token_count(tokenizer, " ".join([*current, word])) > budget:
            parts.append(" ".join(current))
            current = []
        current.append(word)
    if current:
        parts.append(" ".join(current))
    return parts


def _token_count(tokenizer: Any, text: str) -> int:
    # verbose=False: no tokenizer warning about over-long inputs, which _warn_truncated reports
    return len(tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])


def _token_budget(encoder: Any) -> int | None:
    """Word pieces of text the encoder reads (its max_seq_length less the special tokens), or
    None when it does not say."""
    limit = getattr(encoder, "max_seq_length", None)
    tokenizer = getattr(encoder, "tokenizer", None)
    if not isinstance(limit, int) or limit <= 0 or not callable(tokenizer):
        return None
    special = getattr(tokenizer, "num_special_tokens_to_add", None)
    return limit - (special(pair=False) if callable(special) else 0)


def _warn_truncated(
    encoder: Any,
    budget: int | None,
    pieces: list[str],
    owners: list[int],
    encoding: str,
    poems: int,
) -> None:
    if budget is None or not pieces:
        return
    lengths = encoder.tokenizer(pieces, add_special_tokens=False, verbose=False)["input_ids"]
    cut = {owners[i] for i, ids in enumerate(lengths) if len(ids) > budget}
    if not cut:
        return
    how = {"poem": "", "lines": " (a line of them)", "chunks": " (a chunk of them)"}[encoding]
    advice = "; encoding='chunks' or 'lines' embeds all of each poem" if encoding == "poem" else ""
    warnings.warn(
        f"{len(cut)} of {poems} poems{how} are longer than the encoder's "
        f"{encoder.max_seq_length} word pieces: only their beginning was embedded{advice}",
        TruncationWarning,
        stacklevel=3,
    )
