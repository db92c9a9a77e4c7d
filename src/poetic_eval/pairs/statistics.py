"""Accuracy on minimal pairs, with bootstrap intervals, per category, and paired model comparison.

A pair is right when score(good) > score(bad); ties count as wrong and are reported. Scores may
be Python lists, numpy arrays or torch tensors on any device (one transfer to the CPU per call).

The bootstrap resamples pairs with replacement. The accuracy of a resample of n pairs from a
set with k right is distributed exactly as Binomial(n, k/n) / n, and a paired resample of two
models' outcomes as a Multinomial over the four (right, wrong) combinations, so the resamples are
drawn from those distributions directly: the same bootstrap distribution as index resampling,
in O(n_bootstrap) instead of O(n_bootstrap * n) time and memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.stats import binomtest

from ..checks import require_fraction, require_positive_int, require_values_on_device, typed_options
from ..errors import InvalidTypeError, InvalidValueError

#: The most bootstrap draws one call makes (resamples x groups): 50M int64, about 400 MB, plus
#: the quantile's working copy. More is refused before any work rather than a MemoryError.
MAX_BOOTSTRAP_DRAWS = 50_000_000


def check_bootstrap_size(n_bootstrap: int, n_groups: int = 1, name: str = "n_bootstrap") -> int:
    """``n_bootstrap`` when ``n_bootstrap * n_groups`` (groups: categories + overall) draws fit
    in :data:`MAX_BOOTSTRAP_DRAWS`; else a ValueError saying how many would."""
    require_positive_int(n_bootstrap, name)
    most = MAX_BOOTSTRAP_DRAWS // max(1, n_groups)
    if n_bootstrap > most:
        raise InvalidValueError(
            f"{name} {n_bootstrap:,} is too many resamples for {n_groups} group(s) (at most "
            f"{most:,}: {MAX_BOOTSTRAP_DRAWS:,} draws in all); 1,000 to 10,000 is plenty for a "
            "95% interval"
        )
    return n_bootstrap


def as_score_array(values: Any, name: str) -> np.ndarray:
    """1-D float64 array from a list, a numpy array or a torch tensor (any device or dtype).

    Raises TypeError for non-numeric input and ValueError for NaN or infinite values, naming the
    first offending rows.
    """
    if values is None:
        raise InvalidValueError(f"{name} is required (got None)")
    require_values_on_device(values, name)
    if hasattr(values, "detach") and hasattr(
        values, "cpu"
    ):  # torch tensor, without importing torch
        values = values.detach().cpu().double().numpy()
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTypeError(
            f"{name} must be numbers (a list, numpy array or torch tensor)"
        ) from None
    if array.ndim != 1:
        array = array.reshape(-1) if array.ndim == 2 and 1 in array.shape else array
        if array.ndim != 1:
            raise InvalidValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    bad = np.nonzero(~np.isfinite(array))[0]
    if bad.size:
        shown = ", ".join(str(row) for row in bad[:10]) + (" ..." if bad.size > 10 else "")
        raise InvalidValueError(
            f"{name} has {bad.size} NaN or infinite value(s), at rows {shown}; "
            "scores must be finite"
        )
    return array


def _checked_pairs(good_scores: Any, bad_scores: Any) -> tuple[np.ndarray, np.ndarray]:
    good = as_score_array(good_scores, "good_scores")
    bad = as_score_array(bad_scores, "bad_scores")
    if good.shape != bad.shape:
        raise InvalidValueError(
            f"good_scores and bad_scores must have the same length, got {good.size} and {bad.size}"
        )
    if good.size == 0:
        raise InvalidValueError("good_scores is empty: at least one pair is needed")
    return good, bad


def uncategorised_as_none(categories: Sequence[str] | None) -> list[str] | None:
    """None when no pair has a category ("" marks a missing one); error when only some do."""
    if categories is None:
        return None
    labels = list(categories)
    missing = [row for row, label in enumerate(labels) if label in ("", None)]
    if len(missing) == len(labels):
        return None
    if missing:
        raise InvalidValueError(
            f"categories are missing for {len(missing)} of {len(labels)} pairs (rows "
            f"{missing[:10]}); give a category for every pair or for none"
        )
    return labels


def _percentile_interval(samples: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(samples, [tail, 1.0 - tail], axis=-1)
    return low, high


@typed_options
def pair_preference(
    good_scores: Any,
    bad_scores: Any,
    categories: Sequence[str] | None = None,
    n_bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Share of pairs with score(good) > score(bad), with a bootstrap interval and categories.

    Returns ``accuracy``, ``n``, ``ties``, ``ci_low``, ``ci_high`` and ``by_category``
    (``{category: {accuracy, n, ties, ci_low, ci_high}}``, empty without categories).
    """
    good, bad = _checked_pairs(good_scores, bad_scores)
    categories = list(categories) if categories is not None else None
    n_groups = 1 + (len(set(categories)) if categories is not None else 0)
    check_bootstrap_size(n_bootstrap, n_groups)
    require_fraction(confidence, "confidence")
    # exact comparison, no tolerance: a tie counts as wrong and is counted in "ties", so the
    # caller sees how many pairs the model did not separate (a tolerance would hide that)
    right = good > bad
    ties = good == bad
    rng = np.random.default_rng(seed)
    n = right.size
    accuracy = float(right.mean())
    low, high = _percentile_interval(rng.binomial(n, accuracy, size=n_bootstrap) / n, confidence)
    result: dict[str, Any] = {
        "accuracy": accuracy,
        "n": int(n),
        "ties": int(ties.sum()),
        "ci_low": float(low),
        "ci_high": float(high),
        "by_category": {},
    }
    if categories is not None:
        result["by_category"] = _by_category(right, ties, categories, n_bootstrap, rng, confidence)
    return result


