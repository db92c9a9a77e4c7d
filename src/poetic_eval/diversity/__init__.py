"""Diversity of generated poems against a human corpus: the paper's dimensions and report.

One core function per metric (memorization, length, rhyme distribution, lexical diversity,
semantic similarity), one record per dimension (:mod:`.dimensions`), the combined profile
(:func:`poetic_diversity`) and its report with figures (:func:`write_report`).
"""

from .dimensions import DIMENSIONS
from .encoders import load_sentence_encoder
from .length import length_comparison
from .lexical import attr, lexical_diversity, mattr, mtld, ttr
from .memorization import DEFAULT_THRESHOLDS, memorization, poem_units
from .nearest_neighbours import nearest_neighbours
from .poem_embeddings import ENCODINGS, TruncationWarning, encode_poems
from .profile import DIMENSION_NAMES, diversity_profile, poetic_diversity, resolve_dimensions
from .rhyme_distribution import NoQuatrainError, SchemeReading, rhyme_divergence
from .semantic import SimilarityOptions, max_similarity
from .word_tokens import word_tokens

__all__ = [
    "DEFAULT_THRESHOLDS",
    "DIMENSIONS",
    "DIMENSION_NAMES",
    "ENCODINGS",
    "NoQuatrainError",
    "SchemeReading",
    "SimilarityOptions",
    "TruncationWarning",
    "attr",
    "diversity_profile",
    "encode_poems",
    "length_comparison",
    "lexical_diversity",
    "load_sentence_encoder",
    "mattr",
    "max_similarity",
    "memorization",
    "mtld",
    "nearest_neighbours",
    "poem_units",
    "poetic_diversity",
    "resolve_dimensions",
    "rhyme_divergence",
    "ttr",
    "word_tokens",
]
