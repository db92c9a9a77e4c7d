"""minicons, the peer of the LM-scoring benchmarks, set up to score what poetic_eval scores.

Shared by ``bench_pair_scoring.py`` and ``bench_blm_eval.py``: minicons' causal scorer over the
very model object poetic_eval loaded, with the default model's tokenizer and the document-start
token poetic_eval puts before every text as its BOS.
"""

from __future__ import annotations

from poetic_eval.lm import DEFAULT_START_TOKEN, default_model_cache_dir


def minicons_scorer(lm):
    """``minicons.scorer.IncrementalLMScorer`` on ``lm.model`` (the default model), on the CPU."""
    from minicons.scorer import IncrementalLMScorer
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(default_model_cache_dir()))
    tokenizer.bos_token = DEFAULT_START_TOKEN  # the document-start token poetic_eval uses
    return IncrementalLMScorer(lm.model, tokenizer=tokenizer, device="cpu")
