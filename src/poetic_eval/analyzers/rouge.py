"""ROUGE-N and ROUGE-L F1 between many texts at once, equal to the ``rouge-score`` package.

Numbers are those of ``rouge_score.rouge_scorer.RougeScorer(types).score(target, prediction)``
with its default tokenizer: lower-case, every run of characters other than ``a-z0-9`` becomes a
space, split (``use_stemmer=True``: Porter-stem tokens longer than 3 characters, as it does).
Precision divides by the prediction's n-gram count, recall by the target's (each at least 1),
F1 = 2PR / (P + R) (0 when P + R = 0); ROUGE-L uses the longest common subsequence of tokens,
and is 0 when either text has no token.

Speed comes from doing each step once per text instead of once per pair:

- **ROUGE-N**: the overlap ``sum_g min(count_a(g), count_b(g))`` is a dot product of 0/1
  vectors with one column per (n-gram, k) "the text holds n-gram g at least k times", so
  all overlaps of a block of texts against all texts are one sparse matrix product.
- **ROUGE-L**: each text becomes a string of one character per token (same token, same
  character); ``rapidfuzz``'s bit-parallel LCS (``LCSseq``) then compares whole blocks in C++.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, cached_property

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq
from scipy import sparse

from ..errors import InvalidValueError

_NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")
_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")
_ROUGE_N = re.compile(r"^rouge([1-9][0-9]*)$")
DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
_SURROGATES = (0xD800, 0xE000)


def rouge_tokens(text: str, *, use_stemmer: bool = False) -> list[str]:
    """Tokens of ``text`` as rouge-score's default tokenizer makes them."""
    tokens = _NON_ALPHANUMERIC.sub(" ", text.lower()).split()
    if use_stemmer:
        stem = _porter().stem
        tokens = [stem(token) if len(token) > 3 else token for token in tokens]
        # rouge-score's own filter after stemming; without the stemmer every token passes it already
        tokens = [token for token in tokens if _VALID_TOKEN.match(token)]
    return tokens


@cache
def _porter():
    """One Porter stemmer (stateless) for every text."""
    from nltk.stem import porter

    return porter.PorterStemmer()


def check_rouge_types(rouge_types: Sequence[str]) -> tuple[str, ...]:
    """The ROUGE types as a tuple; ValueError for anything but "rougeN" (N >= 1) or "rougeL"."""
    if isinstance(rouge_types, str) or not rouge_types:
        raise InvalidValueError(
            f"rouge_types must be a non-empty list such as ['rouge1', 'rougeL'], "
            f"got {rouge_types!r}"
        )
    for rouge_type in rouge_types:
        if rouge_type != "rougeL" and not _ROUGE_N.match(str(rouge_type)):
            raise InvalidValueError(
                f"unknown ROUGE type {rouge_type!r}: use 'rouge1', 'rouge2', ... or 'rougeL'"
            )
    return tuple(rouge_types)


def code_points(ids: np.ndarray) -> np.ndarray:
    """A character code per token id: by falling frequency from 0, skipping the surrogate
    range (invalid in a str). rapidfuzz looks characters below 256 up in an array instead of a
    hash map, so the frequent tokens get those: about 5x faster LCS on poems."""
    if len(ids) == 0:
        return ids
    counts = np.bincount(ids)
    rank = np.empty_like(counts)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(counts))
    codes = rank[ids]
    return np.where(codes >= _SURROGATES[0], codes + (_SURROGATES[1] - _SURROGATES[0]), codes)


def f1_from_counts(
    overlap: np.ndarray, prediction_counts: np.ndarray, target_counts: np.ndarray
) -> np.ndarray:
    """rouge-score's F1 from overlaps and n-gram counts (arrays that broadcast together)."""
    precision = overlap / np.maximum(prediction_counts, 1)
    recall = overlap / np.maximum(target_counts, 1)
    total = precision + recall
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * precision * recall / total
    return np.where(total > 0, f1, 0.0)


