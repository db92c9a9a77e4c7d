"""The whole QuaTrain preparation for one language: both de-duplication stages, the split, the
pseudo-sonnets, and the counts after each stage.

    from poetic_eval.quatrain import read_quatrain_source, prepare_language
    corpus = read_quatrain_source("QuaTrain-en.json", show_progress=True)
    prepared = prepare_language(corpus, "en", seed=0)
    prepared.counts()      # records, after_sequential, after_overlap_removal, train, dev, ...
    corpus.lines(prepared.train[0])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from tqdm.auto import tqdm

from ..checks import typed_options
from ..errors import InvalidValueError
from .corpus import QuatrainCorpus
from .overlap import default_p, remove_overlaps
from .sequential import run_positions
from .sonnets import PseudoSonnets, draw_pseudo_sonnets
from .splitting import DEV_SHARE, dev_size, split_train_dev

#: Streams of the sonnet draws, so that train and dev draws differ under one seed.
SONNET_STREAMS = {"train": 0, "dev": 1}


@dataclass(frozen=True)
class Deduplication:
    """Both stages for one language; row indices are into the corpus, ascending."""

    language: str
    p: int
    records: np.ndarray
    runs: int
    after_sequential: np.ndarray
    kept: np.ndarray
    iterations: int
    seconds: dict[str, float] = field(default_factory=dict, compare=False)  # per stage


@typed_options
def deduplicate(
    corpus: QuatrainCorpus, language: str, *, p: int | None = None, show_progress: bool = False
) -> Deduplication:
    """The spec's two stages on the records of ``language``, in source order.

    ``p`` defaults to the paper's (10 for English, 20 for German). Raises ValueError when the
    language is not in the corpus (listing those present).
    """
    p = default_p(language) if p is None else p
    records = corpus.records_of(language)
    start = time.perf_counter()
    with tqdm(
        total=records.size,
        desc=f"sequential pass ({language})",
        unit=" records",
        disable=not show_progress,
    ) as bar:
        positions = run_positions(corpus.line_ids[records])
        bar.update(records.size)
    # the spec's stage 1 (shared/specs/datasets.md): windows 0, 4, 8, ... of each run are the
    # non-overlapping 4-line windows of a stanza
    after_sequential = records[positions % 4 == 0]
    middle = time.perf_counter()
    removal = remove_overlaps(
        corpus.line_ids[after_sequential],
        p,
        show_progress=show_progress,
        description=f"overlap removal ({language}, p={p})",
    )
    seconds = {
        "sequential pass": middle - start,
        "overlap removal": time.perf_counter() - middle,
    }
    return Deduplication(
        language=language,
        p=p,
        records=records,
        runs=int(np.count_nonzero(positions == 0)),
        after_sequential=after_sequential,
        kept=after_sequential[removal.kept],
        iterations=removal.iterations,
        seconds=seconds,
    )


@dataclass(frozen=True)
class PreparedLanguage:
    """A language ready to publish: de-duplicated quatrains split 9:1, and sonnets per split.

    ``train`` / ``dev`` are corpus row indices (source order); ``sonnets[split]`` indexes into
    that split's quatrains.
    """

    deduplication: Deduplication
    train: np.ndarray
    dev: np.ndarray
    sonnets: dict[str, PseudoSonnets]
    couplets: str
    sonnet_fraction: float

    @property
    def language(self) -> str:
        return self.deduplication.language

    def split(self, name: str) -> np.ndarray:
        return {"train": self.train, "dev": self.dev}[name]

    def counts(self) -> dict[str, int]:
        """Counts after each stage (the card's table)."""
        dedup = self.deduplication
        return {
            "records": int(dedup.records.size),
            "runs": dedup.runs,
            "after_sequential": int(dedup.after_sequential.size),
            "after_overlap_removal": int(dedup.kept.size),
            "iterations": dedup.iterations,
            "train": int(self.train.size),
            "dev": int(self.dev.size),
            "sonnets_train": len(self.sonnets["train"]),
            "sonnets_dev": len(self.sonnets["dev"]),
        }


@typed_options
def prepare_language(
    corpus: QuatrainCorpus,
    language: str,
    *,
    seed: int,
    p: int | None = None,
    couplets: str = "split",
    sonnet_fraction: float = 1.0,
    dev_share: float = DEV_SHARE,
    show_progress: bool = False,
) -> PreparedLanguage:
    """De-duplicate, split 9:1 with ``seed`` and draw the pseudo-sonnets of each split."""
    dedup = deduplicate(corpus, language, p=p, show_progress=show_progress)
    kept = dedup.kept
    if kept.size == 0:
        raise InvalidValueError(
            f"{corpus.where()}: no {language} quatrain is left after de-duplication "
            f"({dedup.records.size:,} records, {dedup.after_sequential.size:,} after the "
            "sequential pass)"
        )
    parts = split_train_dev(kept.size, seed, dev_share)
    if parts.train.size == 0 or parts.dev.size == 0:
        raise InvalidValueError(
            f"{corpus.where()}: only {kept.size} {language} quatrains are left after "
            f"de-duplication; a train/dev split with share {dev_share} needs at least "
            f"{_minimum_for_split(dev_share)}"
        )
    sonnets = {
        name: draw_pseudo_sonnets(
            rows.size,
            seed,
            stream=SONNET_STREAMS[name],
            couplets=couplets,
            fraction=sonnet_fraction,
        )
        for name, rows in (("train", parts.train), ("dev", parts.dev))
    }
    return PreparedLanguage(
        deduplication=dedup,
        train=kept[parts.train],
        dev=kept[parts.dev],
        sonnets=sonnets,
        couplets=couplets,
        sonnet_fraction=sonnet_fraction,
    )


def _minimum_for_split(dev_share: float) -> int:
    n = 2
    # the smallest corpus whose split leaves both sides non-empty, for the error message
    while not 0 < dev_size(n, dev_share) < n:
        n += 1
    return n
