"""Rhyme-scheme distributions of poem samples and their entropy, KL divergence and cross-entropy.

The paper (Diversity in poetry generation) compares the distribution of quatrain rhyme schemes
(the 15 labels of :data:`poetic_eval.rhyme.QUATRAIN_SCHEMES`) of a generated sample P with that
of the human corpus Q: entropy H(P), KL(P || Q) and cross-entropy H(P, Q) = H(P) + KL(P || Q).

Choices the paper leaves open (all options, written in the rhyme_kl card):

- Log base 2 by default (bits): the paper's human entropy of 3.10 is only reachable in bits.
- Additive smoothing: ``smoothing`` is added to each of the 15 probabilities and the result is
  renormalized, for both P and Q, before H, KL and CE are computed (so the identity
  CE = H + KL holds exactly). ``smoothing=0`` gives ``inf`` KL when Q lacks a scheme P has.
- Schemes come from :func:`poetic_eval.rhyme.rhyme_schemes` with ``method`` (the learned rhyme
  model by default, or ``"perfect"``) and its options, by the rhyme rules of ``language``
  (``"en"``: CMUdict and the English model; ``"de"``: German rhyme read from the spelling and
  the model fitted to German verse).
- Poems that do not have exactly 4 non-empty lines are not quatrains: with
  ``non_quatrains="skip"`` (default) they are left out of the distributions and counted
  (``non_quatrain_predictions`` / ``non_quatrain_references``); ``"error"`` rejects them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tqdm.auto import tqdm

from ..checks import is_number, require_choice, typed_options
from ..checks.validation import options_from_keywords
from ..errors import InvalidTypeError, InvalidValueError, NoQuatrainError
from ..rhyme import QUATRAIN_SCHEMES, is_repetition, resolve_method, rhyme_schemes
from ..text import derived, lines, require_texts, resolve_language
from .stored_forms import schemes_form

_NON_QUATRAIN_POLICIES = ("skip", "error")


_NO_RHYME = "ABCD"
#: Quatrains decoded per batch (the progress bar advances per batch).
_BATCH = 2048


@dataclass(frozen=True)
class SchemeReading:
    """How a poem's quatrain scheme is read: the keyword options of :func:`rhyme_divergence`
    passed on to :func:`poetic_eval.rhyme.rhyme_schemes`, and what to do with non-quatrains."""

    non_quatrains: str = "skip"
    method: str | None = None
    link_repetitions: bool = True
    weak: bool = False
    near: bool = False
    historical: bool = False


def _quatrain_schemes(
    poems: Sequence[str],
    name: str,
    reading: SchemeReading,
    language: str,
    show_progress: bool,
) -> tuple[list[tuple[str, bool]], int]:
    """(scheme, is_repetition) of every quatrain, and the number of non-quatrains skipped."""
    non_quatrains = reading.non_quatrains
    require_choice(non_quatrains, _NON_QUATRAIN_POLICIES, "non_quatrains policy")
    poems = require_texts(poems, name)
    weak, near, historical = reading.weak, reading.near, reading.historical
    options = {
        "language": resolve_language(language),
        "method": resolve_method(reading.method, weak=weak, near=near, historical=historical),
        "link_repetitions": reading.link_repetitions,
        "weak": weak,
        "near": near,
        "historical": historical,
    }

    def schemes() -> tuple[list[tuple[str, bool]], int]:
        return _schemes_of_quatrains(poems, name, non_quatrains, options, show_progress)

    # a PoemCorpus keeps its schemes for the next call; the key holds every option that changes
    # a scheme (the language and the resolved method too), not show_progress
    key = ("quatrain_schemes", non_quatrains, *options.values())
    found, skipped = derived(poems, key, schemes, schemes_form())
    if not found:
        raise NoQuatrainError(f"{name} has no quatrain (poem of exactly 4 non-empty lines)")
    return found, skipped


def _schemes_of_quatrains(
    poems: Sequence[str], name: str, non_quatrains: str, options: dict, show_progress: bool
) -> tuple[list[tuple[str, bool]], int]:
    quatrains, skipped = [], 0
    for index, poem in enumerate(poems):
        line_count = len(lines(poem))
        if line_count != 4:
            if non_quatrains == "error":
                raise InvalidValueError(
                    f"{name}[{index}] has {line_count} non-empty lines; "
                    "quatrain rhyme schemes need 4 "
                    "(pass non_quatrains='skip' to leave such poems out)"
                )
            skipped += 1
            continue
        quatrains.append(poem)
    found = []
    starts = range(0, len(quatrains), _BATCH)
    for start in tqdm(starts, desc=f"rhyme schemes ({name})", disable=not show_progress):
        batch = quatrains[start : start + _BATCH]
        schemes = rhyme_schemes(batch, **options)
        found += [(scheme, is_repetition(poem, scheme)) for poem, scheme in zip(batch, schemes)]
    return found, skipped


def _distribution(schemes: list[tuple[str, bool]]) -> dict[str, float]:
    counts = Counter(scheme for scheme, _ in schemes)
    return {label: counts[label] / len(schemes) for label in QUATRAIN_SCHEMES}


def scheme_distribution(
    poems: Sequence[str],
    *,
    non_quatrains: str = "skip",
    method: str | None = None,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
    show_progress: bool = False,
) -> dict[str, float]:
    """Share of each of the 15 quatrain schemes among the quatrains of ``poems`` (zeros kept).

    Poems without exactly 4 non-empty lines are skipped (or rejected with
    ``non_quatrains="error"``). ``language`` (``"en"``, ``"de"``) picks the rhyme rules.
    Raises ValueError when no poem is a quatrain.
    """
    reading = SchemeReading(non_quatrains, method, link_repetitions, weak, near, historical)
    schemes, _ = _quatrain_schemes(poems, "poems", reading, language, show_progress)
    return _distribution(schemes)


def smoothed(distribution: Sequence[float], smoothing: float) -> list[float]:
    """Add ``smoothing`` to every probability and renormalize to sum 1."""
    total = sum(distribution) + smoothing * len(distribution)
    return [(p + smoothing) / total for p in distribution]


def entropy(p: Sequence[float], *, base: float = 2) -> float:
    """Shannon entropy of ``p`` in log base ``base`` (0 log 0 = 0)."""
    return -sum(x * math.log(x, base) for x in p if x > 0)


def kl_divergence(p: Sequence[float], q: Sequence[float], *, base: float = 2) -> float:
    """KL(p || q) = sum p log(p / q), clamped at 0 against rounding; ``inf`` when q is 0 where
    p is not."""
    total = 0.0
    for x, y in zip(p, q):
        if x > 0:
            if y <= 0:
                return math.inf
            total += x * math.log(x / y, base)
    return max(total, 0.0)


def _check_options(base: float, smoothing: float) -> None:
    if not is_number(base):
        raise InvalidTypeError(f"base must be a number, got {type(base).__name__}")
    if not (base > 0 and base != 1 and math.isfinite(base)):
        raise InvalidValueError(f"base must be positive, finite and not 1, got {base}")
    if not is_number(smoothing):
        raise InvalidTypeError(f"smoothing must be a number, got {type(smoothing).__name__}")
    if not (smoothing >= 0 and math.isfinite(smoothing)):
        raise InvalidValueError(f"smoothing must be >= 0 and finite, got {smoothing}")


def _rhyme_shares(schemes: list[tuple[str, bool]]) -> tuple[float, float]:
    """(real rhymes, repetitions): the reference code's 1 - P(ABCD) - P(rep) and P(rep)."""
    repetitions = sum(repetition for _, repetition in schemes) / len(schemes)
    no_rhyme = sum(scheme == _NO_RHYME for scheme, _ in schemes) / len(schemes)
    return 1.0 - no_rhyme - repetitions, repetitions


