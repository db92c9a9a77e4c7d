"""Semantic similarity of poems: maximum cosine similarity within a sample and across corpora.

Each poem is embedded as one sentence (its lines joined by single spaces) with a
sentence-transformers encoder, or as the mean of its lines' or chunks' vectors
(:mod:`.poem_embeddings`), and the embeddings are L2-normalized so that a dot product is
the cosine similarity (clipped to [-1, 1] against rounding). For every generated poem we
keep the similarity of its nearest neighbour: among the other generated poems (*within*,
self excluded) and among the human poems (*across*). The scores are the mean of those
maxima, as in the paper, plus their standard deviation (ddof=0), minimum and maximum.

Scale: nearest neighbours are found with blocked matrix products, so memory stays bounded
(``block_size`` x ``block_size`` floats at a time) for 1000 x 200,000 poems and beyond. The
human corpus is encoded once per (encoder, corpus content): its embeddings, and its own
within-corpus maxima, are cached on disk (see :func:`poetic_eval.files.cache_root`), so a
training loop that evaluates every N steps pays only for its new poems.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..checks import require_positive_int, typed_options
from ..checks.validation import options_from_keywords
from ..errors import InvalidValueError
from ..files import texts_sha256
from ..text import derived, lines, require_texts, resolve_language
from .embedding_cache import EmbeddingCache
from .encoders import encoder_identity, load_sentence_encoder, warn_if_english_only
from .nearest_neighbours import nearest_neighbours
from .poem_embeddings import check_encoding, encode_poems, poem_sentence

# Bump when the text given to the encoder or the stored arrays change meaning.
_CACHE_FORMAT = "poem-lines-joined-by-space/l2-normalized/float32/v1"


def corpus_fingerprint(poems: Sequence[str], encoding: str = "poem") -> str:
    """SHA-256 of the texts an encoder sees for ``poems`` under ``encoding``, in order
    (length-prefixed): the poem as one sentence, or for ``"lines"``/``"chunks"`` its lines,
    whose breaks decide the vectors."""
    return texts_sha256(
        poem_sentence(poem) if encoding == "poem" else "\n".join(lines(poem)) for poem in poems
    )


def _cache_key(encoder: Any, poems: Sequence[str], encoding: str = "poem") -> str | None:
    # the key holds what the stored arrays mean (format), which weights made them (identity) and
    # the texts they embed (fingerprint); an encoder that cannot be identified is never cached
    identity = encoder_identity(encoder)
    if identity is None:
        return None
    # other encodings extend the format: their pooled vectors never share an entry with a poem's
    form = _CACHE_FORMAT if encoding == "poem" else f"{_CACHE_FORMAT}/{encoding}"
    # NUL as separator: the format string and the hex digests never hold one
    text = "\0".join((form, identity, corpus_fingerprint(poems, encoding)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _summary(name: str, values: np.ndarray) -> dict[str, float]:
    values = values.astype(np.float64)
    return {
        name: float(values.mean()),
        f"{name}_std": float(values.std()),
        f"{name}_min": float(values.min()),
        f"{name}_max": float(values.max()),
    }


def _averaged_summary(name: str, samples: Sequence[np.ndarray]) -> dict[str, float]:
    """Each summary statistic computed per sample, then averaged over the samples."""
    summaries = [_summary(name, values) for values in samples]
    return {key: float(np.mean([s[key] for s in summaries])) for key in summaries[0]}


def _cosines(values: np.ndarray) -> np.ndarray:
    """Dot products of unit vectors as cosines: float32 rounding can give 1.0000004."""
    return np.clip(values, -1.0, 1.0)


def max_similarity_from_embeddings(
    prediction_embeddings: np.ndarray,
    reference_embeddings: np.ndarray | None = None,
    *,
    reference_within_values: np.ndarray | Sequence[np.ndarray] | None = None,
    block_size: int = 4096,
    return_values: bool = False,
    show_progress: bool = False,
) -> dict[str, Any]:
    """The scores of :func:`max_similarity` from L2-normalized embeddings.

    ``reference_within_values`` are the references' own within-corpus maxima, when known
    (e.g. from the cache), reported as ``reference_within_max_sim``; a list of arrays (one
    per human sample) reports the average over the samples of each statistic.
    """
    if prediction_embeddings.shape[0] < 2:
        raise InvalidValueError(
            "within-sample similarity needs at least 2 predictions, got "
            f"{prediction_embeddings.shape[0]}"
        )
    within, within_index = nearest_neighbours(
        prediction_embeddings, block_size=block_size, show_progress=show_progress
    )
    within = _cosines(within)
    result: dict[str, Any] = _summary("within_max_sim", within)
    if return_values:
        result["within_max_sim_values"] = within.tolist()
        result["within_nearest_prediction"] = within_index.tolist()
    if reference_embeddings is not None:
        across, across_index = nearest_neighbours(
            prediction_embeddings,
            reference_embeddings,
            block_size=block_size,
            show_progress=show_progress,
        )
        across = _cosines(across)
        result.update(_summary("across_max_sim", across))
        if return_values:
            result["across_max_sim_values"] = across.tolist()
            result["across_nearest_reference"] = across_index.tolist()
    if reference_within_values is not None:
        samples = (
            [reference_within_values]
            if isinstance(reference_within_values, np.ndarray)
            else list(reference_within_values)
        )
        samples = [_cosines(np.asarray(values)) for values in samples]
        result.update(_averaged_summary("reference_within_max_sim", samples))
        if return_values:
            result["reference_within_max_sim_values"] = np.concatenate(samples).tolist()
    return result


def embed_references(
    references: Sequence[str],
    encoder: Any,
    *,
    encoding: str = "poem",
    batch_size: int = 64,
    cache: bool = True,
    cache_dir: str | Path | None = None,
    width: int | None = None,
    device: str | None = None,
    show_progress: bool = False,
) -> tuple[np.ndarray, str | None]:
    """Embeddings of the human corpus, from the disk cache when possible.

    A cache file that is corrupted, of another row count or ``width`` (the encoder's, when
    given), or holding NaN vectors is named in a warning and encoded again. ``device``: where
    the encoder runs. Returns the embeddings and the cache key (None when caching is off or
    the encoder has no known identity, see
    :func:`poetic_eval.diversity.encoders.encoder_identity`).
    """
    key = _cache_key(encoder, references, encoding) if cache else None
    store = EmbeddingCache(cache_dir)
    if key is not None:
        stored = store.load(key, "embeddings", len(references), width)
        if stored is not None:
            return stored, key
    embeddings = encode_poems(
        references,
        encoder,
        encoding=encoding,
        batch_size=batch_size,
        device=device,
        show_progress=show_progress,
        description="embedding the reference corpus",
    )
    if key is not None:
        store.save(key, "embeddings", embeddings)
    return embeddings, key


def reference_within_values(
    reference_embeddings: np.ndarray,
    *,
    cache_key: str | None = None,
    cache_dir: str | Path | None = None,
    block_size: int = 4096,
    show_progress: bool = False,
) -> np.ndarray:
    """Each reference's max cosine to another reference, cached under ``cache_key``."""
    store = EmbeddingCache(cache_dir)
    rows = reference_embeddings.shape[0]
    if cache_key is not None:
        stored = store.load(cache_key, "within-max", rows)
        if stored is not None:
            return stored
    if rows < 2:
        raise InvalidValueError(
            f"reference within-similarity needs at least 2 references, got {rows}"
        )
    values, _ = nearest_neighbours(
        reference_embeddings, block_size=block_size, show_progress=show_progress
    )
    if cache_key is not None:
        store.save(cache_key, "within-max", values)
    return values


