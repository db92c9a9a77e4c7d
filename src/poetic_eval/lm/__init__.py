"""Language models: loading (the offline default or any causal / masked LM) and scoring.

:func:`score_texts` and :func:`score_pairs` give log-probabilities in nats; shared prefixes are
computed once (:mod:`.prefix_tree`), masked LMs are scored by pseudo-log-likelihood, and
:mod:`.distributed` splits the work over ``torchrun`` processes.
"""

from .causal import sequence_log_probs
from .choices import EncodedChoices, encode_choices, score_choices
from .default_model import (
    DEFAULT_MODEL_NAME,
    DEFAULT_START_TOKEN,
    default_gguf_path,
    default_model_cache_dir,
    load_default_lm,
)
from .distributed import score_pairs_sharded
from .language_model import (
    LanguageModel,
    ModelKind,
    default_device,
    document_start_token_id,
    load_pretrained,
    model_kind,
)
from .loading import load_language_model, resolve_model
from .masked import pseudo_log_likelihoods
from .model_checks import split_head
from .model_sources import check_device, check_model_source, loading_model
from .prefix_tree import Pack, ancestor_mask, pack_prefix_trees, single_sequence_packs
from .scoring import REDUCTIONS, causal_sequences, score_pairs, score_texts

__all__ = [
    "DEFAULT_MODEL_NAME",
    "DEFAULT_START_TOKEN",
    "REDUCTIONS",
    "EncodedChoices",
    "LanguageModel",
    "ModelKind",
    "Pack",
    "ancestor_mask",
    "causal_sequences",
    "check_device",
    "check_model_source",
    "default_device",
    "default_gguf_path",
    "default_model_cache_dir",
    "document_start_token_id",
    "encode_choices",
    "load_default_lm",
    "load_language_model",
    "load_pretrained",
    "loading_model",
    "model_kind",
    "pack_prefix_trees",
    "pseudo_log_likelihoods",
    "resolve_model",
    "score_choices",
    "score_pairs",
    "score_pairs_sharded",
    "score_texts",
    "sequence_log_probs",
    "single_sequence_packs",
    "split_head",
]
