"""Lexical diversity of a sample of poems: ATTR, MATTR and MTLD.

* ATTR: the mean over poems of each poem's type-token ratio (local diversity).
* MATTR (Covington & McFall 2010): the mean TTR over every full window of ``window`` tokens of
  the sample's concatenated token stream (global diversity); the TTR of the whole stream when it
  is shorter than the window.
* MTLD (McCarthy & Jarvis 2010): the mean length of the stretches of the stream that keep their
  running TTR above ``threshold``, computed forward and backward and averaged.

The counting is incremental: every token gets the previous occurrence of its type and the
distance back to it (one radix sort of the type ids), so "is this token new in the segment
starting at ``s``" is ``previous < s``, or "distance >= tokens of the segment so far". MATTR
then has a closed form (each token counts once for every window that holds it and not its
previous occurrence), and MTLD is one pass per direction over those distances (as bytes while
segments are short) comparing the segment's repeats with a precomputed table per segment
length, instead of the per-window or per-prefix set recounts of the reference packages. ASCII
samples are split into words and their types counted by pyarrow in one string (no Python
string per token).
"""

from __future__ import annotations

import operator
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..checks import require_fraction, require_positive_int, typed_options
from ..errors import InvalidValueError
from ..text import derived, require_texts, resolve_language, without_punctuation
from ..text import tokens as text_tokens
from .stored_forms import scores_form
from .word_tokens import german_text

