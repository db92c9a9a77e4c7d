"""Language models: one engine (:class:`LanguageModel`) for every scorer of the project.

:func:`load_language_model` (the offline default, a name or path, or a ``(model, tokenizer)``
pair) builds it once; its verbs give log-probabilities in nats of
texts, pairs, continuations after shared prefixes and the distribution at a slot. Shared
prefixes are computed once (:mod:`.prefix_tree`), forward passes are sized by a token budget
(:mod:`.budget`), masked LMs are scored by pseudo-log-likelihood, and :mod:`.distributed`
splits the work over ``torchrun`` processes. :func:`score_texts` and :func:`score_pairs` are
conveniences over the engine with the same numbers.
"""

from .budget import token_budget
from .causal import sequence_log_probs
from .choices import EncodedChoices, encode_choices, score_choices
from .default_model import (
    DEFAULT_MODEL_NAME,
    DEFAULT_START_TOKEN,
    default_gguf_path,
    default_model_cache_dir,
)
from .distributed import score_pairs_sharded
from .language_model import (
    LanguageModel,
    ModelKind,
    default_device,
    document_start_token_id,
    model_kind,
)
from .loading import load_language_model
from .masked import pseudo_log_likelihoods
from .model_checks import split_head
from .model_sources import check_device, check_model_source, loading_model
from .prefix_tree import (
    Pack,
    ancestor_mask,
    pack_prefix_trees,
    single_sequence_packs,
    token_budget_batches,
)
from .scoring import REDUCTIONS, causal_sequences, score_pairs, score_texts
from .slots import slot_log_prob_batches

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
    "load_language_model",
    "loading_model",
    "model_kind",
    "pack_prefix_trees",
    "pseudo_log_likelihoods",
    "score_choices",
    "score_pairs",
    "score_pairs_sharded",
    "score_texts",
    "sequence_log_probs",
    "single_sequence_packs",
    "slot_log_prob_batches",
    "split_head",
    "token_budget",
    "token_budget_batches",
]
