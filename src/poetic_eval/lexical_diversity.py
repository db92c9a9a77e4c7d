"""Lexical diversity of a sample of poems: ATTR, MATTR and MTLD.

* ATTR: the mean over poems of each poem's type-token ratio (local diversity).
* MATTR (Covington & McFall 2010): the mean TTR over every full window of ``window`` tokens of
  the sample's concatenated token stream (global diversity); the TTR of the whole stream when it
  is shorter than the window.
* MTLD (McCarthy & Jarvis 2010): the mean length of the stretches of the stream that keep their
  running TTR above ``threshold``, computed forward and backward and averaged.

The counting is incremental: every token gets the position of the previous occurrence of its
type, so "is this token new in the segment starting at ``s``" is ``previous < s``. MATTR then
has a closed form (each token counts once for every window that holds it and not its previous
occurrence) and MTLD scans each segment with one vectorised cumulative sum, instead of the
per-window set recount of the reference packages.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .text import tokens as text_tokens
from .validation import require_fraction, require_positive_int, require_texts

_FIRST_SEGMENT_CHUNK = 64


def type_ids(tokens: Sequence[str]) -> np.ndarray:
    """Integer id of each token's type, in order of first occurrence."""
    vocabulary: dict[str, int] = {}
    return np.fromiter(
        (vocabulary.setdefault(token, len(vocabulary)) for token in tokens),
        dtype=np.int64,
        count=len(tokens),
    )


def previous_occurrence(ids: np.ndarray) -> np.ndarray:
    """For each position, the last earlier position of the same type (-1 when none)."""
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    previous = np.full(len(ids), -1, dtype=np.int64)
    same_type = sorted_ids[1:] == sorted_ids[:-1]
    previous[order[1:][same_type]] = order[:-1][same_type]
    return previous


def ttr(tokens: Sequence[str]) -> float:
    """Type-token ratio of one token list (ValueError when it is empty)."""
    if not tokens:
        raise ValueError("the type-token ratio of an empty token list is undefined")
    return len(set(tokens)) / len(tokens)


def attr(token_lists: Sequence[Sequence[str]]) -> float:
    """Averaged type-token ratio: the mean of the TTRs of each token list."""
    if not token_lists:
        raise ValueError("attr needs at least one token list")
    ratios = []
    for index, token_list in enumerate(token_lists):
        if not token_list:
            raise ValueError(f"token list {index} is empty: its type-token ratio is undefined")
        ratios.append(len(set(token_list)) / len(token_list))
    return float(np.mean(ratios))


def mattr(tokens: Sequence[str], window: int = 35) -> float:
    """Moving-average TTR over all full windows of ``window`` tokens.

    A stream shorter than the window gets the TTR of the whole stream (as the
    ``lexical-diversity`` package; ``lexicalrichness`` raises instead).
    """
    require_positive_int(window, "window")
    n = len(tokens)
    if n == 0:
        raise ValueError("mattr of an empty token list is undefined")
    if n <= window:
        return ttr(tokens)
    previous = previous_occurrence(type_ids(tokens))
    positions = np.arange(n)
    last_start = n - window
    # token j counts as a type in windows starting at i with max(prev+1, j-W+1, 0) <= i <= min(j, n-W)
    first_window = np.maximum(np.maximum(previous + 1, positions - window + 1), 0)
    last_window = np.minimum(positions, last_start)
    types_over_windows = np.clip(last_window - first_window + 1, 0, None).sum()
    return float(types_over_windows / (window * (last_start + 1)))