_POEM_SEPARATOR = "\x00"  # neither whitespace nor punctuation: survives both, splits poems
_SEPARATOR_TOKEN = f" {_POEM_SEPARATOR} "  # the separator as a token of its own
# what str.split() splits ASCII text at (pyarrow's ascii_split_whitespace misses \x1c-\x1f)
_ASCII_WHITESPACE_TO_SPACE = bytes.maketrans(b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f", b" " * 9)
_ASCII_PUNCTUATION = string.punctuation.encode("ascii")  # what without_punctuation deletes


def type_ids(tokens: Sequence[str]) -> np.ndarray:
    """Integer id of each token's type, in order of first occurrence (int32)."""
    index = {token: i for i, token in enumerate(dict.fromkeys(tokens))}
    return np.fromiter(map(index.__getitem__, tokens), dtype=np.int32, count=len(tokens))


@dataclass(frozen=True)
class TokenStream:
    """A token stream as, per position, the previous occurrence of its type (-1: none) and the
    distance back to it, in the stream (``gaps``) and in the reversed stream
    (``reversed_gaps``); ``len + 1`` where there is none (farther than any segment reaches)."""

    previous: np.ndarray
    gaps: np.ndarray
    reversed_gaps: np.ndarray

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> TokenStream:
        return cls.from_type_ids(type_ids(tokens))

    @classmethod
    def from_type_ids(cls, ids: np.ndarray) -> TokenStream:
        n = len(ids)
        if n and ids.max() < 2**16:
            order = np.argsort(ids.astype(np.uint16), kind="stable")  # radix sort: ~7x faster
        else:
            order = np.argsort(ids, kind="stable")
        same_type = ids[order[1:]] == ids[order[:-1]]
        earlier, later = order[:-1][same_type], order[1:][same_type]
        previous = np.full(n, -1, dtype=np.int64)
        previous[later] = earlier
        gaps = np.full(n, n + 1, dtype=np.int64)
        gaps[later] = later - earlier
        gaps_to_next = np.full(n, n + 1, dtype=np.int64)
        gaps_to_next[earlier] = later - earlier
        return cls(previous, gaps, gaps_to_next[::-1])

    def __len__(self) -> int:
        return len(self.previous)


def ttr(tokens: Sequence[str]) -> float:
    """Type-token ratio of one token list (ValueError when it is empty)."""
    if not tokens:
        raise InvalidValueError("the type-token ratio of an empty token list is undefined")
    return len(set(tokens)) / len(tokens)


def attr(token_lists: Sequence[Sequence[str]]) -> float:
    """Averaged type-token ratio: the mean of the TTRs of each token list."""
    if not token_lists:
        raise InvalidValueError("attr needs at least one token list")
    for index, token_list in enumerate(token_lists):
        if not token_list:
            raise InvalidValueError(
                f"token list {index} is empty: its type-token ratio is undefined"
            )
    return float(np.mean([len(set(token_list)) / len(token_list) for token_list in token_lists]))


def _attr_of_stream(stream: TokenStream, sizes: np.ndarray) -> float:
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    poem_start = np.repeat(starts, sizes)
    types = np.add.reduceat((stream.previous < poem_start).astype(np.int64), starts)
    return float(np.mean(types / sizes))


@typed_options
def mattr(tokens: Sequence[str], window: int = 35) -> float:
    """Moving-average TTR over all full windows of ``window`` tokens.

    A stream shorter than the window gets the TTR of the whole stream (as the
    ``lexical-diversity`` package; ``lexicalrichness`` raises instead).
    """
    require_positive_int(window, "window")
    if not tokens:
        raise InvalidValueError("mattr of an empty token list is undefined")
    return _mattr_of_stream(TokenStream.from_tokens(tokens), window)


def _mattr_of_stream(stream: TokenStream, window: int) -> float:
    n = len(stream)
    if n <= window:
        return float(np.count_nonzero(stream.previous < 0) / n)
    positions = np.arange(n)
    last_start = n - window
    # token j is a new type in the windows starting at i, max(prev+1, j-W+1, 0) <= i <= min(j, n-W)
    first_window = np.maximum(np.maximum(stream.previous + 1, positions - window + 1), 0)
    last_window = np.minimum(positions, last_start)
    types_over_windows = np.clip(last_window - first_window + 1, 0, None).sum()
    return float(types_over_windows / (window * (last_start + 1)))


# MTLD's first pass reads the gaps as bytes, capped at this (iterating bytes makes no int objects)
_BYTE_GAP = 255


def _closing_type_counts(n: int, threshold: float, min_segment: int, strict: bool) -> np.ndarray:
    """For each segment length 1..n, the type counts below which the segment closes a factor.

    A segment of length L with k types closes when ``k / L < threshold`` (or ``<=``), computed
    in floating point exactly as the reference packages do; the closing counts are 0..c[L]-1.
    """
    lengths = np.arange(1, n + 1)
    counts = np.floor(threshold * lengths).astype(np.int64) + 2
    for _ in range(4):  # settle float rounding at the boundary: step down while k-1 fails
        ratio = (counts - 1) / lengths
        fails = ratio >= threshold if strict else ratio > threshold
        counts = np.where(fails, counts - 1, counts)
    counts[: max(min_segment - 1, 0)] = 0
    return counts


def _count_factors(
    gaps: Iterable[int], slack: list[int], boundary: int, factors: float, length: int, repeats: int
) -> tuple[float, int, int, bool]:
    """Carry MTLD's factor count over ``gaps``, from a segment of ``length`` tokens holding
    ``repeats``; returns the count, the open segment's length and repeats, and False where a
    segment outgrew ``slack`` (the state is then the one before the token that did).

    A plain loop over Python ints (the segments are short, so per-segment numpy calls cost
    more). A token repeats a type of the current segment when the distance back to that type is
    below the segment's length; the segment closes when its repeats exceed ``slack[length]``
    (its length minus its closing type count). A token new to the segment leaves the repeats as
    they are while the slack grows by at most one per token, so it cannot close a segment the
    token before did not, except where the slack drops (once, at the minimum segment length
    ``boundary``; 0: nowhere).
    """
    try:
        if boundary:
            boundary_slack = slack[boundary]
            for gap in gaps:
                length += 1
                if gap < length:
                    repeats += 1
                    if repeats <= slack[length]:
                        continue
                elif length != boundary or repeats <= boundary_slack:
                    continue
                factors += 1.0
                length = repeats = 0
        else:
            for gap in gaps:
                length += 1
                if gap < length:
                    repeats += 1
                    if repeats > slack[length]:
                        factors += 1.0
                        length = repeats = 0
    except IndexError:  # only a repeat looks slack up past its end: undo that token
        return factors, length - 1, repeats - 1, False
    return factors, length, repeats, True


def _mtld_one_direction(
    gaps: np.ndarray,
    slack_of: Callable[[int], list[int]],
    boundary: int,
    threshold: float,
    final_token_closes_factor: bool,
) -> float:
    """MTLD's factor count over one direction of the stream, as tokens / factors.

    ``slack_of(lengths)`` is the slack table for segments of up to ``lengths`` tokens. The
    first pass reads the gaps as bytes capped at ``_BYTE_GAP``, exact while segments are at
    most that long (a capped gap is never below their length, nor is the true one); a longer
    segment has every token look slack up past the short table, and the rest of the stream
    is counted on the exact gaps with the table for every length.
    """
    tokens = len(gaps)
    body = tokens if final_token_closes_factor else tokens - 1  # the last may not close
    factors, length, repeats, done, position = 0.0, 0, 0, False, 0
    if boundary < _BYTE_GAP:
        capped = iter(np.minimum(gaps[:body], _BYTE_GAP).astype(np.uint8).tobytes())
        short = slack_of(_BYTE_GAP)
        factors, length, repeats, done = _count_factors(capped, short, boundary, 0.0, 0, 0)
        position = body - operator.length_hint(capped) - 1  # the token that outgrew the table
    if not done:
        rest = gaps[position:body].tolist()
        slack = slack_of(tokens)
        factors, length, repeats, done = _count_factors(
            rest, slack, boundary, factors, length, repeats
        )
        assert done, "no segment is longer than the stream"
    if body < tokens:
        length += 1
        if gaps[-1] < length:
            repeats += 1
    if length:
        factors += (1.0 - (length - repeats) / length) / (1.0 - threshold)
    if factors == 0:
        return float(tokens)  # every token is new: the text never "uses up" a factor
    return tokens / factors


@typed_options
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
    _check_mtld_options(threshold, min_segment)
    if not tokens:
        raise InvalidValueError("mtld of an empty token list is undefined")
    stream = TokenStream.from_tokens(tokens)
    return _mtld_of_stream(stream, threshold, min_segment, strict, final_token_closes_factor)


def _check_mtld_options(threshold: float, min_segment: int) -> None:
    require_fraction(threshold, "threshold")
    if threshold == 1.0:
        raise InvalidValueError(
            "threshold must be below 1: the partial factor divides by 1 - threshold"
        )
    require_positive_int(min_segment, "min_segment", minimum=0)


def _mtld_of_stream(
    stream: TokenStream,
    threshold: float,
    min_segment: int,
    strict: bool,
    final_token_closes_factor: bool,
) -> float:
    n = len(stream)
    closing = _closing_type_counts(
        min(n, max(_BYTE_GAP, 2 * min_segment)), threshold, min_segment, strict
    )
    jumps = np.flatnonzero(np.diff(closing, prepend=0) > 1)
    assert len(jumps) <= 1, "the closing counts jump at most once"
    boundary = int(jumps[0]) + 1 if len(jumps) else 0
    tables: dict[int, list[int]] = {}

    def slack_of(lengths: int) -> list[int]:
        lengths = min(lengths, n)
        if lengths not in tables:
            counts = (
                closing
                if lengths <= len(closing)
                else _closing_type_counts(lengths, threshold, min_segment, strict)
            )
            tables[lengths] = [0, *(np.arange(1, lengths + 1) - counts[:lengths]).tolist()]
        return tables[lengths]

    options = (slack_of, boundary, threshold, final_token_closes_factor)
    forward = _mtld_one_direction(stream.gaps, *options)
    backward = _mtld_one_direction(stream.reversed_gaps, *options)
    return float((forward + backward) / 2)


def poem_tokens(
    poems: Sequence[str],
    *,
    lowercase: bool = True,
    remove_punctuation: bool = True,
    language: str = "en",
) -> list[list[str]]:
    """Tokens of each poem; ValueError naming the poem when one has no token left.

    Same tokens as :func:`poetic_eval.diversity.word_tokens.word_tokens` per poem (for
    ``"en"``, :func:`poetic_eval.text.tokens`), computed on the joined sample (one pass
    instead of one call per poem).
    """
    german = resolve_language(language) == "de"
    if any(_POEM_SEPARATOR in poem for poem in poems):
        texts = [
            " ".join(text_tokens(p, lowercase=lowercase, remove_punctuation=remove_punctuation))
            if not german
            else german_text(p, lowercase=lowercase, remove_punctuation=remove_punctuation)
            for p in poems
        ]
    else:
        joined = _POEM_SEPARATOR.join(poems)  # the separator survives every rule of both
        if german:
            joined = german_text(joined, lowercase=lowercase, remove_punctuation=remove_punctuation)
        else:
            if lowercase:
                joined = joined.lower()
            if remove_punctuation:
                joined = without_punctuation(joined)
        texts = joined.split(_POEM_SEPARATOR)
    token_lists = [text.split() for text in texts]
    for index, token_list in enumerate(token_lists):
        if not token_list:
            raise InvalidValueError(
                f"the poem at index {index} has no tokens once punctuation is removed"
            )
    return token_lists


def poem_type_ids(
    poems: Sequence[str], *, lowercase: bool, remove_punctuation: bool, language: str = "en"
) -> tuple[np.ndarray, np.ndarray]:
    """The type id of every token of the sample (poems concatenated) and each poem's token count.

    The same tokens as :func:`poem_tokens`. English ASCII text is lowercased, stripped of
    punctuation and its whitespace made spaces on bytes, then split and its types counted by
    pyarrow in one string (no Python string per token); the poems are joined by a separator
    token whose positions give each poem's count. Other text goes through :func:`poem_tokens`.
    """
    joined = _SEPARATOR_TOKEN.join(poems)
    fast = language == "en" and joined.isascii()  # German splits at "--", which bytes do not
    if not fast or joined.count(_POEM_SEPARATOR) != len(poems) - 1:
        token_lists = poem_tokens(
            poems, lowercase=lowercase, remove_punctuation=remove_punctuation, language=language
        )
        sizes = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
        return type_ids(list(chain.from_iterable(token_lists))), sizes
    data = joined.encode("ascii")
    if lowercase:
        data = data.lower()  # str.lower on ASCII text
    # str.split's ASCII whitespace made spaces, and without_punctuation's ASCII deletion
    data = data.translate(
        _ASCII_WHITESPACE_TO_SPACE, _ASCII_PUNCTUATION if remove_punctuation else b""
    )
    text_type = pa.string() if len(data) < 2**31 else pa.large_string()
    words = pc.ascii_split_whitespace(pa.array([data], text_type)).flatten()
    encoded = pc.dictionary_encode(words)
    ids = encoded.indices.to_numpy()
    separator = pc.index(encoded.dictionary, _POEM_SEPARATOR).as_py()
    empty = pc.index(encoded.dictionary, "").as_py()  # arrow keeps "" at each end of the text
    is_token = (ids != separator) & (ids != empty)
    tokens_before = np.cumsum(is_token)[np.flatnonzero(ids == separator)]
    ends = np.concatenate((tokens_before, [np.count_nonzero(is_token)]))
    sizes = np.diff(ends, prepend=0).astype(np.int64)
    no_token = np.flatnonzero(sizes == 0)
    if len(no_token):
        raise InvalidValueError(
            f"the poem at index {no_token[0]} has no tokens once punctuation is removed"
        )
    return ids[is_token].astype(np.int32, copy=False), sizes


@typed_options
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
    language: str = "en",
) -> dict[str, float]:
    """ATTR, MATTR and MTLD of a sample of poems (MATTR and MTLD over the concatenated stream).

    Tokens: optionally lowercased, punctuation deleted, split on whitespace (no lemmatisation),
    by the rules of ``language`` (``"en"`` or ``"de"``: German normalizes umlauts (NFC), keeps
    "ß" when lowercasing, splits at dashes and deletes its apostrophes "´"/"ʼ" too; see
    :mod:`poetic_eval.diversity.word_tokens`). Defaults follow the paper's reference code:
    window 35, threshold 0.72 (strictly below), segments of at least 10 tokens.
    """
    language = resolve_language(language)
    poems = require_texts(poems, "poems")
    require_positive_int(window, "window")
    _check_mtld_options(threshold, min_segment)

    def scores() -> dict[str, float]:
        ids, sizes = poem_type_ids(
            poems, lowercase=lowercase, remove_punctuation=remove_punctuation, language=language
        )
        stream = TokenStream.from_type_ids(ids)
        mtld_value = _mtld_of_stream(
            stream, threshold, min_segment, strict, final_token_closes_factor
        )
        return {
            "attr": _attr_of_stream(stream, sizes),
            "mattr": _mattr_of_stream(stream, window),
            "mtld": mtld_value,
        }

    options = (window, threshold, min_segment, strict, lowercase, remove_punctuation)
    # the language picks the tokenizer, so it is part of the key (as in every corpus key)
    key = ("lexical_diversity", language, *options, final_token_closes_factor)
    return dict(derived(poems, key, scores, scores_form()))  # a PoemCorpus keeps its scores
