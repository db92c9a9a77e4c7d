"""Limericks for BPoMP: reading corpora, verifying AABBA limericks, their three corruptions,
WordNet synonyms, and larger corpora recombined from a few."""

from .corruptions import (
    CORRUPTIONS,
    Limerick,
    MinimalPair,
    PairGeneration,
    VerificationReport,
    generate_pairs,
    limerick_problem,
    verify_limericks,
)
from .recombination import recombination_count, recombine_limericks
from .sources import LimerickRecord, read_limerick_source
from .synonyms import Synonym, SynonymFinder
from .wordnet_data import (
    INSTALL_HINT,
    WordNetNotFoundError,
    find_wordnet_root,
    load_wordnet,
    wordnet_available,
)

__all__ = [
    "CORRUPTIONS",
    "INSTALL_HINT",
    "Limerick",
    "LimerickRecord",
    "MinimalPair",
    "PairGeneration",
    "Synonym",
    "SynonymFinder",
    "VerificationReport",
    "WordNetNotFoundError",
    "find_wordnet_root",
    "generate_pairs",
    "limerick_problem",
    "load_wordnet",
    "read_limerick_source",
    "recombination_count",
    "recombine_limericks",
    "verify_limericks",
    "wordnet_available",
]
