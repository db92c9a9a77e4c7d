"""Diversity of generated poems against a human corpus: the paper's dimensions and report.

One core function per metric (memorization, length, rhyme distribution, lexical diversity,
semantic similarity), one record per dimension (:mod:`.dimensions`), the combined profile
(:func:`poetic_diversity`) and its report with figures (:func:`write_report`).
"""

from .dimensions import DIMENSIONS, Dimension
from .encoders import encoder_identity, load_sentence_encoder
from .length import histogram_intersection, length_comparison, length_statistics, poem_lengths
from .lexical import attr, lexical_diversity, mattr, mtld, poem_tokens, ttr
from .memorization import (
    DEFAULT_THRESHOLDS,
    LEVELS,
    UnitMatch,
    memorization,
    memorized_units,
    poem_units,
    ratcliff_ratio,
)
from .poem_embeddings import ENCODINGS, TruncationWarning, encode_poems, poem_sentence
from .profile import (
    DIMENSION_NAMES,
    DiversityProfile,
    dimension_options,
    diversity_profile,
    poetic_diversity,
    resolve_dimensions,
)
from .rhyme_distribution import (
    NoQuatrainError,
    entropy,
    kl_divergence,
    rhyme_divergence,
    scheme_distribution,
)
from .semantic import (
    embed_references,
    max_similarity,
    max_similarity_from_embeddings,
    nearest_neighbours,
)
from .word_tokens import word_count, word_tokens

__all__ = [
    "DEFAULT_THRESHOLDS",
    "DIMENSIONS",
    "DIMENSION_NAMES",
    "ENCODINGS",
    "LEVELS",
    "Dimension",
    "DiversityProfile",
    "NoQuatrainError",
    "TruncationWarning",
    "UnitMatch",
    "attr",
    "dimension_options",
    "diversity_profile",
    "embed_references",
    "encode_poems",
    "encoder_identity",
    "entropy",
    "histogram_intersection",
    "kl_divergence",
    "length_comparison",
    "length_statistics",
    "lexical_diversity",
    "load_sentence_encoder",
    "mattr",
    "max_similarity",
    "max_similarity_from_embeddings",
    "memorization",
    "memorized_units",
    "mtld",
    "nearest_neighbours",
    "poem_lengths",
    "poem_sentence",
    "poem_tokens",
    "poem_units",
    "poetic_diversity",
    "ratcliff_ratio",
    "resolve_dimensions",
    "rhyme_divergence",
    "scheme_distribution",
    "ttr",
    "word_count",
    "word_tokens",
]
