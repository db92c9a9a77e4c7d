"""Joint rhyme-scheme inference: the most probable partition of a stanza's lines.

A stanza of L lines has one graded score per pair of lines, the log-likelihood ratio of "these
two line ends are a rhyme" against "they are not" (:mod:`poetic_eval.rhyme.pair_model`). Under
the model of Reddy & Knight (2011), where every pair of lines of one rhyme group is a rhyme and
every other pair is not, the log-probability of a scheme S is, up to a constant,

    log P(S) + sum of the pair scores of the pairs S puts in one group.

So ABAB with one weak pair beats ABAC whenever the prior's preference for ABAB outweighs the
weak pair's (negative) score. The prior is learned from unlabelled poems (see
:mod:`poetic_eval.rhyme.scheme_learning`):

- up to :data:`TABLE_LINES` lines: a probability for each partition (15 for a quatrain, 52 for a
  limerick's 5 lines, 203 for 6);
- longer stanzas: a sequential prior, line by line, over opening a new rhyme group or joining
  the group whose latest line is ``d`` lines back (:func:`sequential_prior`), so that a long
  run of one rhyme pays once per line, not once per pair; all partitions are enumerated up to
  :data:`EXACT_LINES` lines, and longer stanzas are decoded by a beam search over
  restricted-growth strings (a line joins one of the groups so far or opens a new one).

Schemes are written with letters by first occurrence ("ABAB").
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

import numpy as np

from .letters import scheme_letter

#: Longest stanza with a learned prior over whole schemes.
TABLE_LINES = 6
#: Longest stanza whose partitions are all enumerated.
# Bell(8) = 4,140 schemes to score per stanza; Bell(9) would be 21,147, Bell(10) 115,975
EXACT_LINES = 8
BEAM_WIDTH = 64


def restricted_growth_strings(length: int) -> list[tuple[int, ...]]:
    """Every partition of ``length`` lines as group ids by first occurrence (Bell(length))."""
    found: list[tuple[int, ...]] = [()]
    for _ in range(length):
        found = [s + (g,) for s in found for g in range((max(s) + 2) if s else 1)]
    return found


def scheme_string(groups) -> str:
    return "".join(scheme_letter(g) for g in groups)


def line_pairs(length: int) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, in the order pair scores are given."""
    return list(combinations(range(length), 2))


@cache
def scheme_table(length: int) -> tuple[tuple[str, ...], np.ndarray]:
    """(schemes, links): every scheme of ``length`` lines and a (schemes x pairs) 0/1 matrix of
    the pairs each puts in one group."""
    partitions = restricted_growth_strings(length)
    pairs = line_pairs(length)
    links = np.array(
        [[s[i] == s[j] for i, j in pairs] for s in partitions], dtype=np.float64
    ).reshape(len(partitions), len(pairs))
    return tuple(scheme_string(s) for s in partitions), links


def sequential_prior(groups: tuple[int, ...], join_prior: np.ndarray, new_prior: float) -> float:
    """Log-prior of a long stanza's scheme, line by line: each line after the first opens a new
    group (``new_prior``) or joins the group whose latest line is ``d`` lines back
    (``join_prior[d - 1]``, the last entry for ``d`` beyond the table)."""
    total, latest = 0.0, {}
    for line, group in enumerate(groups):
        if group in latest:
            total += join_prior[min(line - latest[group], len(join_prior)) - 1]
        elif line:
            total += new_prior
        latest[group] = line
    return total


def _sequential_priors(length: int, join_prior: np.ndarray, new_prior: float) -> np.ndarray:
    """:func:`sequential_prior` of every scheme of :func:`scheme_table` (read-only), cached on
    the values of ``join_prior`` and ``new_prior`` (learning reassigns them between calls)."""
    join_prior = np.asarray(join_prior)
    return _cached_sequential_priors(
        length, join_prior.tobytes(), join_prior.dtype.str, join_prior.shape, new_prior
    )