class RougeTexts:
    """Texts tokenized once, with per-type structures built on first use.

    ``f1_matrix(rouge_type, rows, columns)[a, b]`` is the F1 of text ``rows[a]`` as the
    prediction against text ``columns[b]`` as the target; ``f1_pairs`` the same for listed
    pairs only.
    """

    def __init__(self, texts: Sequence[str], *, use_stemmer: bool = False):
        self.size = len(texts)
        vocabulary: dict[str, int] = {}
        id_lists = [
            [
                vocabulary.setdefault(token, len(vocabulary))
                for token in rouge_tokens(text, use_stemmer=use_stemmer)
            ]
            for text in texts
        ]
        self.lengths = np.fromiter(map(len, id_lists), dtype=np.int64, count=self.size)
        self.offsets = np.concatenate(([0], np.cumsum(self.lengths)))
        self.ids = np.fromiter(
            (i for ids in id_lists for i in ids), dtype=np.int64, count=int(self.offsets[-1])
        )
        self._layers: dict[int, tuple[sparse.csr_matrix, np.ndarray]] = {}

    def __len__(self) -> int:
        return self.size

    # --- ROUGE-N ---------------------------------------------------------------------------

    def ngram_layers(self, n: int) -> tuple[sparse.csr_matrix, np.ndarray]:
        """0/1 matrix (texts x (n-gram, k) columns) and each text's n-gram count."""
        if n not in self._layers:
            self._layers[n] = self._build_layers(n)
        return self._layers[n]

    def _build_layers(self, n: int) -> tuple[sparse.csr_matrix, np.ndarray]:
        counts = np.maximum(self.lengths - n + 1, 0)
        owner = np.repeat(np.arange(self.size), counts)
        starts = np.repeat(self.offsets[:-1], counts) + (
            np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
        )
        if len(owner) == 0:
            return sparse.csr_matrix((self.size, 0), dtype=np.int64), counts
        window = self.ids[starts[:, None] + np.arange(n)[None, :]]
        _, gram = np.unique(window, axis=0, return_inverse=True)
        gram = gram.ravel()
        order = np.lexsort((gram, owner))
        key_owner, key_gram = owner[order], gram[order]
        new_group = np.ones(len(order), dtype=bool)
        new_group[1:] = (key_owner[1:] != key_owner[:-1]) | (key_gram[1:] != key_gram[:-1])
        group_start = np.maximum.accumulate(np.where(new_group, np.arange(len(order)), 0))
        # rank = this occurrence's number among the same n-gram in the same text: column (g, k) is
        # "holds g more than k times", so a dot product of two rows counts min(count_a, count_b)
        rank = np.arange(len(order)) - group_start
        # one integer per (n-gram, rank) pair, unique as rank < rank.max() + 1; then renumbered
        # densely
        _, column = np.unique(key_gram * (int(rank.max()) + 1) + rank, return_inverse=True)
        matrix = sparse.csr_matrix(
            (np.ones(len(order), dtype=np.int64), (key_owner, column.ravel())),
            shape=(self.size, int(column.max()) + 1),
        )
        return matrix, counts

    def _ngram_overlaps(self, n: int, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        layers, _ = self.ngram_layers(n)
        return (layers[rows] @ layers[columns].T).toarray()

    # --- ROUGE-L ---------------------------------------------------------------------------

    @cached_property
    def lcs_strings(self) -> list[str]:
        """Each text as one character per token (same token, same character)."""
        codes = code_points(self.ids).tolist()
        return [
            "".join(map(chr, codes[start:stop]))
            for start, stop in zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist())
        ]

    def _lcs_matrix(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        strings = self.lcs_strings
        queries = [strings[i] for i in rows]
        choices = [strings[j] for j in columns]
        distances = process.cdist(
            queries, choices, scorer=LCSseq.distance, dtype=np.int64, workers=1
        )
        longest = np.maximum.outer(self.lengths[rows], self.lengths[columns])
        return longest - distances

    # --- F1 --------------------------------------------------------------------------------

    def f1_matrix(self, rouge_type: str, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """F1 of every (row text as prediction, column text as target) pair."""
        rows, columns = np.asarray(rows, dtype=np.int64), np.asarray(columns, dtype=np.int64)
        if rouge_type == "rougeL":
            lcs = self._lcs_matrix(rows, columns)
            f1 = f1_from_counts(lcs, self.lengths[rows][:, None], self.lengths[columns][None, :])
            empty = (self.lengths[rows] == 0)[:, None] | (self.lengths[columns] == 0)[None, :]
            return np.where(empty, 0.0, f1)
        n = int(_ROUGE_N.match(rouge_type).group(1))
        _, counts = self.ngram_layers(n)
        overlaps = self._ngram_overlaps(n, rows, columns)
        return f1_from_counts(overlaps, counts[rows][:, None], counts[columns][None, :])

    def f1_pairs(self, rouge_type: str, predictions: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """F1 of each listed pair (``predictions[k]`` against ``targets[k]``)."""
        predictions = np.asarray(predictions, dtype=np.int64)
        targets = np.asarray(targets, dtype=np.int64)
        if rouge_type == "rougeL":
            strings = self.lcs_strings
            lcs = np.fromiter(
                (
                    LCSseq.similarity(strings[i], strings[j])
                    for i, j in zip(predictions.tolist(), targets.tolist())
                ),
                dtype=np.int64,
                count=len(predictions),
            )
            prediction_counts, target_counts = self.lengths[predictions], self.lengths[targets]
            empty = (prediction_counts == 0) | (target_counts == 0)
            f1 = f1_from_counts(lcs, prediction_counts, target_counts)
            return np.where(empty, 0.0, f1)
        n = int(_ROUGE_N.match(rouge_type).group(1))
        layers, counts = self.ngram_layers(n)
        overlaps = np.asarray(layers[predictions].multiply(layers[targets]).sum(axis=1)).ravel()
        return f1_from_counts(overlaps, counts[predictions], counts[targets])
