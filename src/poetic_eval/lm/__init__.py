"""Language models: one engine (:class:`LanguageModel`) for every scorer of the project.

:func:`load_language_model` (the offline default, a name or path, or a ``(model, tokenizer)``
pair; ``device_map``, ``max_memory``, ``offload_folder`` and ``quantization`` as transformers and
accelerate take them) builds it once; its verbs give log-probabilities in nats of texts, pairs,
token sequences, continuations after shared prefixes and the distribution at a slot.
:func:`score_texts` and :func:`score_pairs` load and score in one call, with the same numbers.

Layers, each importing only those below it: :mod:`.placement` and :mod:`.budget` (where a model
computes, how many positions a forward takes); :mod:`.loaded_model` (the plain record); the
computations (:mod:`.prefix_tree`, :mod:`.next_token`, :mod:`.shared_root`,
:mod:`.pack_forward`, :mod:`.causal`, :mod:`.masked`, :mod:`.text_scores`, :mod:`.choices`,
:mod:`.slots`); :mod:`.engine` (the object users hold); loading (:mod:`.language_model`,
:mod:`.default_model`, :mod:`.loading`); :mod:`.scoring` and :mod:`.distributed` (torchrun:
each process a contiguous shard, gathered in order).

This list holds what other packages and users call; everything else is imported from its
module (``tests/lm/test_lm_layers.py`` lists it).
"""

from .default_model import DEFAULT_START_TOKEN, default_model_cache_dir
from .engine import LanguageModel
from .loaded_model import ModelKind, document_start_token_id
from .loading import load_language_model
from .model_sources import check_device, check_model_source, loading_model
from .scoring import score_pairs, score_texts
from .text_scores import REDUCTIONS, causal_sequences

__all__ = [
    "DEFAULT_START_TOKEN",
    "REDUCTIONS",
    "LanguageModel",
    "ModelKind",
    "causal_sequences",
    "check_device",
    "check_model_source",
    "default_model_cache_dir",
    "document_start_token_id",
    "load_language_model",
    "loading_model",
    "score_pairs",
    "score_texts",
]