# an ndarray is unhashable: the key is its bytes, dtype and shape, so equal values share an
# entry and values changed by learning never hit a stale one
@lru_cache(maxsize=32)
def _cached_sequential_priors(length, join_bytes, dtype, shape, new_prior) -> np.ndarray:
    join_prior = np.frombuffer(join_bytes, dtype=dtype).reshape(shape)
    priors = np.array(
        [sequential_prior(p, join_prior, new_prior) for p in restricted_growth_strings(length)]
    )
    # the cached array is handed to every caller: read-only, so none can alter the cache
    priors.flags.writeable = False
    return priors


def decode_many(
    scores: np.ndarray,
    length: int,
    prior: np.ndarray | None,
    join_prior: np.ndarray,
    new_prior: float,
    uncertain: tuple[np.ndarray, float] | None = None,
) -> list[str]:
    """Best scheme of each row of ``scores`` (stanzas x pairs) of ``length``-line stanzas.

    ``prior``: log-probabilities of :func:`scheme_table`'s schemes, or None to use the
    sequential prior (:func:`sequential_prior`). ``uncertain``: (certain, cost), a boolean
    (stanzas x pairs) matrix of the pairs that rhyme for certain and the cost subtracted from
    every scheme that links lines of a stanza but none of its certain pairs (see
    :attr:`poetic_eval.rhyme.pair_model.RhymeModel.uncertain_scheme_cost`; exact decoding
    only). Exact up to :data:`EXACT_LINES` lines; beam search beyond.
    """
    scores = np.asarray(scores, dtype=np.float64).reshape(-1, length * (length - 1) // 2)
    if length <= 1:
        return ["A" * length] * len(scores)
    if length > EXACT_LINES:
        return [beam_decode(row, length, join_prior, new_prior) for row in scores]
    schemes, links = scheme_table(length)
    if prior is None:
        prior = _sequential_priors(length, join_prior, new_prior)
    totals = scores @ links.T + prior
    if uncertain is not None and uncertain[1]:
        certain, cost = uncertain
        linking = links.sum(axis=1) > 0
        no_certain = (np.asarray(certain, dtype=np.float64) @ links.T) == 0
        totals -= cost * (no_certain & linking)
    return [schemes[k] for k in np.argmax(totals, axis=1)]


def beam_decode(
    scores: np.ndarray,
    length: int,
    join_prior: np.ndarray,
    new_prior: float,
    width: int = BEAM_WIDTH,
) -> str:
    """Beam search over restricted-growth strings with the sequential prior (long stanzas).

    A state is (score, group of each line so far, latest line of each group); each line extends
    every state by joining each of its groups or opening a new one, and the ``width`` best
    states are kept (ties in the order states and groups were generated)."""
    weights = np.zeros((length, length))
    for (i, j), value in zip(line_pairs(length), scores):
        weights[i, j] = weights[j, i] = value
    cap = len(join_prior)
    states: list[tuple[float, tuple[int, ...], tuple[int, ...]]] = [(0.0, (0,), (0,))]
    for line in range(1, length):
        column = weights[:line, line]
        totals: list[float] = []
        options: list[tuple[int, int]] = []
        for index, (total, groups, latest) in enumerate(states):
            gains = np.bincount(groups, weights=column, minlength=len(latest))
            distances = np.minimum(line - np.asarray(latest), cap)
            totals += (gains + join_prior[distances - 1] + total).tolist()
            totals.append(total + new_prior)
            options += [(index, g) for g in range(len(latest) + 1)]
        best = np.argsort(-np.asarray(totals), kind="stable")[:width]
        following = []
        for k in best:
            index, group = options[k]
            _, groups, latest = states[index]
            if group == len(latest):
                latest = (*latest, line)
            else:
                latest = (*latest[:group], line, *latest[group + 1 :])
            following.append((totals[k], (*groups, group), latest))
        states = following
    return scheme_string(states[0][1])
