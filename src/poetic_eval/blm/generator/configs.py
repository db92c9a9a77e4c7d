"""The six BLM configs, their sizes and splits: records ready for the hub writer.

=========  ===========  ============  =================================================
config     task         lexical type  splits (defaults, as in BLM-It)
=========  ===========  ============  =================================================
agr_ii     AgrI         II            2,010 items: 10 drawn for ``train`` (few-shot),
agr_iii    AgrI         III           the rest ``test``
caus_ii    CausI        II            80 items per causative verb; all items of 1 verb
caus_iii   CausI        III           are ``train``, the other verbs' are ``test``
od_ii      OdI          II            same, object-drop verbs
od_iii     OdI          III
=========  ===========  ============  =================================================

Everything is drawn from ``random.Random`` seeded by the config name and the seed, so a config
is the same whatever other configs are built. Within each split the correct answers are spread
evenly over A-H (each letter ``n // 8`` or ``n // 8 + 1`` times); items repeat no context.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...checks import require_choice, typed_options
from ...errors import InvalidValueError
from ..text_forms import TEXT_FORMATS
from .agreement_counter import balanced_frames
from .agreement_matrices import AgreementGenerator
from .alternation_matrices import AlternationGenerator
from .lexicon import Lexicon
from .lexicon_loading import load_lexicon
from .matrices import Matrix, balanced_positions, matrix_record

CONFIGS: dict[str, tuple[str, str]] = {
    "agr_ii": ("agreement", "II"),
    "agr_iii": ("agreement", "III"),
    "caus_ii": ("causative", "II"),
    "caus_iii": ("causative", "III"),
    "od_ii": ("object_drop", "II"),
    "od_iii": ("object_drop", "III"),
}
SPLITS = ("train", "test")
MAX_ATTEMPTS_PER_ITEM = 50


@dataclass(frozen=True)
class BlmSizes:
    """How many items to make (defaults: the BLM-It release's sizes)."""

    agreement_items: int = 2010
    agreement_few_shot: int = 10
    items_per_verb: int = 80
    few_shot_verbs: int = 1
    max_verbs: int | None = None  # None: every verb of the class in the lexicon

    def __post_init__(self) -> None:
        for name in ("agreement_items", "items_per_verb", "few_shot_verbs"):
            if getattr(self, name) < 1:
                raise InvalidValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.agreement_few_shot < self.agreement_items:
            raise InvalidValueError(
                f"agreement_few_shot must be in [0, agreement_items), got {self.agreement_few_shot}"
            )
        if self.max_verbs is not None and self.max_verbs <= self.few_shot_verbs:
            raise InvalidValueError(
                f"max_verbs ({self.max_verbs}) must exceed few_shot_verbs ({self.few_shot_verbs})"
                " so that the test split has a verb"
            )


@typed_options
def generate_config(
    name: str,
    seed: int,
    sizes: BlmSizes | None = None,
    lexicon: Lexicon | None = None,
    progress: Callable[[int], None] | None = None,
    text_format: str = "natural",
) -> dict[str, list[dict[str, Any]]]:
    """The records of config ``name`` by split (``train``, ``test``).

    ``progress`` is called with the number of items made since its last call; ``text_format``
    is ``"natural"`` (Italian as written) or ``"release"`` (tokenised as the BLM-It release:
    ``"l' avvocato è partito ."``); the same seed gives the same items in both.
    """
    require_choice(text_format, TEXT_FORMATS, "text format")
    require_choice(name, CONFIGS, "BLM config")
    task, lexical_type = CONFIGS[name]
    sizes = sizes or BlmSizes()
    lexicon = lexicon or load_lexicon()
    rng = random.Random(f"blm:{name}:{seed}")
    with _garbage_collection_paused():
        if task == "agreement":
            matrices = _agreement_matrices(lexicon, lexical_type, sizes, rng, progress)
        else:
            # one few-shot verb for both types of a task, as in BLM-It
            few_shot_rng = random.Random(f"blm:{task}:few-shot:{seed}")
            matrices = _alternation_matrices(
                lexicon, task, lexical_type, sizes, (rng, few_shot_rng), progress
            )
        records = {}
        first_id = 1
        for split in SPLITS:
            chosen = matrices[split]
            positions = balanced_positions(len(chosen), rng)
            records[split] = [
                matrix_record(first_id + index, matrix, position, rng, text_format)
                for index, (matrix, position) in enumerate(zip(chosen, positions))
            ]
            first_id += len(chosen)
    return records


@contextmanager
def _garbage_collection_paused():
    """The generator allocates millions of small acyclic objects; Python's cyclic collector
    would rescan the growing heap over and over (about 40% of the run time) for nothing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _agreement_matrices(lexicon, lexical_type, sizes, rng, progress) -> dict[str, list[Matrix]]:
    generator = AgreementGenerator(lexicon)
    frames = balanced_frames(sizes.agreement_items, rng)
    made = _unique_matrices(
        lambda index: generator.matrix(rng, lexical_type, frames[index]),
        sizes.agreement_items,
        "AgrI",
        progress,
    )
    few_shot = set(rng.sample(range(len(made)), sizes.agreement_few_shot))
    return {
        "train": [m for i, m in enumerate(made) if i in few_shot],
        "test": [m for i, m in enumerate(made) if i not in few_shot],
    }


def _alternation_matrices(
    lexicon, alternation, lexical_type, sizes, rngs, progress
) -> dict[str, list[Matrix]]:
    rng, few_shot_rng = rngs
    generator = AlternationGenerator(lexicon, alternation)
    verbs = list(generator.verbs)
    if sizes.max_verbs is not None:
        verbs = verbs[: sizes.max_verbs]
    if len(verbs) <= sizes.few_shot_verbs:
        raise InvalidValueError(
            f"{alternation}: {len(verbs)} verbs in the lexicon, need more than "
            f"{sizes.few_shot_verbs} (the few-shot verbs) so that test has a verb"
        )
    few_shot = set(few_shot_rng.sample([verb.lemma for verb in verbs], sizes.few_shot_verbs))
    # a test item's type III context takes its verbs from the test verbs only, and from the
    # routine verbs, which are no item verb (no train verb either)
    test_verbs = [verb for verb in verbs if verb.lemma not in few_shot]
    splits: dict[str, list[Matrix]] = {"train": [], "test": []}
    for verb in verbs:
        pool = [*(verbs if verb.lemma in few_shot else test_verbs), *generator.context_only]
        made = _unique_matrices(
            lambda index, verb=verb, pool=pool: generator.matrix(verb, rng, lexical_type, pool),
            sizes.items_per_verb,
            f"{alternation} verb {verb.lemma!r}",
            progress,
        )
        splits["train" if verb.lemma in few_shot else "test"].extend(made)
    return splits


def _unique_matrices(make, count: int, what: str, progress) -> list[Matrix]:
    """``count`` well-formed matrices whose contexts all differ; ``make(i)`` makes the i-th."""
    matrices, seen = [], set()
    attempts = 0
    while len(matrices) < count:
        attempts += 1
        if attempts > count * MAX_ATTEMPTS_PER_ITEM:
            raise InvalidValueError(
                f"{what}: only {len(matrices)} distinct items of {count} requested; "
                "the lexicon is too small for this many"
            )
        matrix = make(len(matrices))
        key = matrix.context_key()
        if key in seen or not matrix.is_well_formed():
            continue
        seen.add(key)
        matrices.append(matrix)
        if progress is not None:
            progress(1)
    return matrices
