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
from .synonyms import Synonym, SynonymFinder, WordNetNotFoundError, find_wordnet_root

__all__ = [
    "CORRUPTIONS",
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
    "read_limerick_source",
    "recombination_count",
    "recombine_limericks",
    "verify_limericks",
]
