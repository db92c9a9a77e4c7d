"""Limericks for BPoMP: reading corpora, verifying AABBA limericks, their three corruptions,
WordNet synonyms, and larger corpora recombined from a few."""

from .corruptions import CORRUPTIONS, PairGeneration, generate_pairs, verify_limericks
from .recombination import recombine_limericks
from .sources import read_limerick_source
from .synonyms import SynonymFinder
from .wordnet_data import WordNetNotFoundError, find_wordnet_root

__all__ = [
    "CORRUPTIONS",
    "PairGeneration",
    "SynonymFinder",
    "WordNetNotFoundError",
    "find_wordnet_root",
    "generate_pairs",
    "read_limerick_source",
    "recombine_limericks",
    "verify_limericks",
]