@dataclass(frozen=True)
class SimilarityOptions:
    """How :func:`max_similarity` encodes and compares poems: its keyword options, one record
    so that the encoder, its batching and the reference corpus's cache travel together.

    ``model``: sentence encoder: None (bundled all-MiniLM-L6-v2), a sentence-transformers name
    or path, or an instance (see :func:`load_sentence_encoder`). ``device``: torch device the
    encoder runs on ("cpu", "cuda", "cuda:1", ...): a model loaded by name is loaded there, and
    an instance is asked to encode there. ``encoding``: how a poem becomes a vector: ``"poem"``
    (default, the paper's: the whole poem as one sentence, cut at the encoder's maximum length
    with a warning), ``"lines"`` or ``"chunks"`` (the mean of its lines' or length-fitting
    chunks' vectors; see :mod:`poetic_eval.diversity.poem_embeddings`). ``batch_size``:
    encoding batch size. ``reference_within``: also report ``reference_within_max_sim`` (each
    reference's max to another reference, over the whole corpus given: O(len(references)^2)
    work, cached). ``cache``: cache the references' embeddings and within-maxima on disk.
    ``cache_dir``: cache folder (default :func:`poetic_eval.files.cache_paths.cache_root`).
    ``block_size``: rows per block of the matrix products (memory ~ 4 * block_size^2 bytes).
    """

    model: Any = None
    device: str | None = None
    encoding: str = "poem"
    batch_size: int = 64
    reference_within: bool = True
    cache: bool = True
    cache_dir: str | Path | None = None
    block_size: int = 4096


