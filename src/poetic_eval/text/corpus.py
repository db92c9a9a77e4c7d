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

Plain lists work as before and keep nothing. A corpus is immutable (a tuple); results kept on it
must be treated as read-only by the code that reads them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

Derived = TypeVar("Derived")


class PoemCorpus(tuple):
    """Validated poems (non-blank strings) that keep what is derived from them.

    Args:
        poems: the poems; checked as :func:`poetic_eval.text.require_texts` checks texts.
        name: the argument name used in error messages.
    """

    def __new__(cls, poems: Iterable[str], name: str = "references"):
        if isinstance(poems, PoemCorpus):
            return poems
        from .poem_inputs import require_texts

        return super().__new__(cls, require_texts(poems, name))

    def __init__(self, poems: Iterable[str], name: str = "references") -> None:
        if not hasattr(self, "_derived"):
            self._derived: dict[Hashable, Any] = {}
            self._lock = threading.Lock()

    def derived(self, key: Hashable, compute: Callable[[], Derived]) -> Derived:
        """``compute()`` the first time ``key`` is asked for, the kept result afterwards."""
        with self._lock:
            if key in self._derived:
                return self._derived[key]
        value = compute()  # outside the lock: computations may derive other keys
        with self._lock:
            return self._derived.setdefault(key, value)

    def __reduce__(self):  # pickled as its poems: derived results stay in this process
        return (PoemCorpus, (tuple(self),))

    def __repr__(self) -> str:
        return f"PoemCorpus({len(self)} poems, {len(self._derived)} derived results kept)"


def derived(poems: Any, key: Hashable, compute: Callable[[], Derived]) -> Derived:
    """``poems.derived(key, compute)`` for a :class:`PoemCorpus`, else just ``compute()``."""
    if isinstance(poems, PoemCorpus):
        return poems.derived(key, compute)
    return compute()
