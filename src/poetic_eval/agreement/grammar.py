"""Subject-verb agreement minimal pairs generated from the project's own grammar and lexicon.

Families (one dataset config each) are records in two tables: Marvin & Linzen (2018) templates
(:mod:`.marvin_linzen`) and BLiMP (Warstadt et al. 2020) agreement paradigms (:mod:`.blimp`).

Every pair differs in exactly one token: the agreeing verb (the embedded verb in
``obj_rel_within_*``, where the label refers to the embedded subject) or, in ``*_2``, the
subject noun. The label is the number of the varied verb's form in the good sentence (in
``*_2``: of the fixed verb). Sentences are capitalised and end with a period.

Sampling: each (family, case, variant) has a fixed list of slots; the combinations form a
mixed-radix index space, from which distinct indices are drawn with ``random.Random`` seeded by
``"<seed>:<family>:<variant>"``, so one config's rows do not depend on which others are built.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ..checks import require_choice, require_positive_int, typed_options
from ..errors import InvalidTypeError
from .agreement_pairs import LABEL_NAMES, AgreementPair
from .blimp import BLIMP
from .lexicon import AgreementLexicon, load_lexicon
from .marvin_linzen import MARVIN_LINZEN
from .templates import Family, PhraseInventory, Variant

DEFAULT_PAIRS_PER_FAMILY = 1000

MARVIN_LINZEN_FAMILIES: tuple[str, ...] = tuple(MARVIN_LINZEN)
BLIMP_FAMILIES: tuple[str, ...] = tuple(BLIMP)
#: Every family by config name: Marvin & Linzen's, then BLiMP's.
FAMILY_RECORDS: dict[str, Family] = {**MARVIN_LINZEN, **BLIMP}
FAMILIES: tuple[str, ...] = tuple(FAMILY_RECORDS)
FAMILY_DESCRIPTIONS = {name: family.description for name, family in FAMILY_RECORDS.items()}


@typed_options
def generate_pairs(
    family: str,
    *,
    n_pairs: int = DEFAULT_PAIRS_PER_FAMILY,
    seed: int = 0,
    lexicon: AgreementLexicon | None = None,
) -> list[AgreementPair]:
    """``n_pairs`` distinct minimal pairs of one family: half per label, even over its cases.

    Fewer come back when the grammar cannot make that many distinct pairs for a case.
    Deterministic given (family, n_pairs, seed, lexicon). Rows are shuffled across cases.
    """
    require_choice(family, FAMILIES, "agreement family")
    require_positive_int(n_pairs, "n_pairs")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidTypeError(f"seed must be an integer, got {type(seed).__name__}")
    inventory = _inventory(lexicon if lexicon is not None else load_lexicon())
    variants = FAMILY_RECORDS[family].variants(inventory)
    quotas = _quotas(variants, n_pairs)
    pairs: list[AgreementPair] = []
    for number, (variant, quota) in enumerate(zip(variants, quotas)):
        rng = random.Random(f"{seed}:{family}:{number}")
        pairs.extend(_sample_variant(variant, family, quota, rng))
    random.Random(f"{seed}:{family}:order").shuffle(pairs)
    return pairs


def generate_all_pairs(
    families: Sequence[str] = FAMILIES,
    *,
    n_pairs: int = DEFAULT_PAIRS_PER_FAMILY,
    seed: int = 0,
    lexicon: AgreementLexicon | None = None,
) -> dict[str, list[AgreementPair]]:
    """:func:`generate_pairs` for each family, by family name (in the order given)."""
    lexicon = lexicon if lexicon is not None else load_lexicon()
    return {
        family: generate_pairs(family, n_pairs=n_pairs, seed=seed, lexicon=lexicon)
        for family in families
    }


def family_capacity(family: str, lexicon: AgreementLexicon | None = None) -> int:
    """Upper bound on distinct pairs of a family: the size of its slot spaces summed."""
    require_choice(family, FAMILIES, "agreement family")
    inventory = _inventory(lexicon if lexicon is not None else load_lexicon())
    return sum(variant.size for variant in FAMILY_RECORDS[family].variants(inventory))


def sentence(tokens: Sequence[str]) -> str:
    """Join tokens, capitalise the first letter and end with a period."""
    text = " ".join(tokens)
    return text[:1].upper() + text[1:] + "."


def _split_evenly(total: int, parts: int) -> list[int]:
    share, extra = divmod(total, parts)
    return [share + (1 if index < extra else 0) for index in range(parts)]


def _quotas(variants: Sequence[Variant], n_pairs: int) -> list[int]:
    """Half the pairs per label, then an even share per variant of that label."""
    per_label = dict(zip(LABEL_NAMES, _split_evenly(n_pairs, len(LABEL_NAMES))))
    quotas = [0] * len(variants)
    for label in LABEL_NAMES:
        indices = [i for i, variant in enumerate(variants) if variant.label == label]
        for index, quota in zip(indices, _split_evenly(per_label[label], len(indices))):
            quotas[index] = quota
    return quotas


def _sample_variant(
    variant: Variant, family: str, quota: int, rng: random.Random
) -> list[AgreementPair]:
    pairs: list[AgreementPair] = []
    if quota <= 0:  # fewer pairs requested than the family has cases
        return pairs
    seen: set[tuple[str, str]] = set()
    for index in _distinct_indices(variant.size, quota, rng):
        rendered = variant.render(variant.choice(index))
        if rendered is None:
            continue
        good, bad = sentence(rendered[0]), sentence(rendered[1])
        if (good, bad) in seen:
            continue
        seen.add((good, bad))
        pairs.append(AgreementPair(good, bad, variant.label, family, variant.case))
        if len(pairs) == quota:
            break
    return pairs


def _distinct_indices(total: int, wanted: int, rng: random.Random) -> Iterator[int]:
    """Distinct random indices in range(total): all of them when the space is small."""
    if total <= 4 * wanted:
        order = list(range(total))
        rng.shuffle(order)
        yield from order
        return
    seen: set[int] = set()
    # some renders are rejected (a noun repeated in two slots); 4x oversampling covers it
    for _ in range(4 * wanted + 100):
        index = rng.randrange(total)
        if index not in seen:
            seen.add(index)
            yield index


@lru_cache(maxsize=4)
def _inventory(lexicon: AgreementLexicon) -> PhraseInventory:
    # the verb-phrase lists are built once per lexicon
    return PhraseInventory(lexicon)