@typed_options
def rhyme_divergence(
    predictions: Sequence[str],
    references: Sequence[str],
    *,
    base: float = 2,
    # tiny on purpose: KL stays finite when Q lacks a scheme P has, yet no share moves by more
    # than about 15 x 1e-9 (the renormalisation over the 15 schemes)
    smoothing: float = 1e-9,
    language: str = "en",
    show_progress: bool = False,
    **options: Any,
) -> dict:
    """Compare the rhyme-scheme distribution of ``predictions`` (P) with ``references`` (Q).

    ``language`` (``"en"``, ``"de"``) picks the rhyme rules both sides are read with (German:
    rhyme from the spelling, see :mod:`poetic_eval.rhyme`). ``options``: the fields of
    :class:`SchemeReading` by keyword (``non_quatrains``, ``method``, ``link_repetitions``,
    ``weak``, ``near``, ``historical``).

    Returns ``rhyme_entropy`` H(P), ``reference_rhyme_entropy`` H(Q), ``rhyme_kl`` KL(P || Q),
    ``rhyme_cross_entropy`` H(P, Q) = H(P) + KL(P || Q) (all on the smoothed distributions, in
    log base ``base``),
    ``real_rhymes`` and ``repetitions`` of the predictions (and ``reference_`` ones),
    ``scheme_distribution`` and ``reference_scheme_distribution`` (unsmoothed, all 15 labels),
    and the counts of quatrains used and of non-quatrains skipped on each side.
    """
    _check_options(base, smoothing)
    reading = options_from_keywords(SchemeReading, options, "rhyme_divergence")
    predicted, skipped_predictions = _quatrain_schemes(
        predictions, "predictions", reading, language, show_progress
    )
    reference, skipped_references = _quatrain_schemes(
        references, "references", reading, language, show_progress
    )
    p_raw, q_raw = _distribution(predicted), _distribution(reference)
    p = smoothed(list(p_raw.values()), smoothing)
    q = smoothed(list(q_raw.values()), smoothing)
    h_p, kl = entropy(p, base=base), kl_divergence(p, q, base=base)
    real, repeated = _rhyme_shares(predicted)
    reference_real, reference_repeated = _rhyme_shares(reference)
    return {
        "rhyme_entropy": h_p,
        "reference_rhyme_entropy": entropy(q, base=base),
        "rhyme_kl": kl,
        "rhyme_cross_entropy": h_p + kl,
        "real_rhymes": real,
        "repetitions": repeated,
        "reference_real_rhymes": reference_real,
        "reference_repetitions": reference_repeated,
        "scheme_distribution": p_raw,
        "reference_scheme_distribution": q_raw,
        "quatrain_predictions": len(predicted),
        "quatrain_references": len(reference),
        "non_quatrain_predictions": skipped_predictions,
        "non_quatrain_references": skipped_references,
    }