@typed_options
def max_similarity(
    predictions: Sequence[str],
    references: Sequence[str] | None = None,
    *,
    reference_samples: Sequence[Sequence[int]] | None = None,
    return_values: bool = False,
    show_progress: bool = False,
    language: str = "en",
    **options: Any,
) -> dict[str, Any]:
    """Mean maximum cosine similarity within the generated poems and across to the human ones.

    ``predictions``: generated poems (lines separated by "\\n"); at least 2. ``references``:
    the human corpus, of any size (optional). ``reference_samples``: index lists into
    ``references``; when given, ``reference_within_max_sim`` (and its std/min/max) is computed
    inside each sample and averaged over the samples (the paper's protocol: 10 samples of the
    predictions' size) instead of over the whole corpus. ``return_values``: add the per-poem
    maxima (``*_values``) and nearest-neighbour indices. ``language``: the poems' language
    ("en", "de"); it changes no vector (the encoder and the text decide those, and key the
    caches); with "de" and the English-only default encoder, one warning names a multilingual
    model to pass. ``options``: the fields of :class:`SimilarityOptions` by keyword.

    Returns ``within_max_sim`` and, with references, ``across_max_sim`` and
    ``reference_within_max_sim``, each with ``_std``, ``_min`` and ``_max``: cosines in
    [-1, 1], higher = more similar = less diverse.
    """
    settings = options_from_keywords(SimilarityOptions, options, "max_similarity")
    predictions = require_texts(predictions, "predictions")
    if references is not None:
        references = require_texts(references, "references")
    elif reference_samples is not None:
        raise InvalidValueError(
            "reference_samples index into references, but no references were given"
        )
    require_positive_int(settings.batch_size, "batch_size")
    check_encoding(settings.encoding)
    warn_if_english_only(settings.model, resolve_language(language))
    encoder = load_sentence_encoder(settings.model, settings.device)
    prediction_embeddings = encode_poems(
        predictions,
        encoder,
        encoding=settings.encoding,
        batch_size=settings.batch_size,
        device=settings.device,
        show_progress=show_progress,
    )
    reference_embeddings = within_values = None
    if references is not None:
        reference_embeddings, within_values = _reference_side(
            references, encoder, settings, prediction_embeddings.shape[1], reference_samples,
            show_progress,
        )  # fmt: skip
    return max_similarity_from_embeddings(
        prediction_embeddings,
        reference_embeddings,
        reference_within_values=within_values,
        block_size=settings.block_size,
        return_values=return_values,
        show_progress=show_progress,
    )


def _reference_side(
    references: Sequence[str],
    encoder: Any,
    settings: SimilarityOptions,
    width: int,
    samples: Sequence[Sequence[int]] | None,
    show_progress: bool,
) -> tuple[np.ndarray, np.ndarray | list[np.ndarray] | None]:
    """The references' embeddings and, with ``settings.reference_within``, their own maxima."""
    embeddings, key = _corpus_embeddings(references, encoder, settings, width, show_progress)
    if not settings.reference_within:
        return embeddings, None
    within = _reference_within(
        references, embeddings, samples, (encoder, key), settings, show_progress
    )
    return embeddings, within


def _reference_within(
    references: Sequence[str],
    embeddings: np.ndarray,
    samples: Sequence[Sequence[int]] | None,
    encoder_and_key: tuple[Any, str | None],
    settings: SimilarityOptions,
    show_progress: bool,
) -> np.ndarray | list[np.ndarray]:
    """Each reference's maximum similarity to another reference: inside each sample when
    ``samples`` are given, else over the whole corpus (kept by a PoemCorpus per encoder
    object and cache setting, and cached on disk under the corpus's cache key)."""
    block_size = settings.block_size
    if samples is not None:
        return [
            nearest_neighbours(
                embeddings[_sample_rows(sample, len(references))], block_size=block_size
            )[0]
            for sample in samples
        ]
    encoder, cache_key = encoder_and_key
    kept = (
        "reference_within_max",
        id(encoder),
        settings.encoding,
        settings.cache,
        str(settings.cache_dir),
    )
    return derived(
        references,
        kept,
        lambda: reference_within_values(
            embeddings,
            cache_key=cache_key,
            cache_dir=settings.cache_dir,
            block_size=block_size,
            show_progress=show_progress,
        ),
    )


def _corpus_embeddings(
    references: Sequence[str],
    encoder: Any,
    settings: SimilarityOptions,
    width: int,
    show_progress: bool,
) -> tuple[np.ndarray, str | None]:
    """:func:`embed_references`, kept by a PoemCorpus per encoder object and encoding (the
    encoder is kept too, so its id is not reused; one fine-tuned in place is not noticed).
    ``width``: the predictions' vector width, which a cached file must have."""

    def embed():
        embeddings, key = embed_references(
            references,
            encoder,
            encoding=settings.encoding,
            batch_size=settings.batch_size,
            cache=settings.cache,
            cache_dir=settings.cache_dir,
            width=width,
            device=settings.device,
            show_progress=show_progress,
        )
        embeddings.flags.writeable = False
        return encoder, embeddings, key

    # The cache flag and folder are in the key: a result computed with cache=False must not be
    # served to a call that asked for the disk cache to be written, nor from another folder.
    kept = ("sentence_embeddings", id(encoder), settings.encoding, settings.cache)
    _, embeddings, key = derived(references, (*kept, str(settings.cache_dir)), embed)
    return embeddings, key


def _sample_rows(sample: Sequence[int], size: int) -> np.ndarray:
    rows = np.asarray(sample, dtype=np.int64)
    if rows.ndim != 1 or rows.size < 2:
        raise InvalidValueError("each of reference_samples must list at least 2 reference indices")
    if rows.min() < 0 or rows.max() >= size:
        raise InvalidValueError(f"reference_samples holds an index outside 0..{size - 1}")
    return rows