def _mtld_one_direction(
    previous: np.ndarray,
    threshold: float,
    min_segment: int,
    strict: bool,
    final_token_closes_factor: bool,
) -> float:
    n = len(previous)
    factors = 0.0
    start = 0
    chunk = _FIRST_SEGMENT_CHUNK
    while start < n:
        end = min(n, start + chunk)
        types = np.cumsum(previous[start:end] < start)
        ratios = types / np.arange(1, end - start + 1)
        closes = ratios < threshold if strict else ratios <= threshold
        closes[: max(min_segment - 1, 0)] = False
        if end == n and not final_token_closes_factor:
            closes[-1] = False
        hit = int(np.argmax(closes))
        if closes[hit]:
            factors += 1.0
            start += hit + 1
            chunk = max(_FIRST_SEGMENT_CHUNK, 2 * (hit + 1))
        elif end == n:
            factors += (1.0 - ratios[-1]) / (1.0 - threshold)
            start = n
        else:
            chunk *= 2
    if factors == 0:
        return float(n)  # every token is new: the text never "uses up" a factor
    return n / factors


def mtld(
    tokens: Sequence[str],
    *,
    threshold: float = 0.72,
    min_segment: int = 10,
    strict: bool = True,
    final_token_closes_factor: bool = False,
) -> float:
    """Bidirectional MTLD of a token stream.

    Walk the stream keeping the running TTR of the current segment; when it drops below
    ``threshold`` (``strict=True``: ``<``; ``strict=False``: ``<=``) and the segment has at least
    ``min_segment`` tokens (0 or 1: no minimum), count one factor and start a new segment. The
    rest of the stream adds the partial factor ``(1 - TTR_rest) / (1 - threshold)``.
    MTLD = tokens / factors, averaged over the forward and the reversed stream.

    ``final_token_closes_factor=False`` (the paper's reference code, via ``lexical-diversity``)
    always scores the segment holding the last token as a partial factor;
    ``True`` (McCarthy & Jarvis, ``lexicalrichness``) lets the last token close a full factor.
    A stream whose tokens are all distinct has no factor at all; its MTLD is its length (as
    ``lexicalrichness``; ``lexical-diversity`` returns 0 there).
    """
    require_fraction(threshold, "threshold")
    if threshold == 1.0:
        raise ValueError("threshold must be below 1: the partial factor divides by 1 - threshold")
    require_positive_int(min_segment, "min_segment", minimum=0)
    if not tokens:
        raise ValueError("mtld of an empty token list is undefined")
    ids = type_ids(tokens)
    options = (threshold, min_segment, strict, final_token_closes_factor)
    forward = _mtld_one_direction(previous_occurrence(ids), *options)
    backward = _mtld_one_direction(previous_occurrence(ids[::-1].copy()), *options)
    return float((forward + backward) / 2)


def poem_tokens(
    poems: Sequence[str], *, lowercase: bool = True, remove_punctuation: bool = True
) -> list[list[str]]:
    """Tokens of each poem; ValueError naming the poem when one has no token left."""
    token_lists = []
    for index, poem in enumerate(poems):
        poem_token_list = text_tokens(
            poem, lowercase=lowercase, strip_punctuation=remove_punctuation
        )
        if not poem_token_list:
            raise ValueError(f"poems[{index}] has no tokens once punctuation is removed")
        token_lists.append(poem_token_list)
    return token_lists


def lexical_diversity(
    poems: Sequence[str],
    *,
    window: int = 35,
    threshold: float = 0.72,
    min_segment: int = 10,
    strict: bool = True,
    lowercase: bool = True,
    remove_punctuation: bool = True,
    final_token_closes_factor: bool = False,
) -> dict[str, float]:
    """ATTR, MATTR and MTLD of a sample of poems (MATTR and MTLD over the concatenated stream).

    Tokens: optionally lowercased, punctuation deleted, split on whitespace (no lemmatisation).
    Defaults follow the paper's reference code: window 35, threshold 0.72 (strictly below),
    segments of at least 10 tokens.
    """
    poems = require_texts(poems, "poems")
    require_positive_int(window, "window")
    token_lists = poem_tokens(poems, lowercase=lowercase, remove_punctuation=remove_punctuation)
    stream = [token for token_list in token_lists for token in token_list]
    return {
        "attr": attr(token_lists),
        "mattr": mattr(stream, window),
        "mtld": mtld(
            stream,
            threshold=threshold,
            min_segment=min_segment,
            strict=strict,
            final_token_closes_factor=final_token_closes_factor,
        ),
    }
