"""minicons, the peer of the LM-scoring benchmarks, set up to score what poetic_eval scores.

Shared by ``bench_pair_scoring.py`` and ``bench_blm_eval.py``: minicons' causal scorer over the
very model object poetic_eval loaded, with the default model's tokenizer and the document-start
token poetic_eval puts before every text as its BOS.
"""

from __future__ import annotations

import copy

from poetic_eval.lm import DEFAULT_START_TOKEN, default_model_cache_dir


def minicons_scorer(lm, tokenizer=None):
    """``minicons.scorer.IncrementalLMScorer`` on ``lm.model``, on ``lm``'s device, with a copy of
    ``tokenizer`` (default: the default model's, from its cache folder) whose BOS is the
    document-start token."""
    from minicons.scorer import IncrementalLMScorer
    from transformers import AutoTokenizer

    if tokenizer is None:
        tokenizer = AutoTokenizer.from_pretrained(str(default_model_cache_dir()))
    else:
        tokenizer = copy.deepcopy(tokenizer)
    tokenizer.bos_token = DEFAULT_START_TOKEN  # the document-start token poetic_eval uses
    return IncrementalLMScorer(lm.model, tokenizer=tokenizer, device=str(lm.device))
