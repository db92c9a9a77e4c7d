"""Tiny randomly initialised language models with word-level tokenizers, built in memory.

They stand in for real models in fast tests: same code paths (Llama causal LM with RoPE and
grouped-query attention, BERT masked LM), milliseconds per forward pass, no files, no hub.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (
    BertConfig,
    BertForMaskedLM,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
)

from poetic_eval.lm import LanguageModel, load_language_model

SPECIAL = ["[PAD]", "[UNK]", "[BOS]", "[EOS]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = [
    "the",
    "a",
    "some",
    "author",
    "authors",
    "guard",
    "guards",
    "pilot",
    "pilots",
    "poet",
    "poets",
    "that",
    "who",
    "likes",
    "like",
    "admires",
    "admire",
    "is",
    "are",
    "was",
    "were",
    "laughs",
    "laugh",
    "swims",
    "swim",
    "smiles",
    "smile",
    "near",
    "behind",
    "tall",
    "old",
    "young",
    "there",
    "once",
    "man",
    "from",
    "peru",
    "dreamed",
    "he",
    "she",
    "his",
    "her",
    "shoe",
    "night",
    "fright",
    "true",
    "blue",
    "sea",
    ".",
    ",",
    "!",
    "?",
]


def word_tokenizer(*, masked: bool = False) -> PreTrainedTokenizerFast:
    """Whitespace/punctuation word-level tokenizer over :data:`WORDS`."""
    vocab = {token: index for index, token in enumerate(SPECIAL + WORDS)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    if masked:
        backend.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
        )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        bos_token=None if masked else "[BOS]",
        eos_token=None if masked else "[EOS]",
        cls_token="[CLS]" if masked else None,
        sep_token="[SEP]" if masked else None,
        mask_token="[MASK]" if masked else None,
    )


def word_tokenizer_over(texts: list[str]) -> PreTrainedTokenizerFast:
    """A causal word-level tokenizer whose vocabulary is every word and punctuation mark of
    ``texts`` (after the special tokens): no unknown words for tests over their own texts."""
    splitter = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    words = sorted({word for text in texts for word, _ in splitter.pre_tokenize_str(text)})
    vocab = {token: index for index, token in enumerate(SPECIAL + words)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = splitter
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        bos_token="[BOS]",
        eos_token="[EOS]",
    )


def vocabulary_size() -> int:
    return len(SPECIAL) + len(WORDS)


def tiny_causal_lm(
    seed: int = 0, *, layers: int = 2, max_positions: int = 64, tokenizer: Any = None
) -> LanguageModel:
    """A random 2-layer Llama (RoPE, grouped-query attention) on the CPU in float32, over
    ``tokenizer`` (default: :func:`word_tokenizer`)."""
    tokenizer = tokenizer if tokenizer is not None else word_tokenizer()
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=max_positions,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config)
    with torch.no_grad():  # larger weights than the default init, so log-probs vary visibly
        for parameter in model.parameters():
            if parameter.dim() > 1:
                parameter.normal_(0.0, 0.3)
    return load_language_model((model, tokenizer), device="cpu", dtype=torch.float32)


def bigram_causal_lm(
    transition_logits: Any, *, tokenizer: Any = None, max_positions: int = 64
) -> LanguageModel:
    """A Llama whose next-token logits after token i are exactly ``transition_logits[:, i]``.

    Zero attention and MLP weights make every layer the identity (residual only); one-hot
    embeddings of norm 1 become ``sqrt(H) * e_i`` after the final RMSNorm, so the head
    ``transition_logits / sqrt(H)`` yields the given logits: a bigram model computable by hand.
    ``tokenizer`` defaults to :func:`word_tokenizer`.
    """
    tokenizer = tokenizer if tokenizer is not None else word_tokenizer()
    size = len(tokenizer)
    hidden = size + size % 2  # RoPE needs an even head dimension
    config = LlamaConfig(
        vocab_size=size,
        hidden_size=hidden,
        intermediate_size=8,
        num_hidden_layers=1,
        num_attention_heads=1,
        num_key_value_heads=1,
        max_position_embeddings=max_positions,
        rms_norm_eps=1e-12,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config)
    with torch.no_grad():
        for parameter in model.model.layers.parameters():
            if parameter.dim() > 1:
                parameter.zero_()
        model.model.embed_tokens.weight.copy_(torch.eye(size, hidden))
        model.model.norm.weight.fill_(1.0)
        head = torch.zeros(size, hidden)
        head[:, :size] = torch.as_tensor(transition_logits, dtype=torch.float32) / np.sqrt(hidden)
        model.lm_head.weight.copy_(head)
    return load_language_model((model, tokenizer), device="cpu", dtype=torch.float32)


def tiny_masked_lm(seed: int = 0) -> LanguageModel:
    """A random 2-layer BERT masked LM on the CPU in float32."""
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=vocabulary_size(),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    model = BertForMaskedLM(config)
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.dim() > 1:
                parameter.normal_(0.0, 0.3)
    return load_language_model(
        (model, word_tokenizer(masked=True)), device="cpu", dtype=torch.float32
    )


def random_sentences(
    count: int, seed: int, *, min_words: int = 2, max_words: int = 12
) -> list[str]:
    rng = np.random.default_rng(seed)
    words = [word for word in WORDS if word.isalpha()]
    return [
        " ".join(rng.choice(words, size=int(rng.integers(min_words, max_words + 1))))
        for _ in range(count)
    ]


def random_minimal_pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Pairs that share a random prefix (drawn from a few templates) and differ in one word."""
    rng = np.random.default_rng(seed)
    words = [word for word in WORDS if word.isalpha()]
    templates = [" ".join(rng.choice(words, size=int(rng.integers(1, 7)))) for _ in range(4)]
    good, bad = [], []
    for _ in range(count):
        prefix = templates[int(rng.integers(len(templates)))]
        middle = " ".join(rng.choice(words, size=int(rng.integers(0, 3))))
        left = f"{prefix} {middle}".strip()
        verb_good, verb_bad = rng.choice(words, size=2, replace=False)
        tail = " ".join(rng.choice(words, size=int(rng.integers(0, 4))))
        good.append(f"{left} {verb_good} {tail}".strip())
        bad.append(f"{left} {verb_bad} {tail}".strip())
    return good, bad
