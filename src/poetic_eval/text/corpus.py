"""A corpus of poems whose derived data is computed once: the reference side of repeated metrics.

The diversity metrics compare generated poems with a human corpus, and much of their work
depends on the corpus alone: memorization's training units, the corpus's lengths, its rhyme
schemes, its lexical scores, its sentence embeddings. A training loop that evaluates every N
steps against the same corpus should pay for that once. Pass a :class:`PoemCorpus` where a
list of reference poems is expected: every core function that derives something from it keeps
the result on the corpus (keyed by the function and the options it depends on) and reuses it::

    references = PoemCorpus(human_poems)
    for step in range(...):
        poetic_diversity(generate(), references)   # reference-side work on the first call only

Results that are costly to derive again (rhyme schemes, lengths, lexical scores; the sentence
embeddings have their own cache) are also kept on disk, keyed by the corpus content, the
options and the version of the code, so that a later process reads them back (see
:class:`StoredForm`). Plain lists work as before and keep nothing. A corpus is immutable (a
tuple); results kept on it must be treated as read-only by the code that reads them.

A key names everything a result depends on besides the poems, the poems' language
(:data:`poetic_eval.text.LANGUAGES`) included wherever the result reads words or sound: rhyme
schemes, lengths and lexical scores are keyed ``(kind, language, options...)``, so a corpus
read as English and again as German keeps both, in memory and on disk (the disk key hashes
the whole key). Results that read only characters (memorization's units) or that the encoder
alone decides (sentence embeddings) do not depend on the language.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..checks.validation import typed_options
from ..files.digests import texts_sha256
from .checked_texts import CheckedTexts

Derived = TypeVar("Derived")

#: Smaller corpora are quick to derive again: their results are not written to disk.
DISK_CACHE_MIN_POEMS = 1000


@dataclass(frozen=True)
class StoredForm:
    """How a derived result is kept on disk: as named arrays (no pickles), under ``kind``,
    valid while ``version`` (the code that computes it) is unchanged."""

    kind: str
    version: str
    encode: Callable[[Any], dict[str, np.ndarray]]
    decode: Callable[[dict[str, np.ndarray]], Any]


class PoemCorpus(CheckedTexts):
    """Validated poems (non-blank strings) that keep what is derived from them.

    Args:
        poems: the poems; checked as :func:`poetic_eval.text.require_texts` checks texts.
        name: the argument name used in error messages.
        cache_dir: where results with a :class:`StoredForm` are kept on disk between
            processes (default :func:`poetic_eval.text.cache_root`), keyed by the corpus
            content, the options and the code's version; None with ``disk_cache=False``
            keeps them in this process only. Corpora of fewer than
            :data:`DISK_CACHE_MIN_POEMS` poems are never written.
    """

    @typed_options  # the options are checked before the poems, as in __init__
    def __new__(
        cls,
        poems: Iterable[str],
        name: str = "references",
        *,
        cache_dir: str | Path | None = None,
        disk_cache: bool = True,
    ):
        if isinstance(poems, PoemCorpus):
            return poems
        from .poem_inputs import require_texts

        return super().__new__(cls, require_texts(poems, name))

    @typed_options
    def __init__(
        self,
        poems: Iterable[str],
        name: str = "references",
        *,
        cache_dir: str | Path | None = None,
        disk_cache: bool = True,
    ) -> None:
        if not hasattr(self, "_derived"):
            self._derived: dict[Hashable, Any] = {}
            self._lock = threading.Lock()
            self._fingerprint: str | None = None
            self._disk = disk_cache and len(self) >= DISK_CACHE_MIN_POEMS
            self._cache_dir = cache_dir

    def fingerprint(self) -> str:
        """SHA-256 of the poems, in order (length-prefixed UTF-8); computed once."""
        if self._fingerprint is None:
            self._fingerprint = texts_sha256(self)
        return self._fingerprint

    def derived(
        self, key: Hashable, compute: Callable[[], Derived], stored: StoredForm | None = None
    ) -> Derived:
        """``compute()`` the first time ``key`` is asked for, the kept result afterwards;
        with a ``stored`` form, also read from and written to the disk cache."""
        with self._lock:
            if key in self._derived:
                return self._derived[key]
        if stored is not None and self._disk:
            value = self._from_disk(key, compute, stored)
        else:
            value = compute()  # outside the lock: computations may derive other keys
        with self._lock:  # two threads may both compute: the first stored result wins
            return self._derived.setdefault(key, value)

    def _from_disk(self, key: Hashable, compute: Callable[[], Derived], stored: StoredForm):
        from ..files.array_cache import ArrayCache

        cache = ArrayCache("corpus", self._cache_dir)
        # the poems' content, the stored form (its version changes when the arrays change
        # meaning) and the in-memory key (its options and language); NUL cannot occur in them
        text = "\0".join((self.fingerprint(), stored.kind, stored.version, repr(key)))
        disk_key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        arrays = cache.load(disk_key, stored.kind)
        if arrays is not None:
            try:
                return stored.decode(arrays)
            except (KeyError, ValueError) as error:  # sound file, arrays that do not fit together
                import warnings

                from ..files.array_cache import CacheFileWarning

                warnings.warn(
                    f"{stored.kind} cache file for this corpus does not decode ({error}); "
                    "it is rebuilt now",
                    CacheFileWarning,
                    stacklevel=4,
                )
        value = compute()
        cache.save(disk_key, stored.kind, stored.encode(value))
        return value

    def __reduce__(self):  # pickled as its poems: derived results stay in this process
        return (PoemCorpus, (tuple(self),))

    def __repr__(self) -> str:
        return f"PoemCorpus({len(self)} poems, {len(self._derived)} derived results kept)"


def derived(
    poems: Any, key: Hashable, compute: Callable[[], Derived], stored: StoredForm | None = None
) -> Derived:
    """``poems.derived(key, compute, stored)`` for a :class:`PoemCorpus`, else ``compute()``."""
    if isinstance(poems, PoemCorpus):
        return poems.derived(key, compute, stored)
    return compute()