def _by_category(right, ties, categories, n_bootstrap, rng, confidence) -> dict[str, dict]:
    labels = np.asarray(list(categories), dtype=object)
    if labels.size != right.size:
        raise InvalidValueError(
            f"categories must have one entry per pair: got {labels.size} for {right.size} pairs"
        )
    missing = [row for row, label in enumerate(labels) if not isinstance(label, str)]
    if missing:
        raise InvalidTypeError(f"categories must be strings; rows {missing[:10]} are not")
    names, index = np.unique(labels.astype(str), return_inverse=True)
    counts = np.bincount(index, minlength=names.size)
    rights = np.bincount(index, weights=right, minlength=names.size)
    tie_counts = np.bincount(index, weights=ties, minlength=names.size)
    accuracies = rights / counts
    samples = rng.binomial(counts[:, None], accuracies[:, None], size=(names.size, n_bootstrap))
    low, high = _percentile_interval(samples / counts[:, None], confidence)
    return {
        str(name): {
            "accuracy": float(accuracies[i]),
            "n": int(counts[i]),
            "ties": int(tie_counts[i]),
            "ci_low": float(low[i]),
            "ci_high": float(high[i]),
        }
        for i, name in enumerate(names)
    }


@typed_options
def compare_pair_preferences(
    good_scores_a: Any,
    bad_scores_a: Any,
    good_scores_b: Any,
    bad_scores_b: Any,
    n_bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, float]:
    """Paired comparison of models A and B on the same pairs.

    Returns ``accuracy_a``, ``accuracy_b``, ``difference`` (A - B), ``n``, the discordant counts
    ``a_only`` (A right, B wrong) and ``b_only``, ``mcnemar_p_value`` (exact two-sided McNemar
    test: a binomial test of a_only among the discordant pairs at 1/2; 1.0 when there are none),
    and ``ci_low`` / ``ci_high``, a paired bootstrap interval of the difference.
    """
    good_a, bad_a = _checked_pairs(good_scores_a, bad_scores_a)
    good_b, bad_b = _checked_pairs(good_scores_b, bad_scores_b)
    if good_a.size != good_b.size:
        raise InvalidValueError(
            f"models A and B must be scored on the same pairs, got {good_a.size} and {good_b.size}"
        )
    check_bootstrap_size(n_bootstrap, 4)  # the multinomial draws 4 counts per resample
    require_fraction(confidence, "confidence")
    right_a, right_b = good_a > bad_a, good_b > bad_b
    n = right_a.size
    a_only = int(np.sum(right_a & ~right_b))
    b_only = int(np.sum(~right_a & right_b))
    both = int(np.sum(right_a & right_b))
    discordant = a_only + b_only
    p_value = binomtest(a_only, discordant, 0.5).pvalue if discordant else 1.0
    rng = np.random.default_rng(seed)
    shares = np.array([both, a_only, b_only, n - both - discordant]) / n
    resamples = rng.multinomial(n, shares, size=n_bootstrap)
    low, high = _percentile_interval((resamples[:, 1] - resamples[:, 2]) / n, confidence)
    return {
        "accuracy_a": float(right_a.mean()),
        "accuracy_b": float(right_b.mean()),
        "difference": float(right_a.mean() - right_b.mean()),
        "n": int(n),
        "a_only": a_only,
        "b_only": b_only,
        "mcnemar_p_value": float(p_value),
        "ci_low": float(low),
        "ci_high": float(high),
    }
