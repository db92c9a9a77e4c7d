"""bench/forward_flops.py, the counter behind the FLOP ratios the LM benchmarks print: two FLOPs
per weight of every linear layer for each row it maps, for a whole-model forward (as minicons
runs it), for the body and head run apart (as poetic_eval's causal engine does) and for a masked
LM's last layer run at the mask only."""

from __future__ import annotations

import pytest
import torch

from bench.forward_flops import ForwardFlops
from tests.tiny_language_models import tiny_causal_lm, tiny_masked_lm


@pytest.fixture(scope="module")
def lm():
    return tiny_causal_lm()


def _weights(lm) -> tuple[int, int]:
    """The body's and head's matrix weights, counted from the parameters (embeddings excluded)."""
    body = sum(
        parameter.numel()
        for name, parameter in lm.model.base_model.named_parameters()
        if parameter.dim() == 2 and "embed" not in name
    )
    return body, lm.model.lm_head.weight.numel()


def test_a_whole_forward_counts_every_position_in_the_body_and_the_head(lm):
    body, head = _weights(lm)
    with ForwardFlops(lm.model) as counter, torch.inference_mode():
        lm.model(input_ids=torch.ones((2, 5), dtype=torch.long))
    assert counter.flop == 2 * (10 * body + 10 * head)
    assert counter.gflop == pytest.approx(counter.flop / 1e9)


def test_body_and_head_apart_count_only_the_rows_the_head_maps(lm):
    body, head = _weights(lm)
    with ForwardFlops(lm.model) as counter, torch.inference_mode():
        hidden = lm.model.base_model(input_ids=torch.ones((3, 4), dtype=torch.long))
        lm.model.lm_head(hidden.last_hidden_state[:, -1])
    assert counter.flop == 2 * (12 * body + 3 * head)


def test_it_counts_only_while_open_and_adds_up_across_openings(lm):
    body, head = _weights(lm)
    counter = ForwardFlops(lm.model)
    ids = torch.ones((1, 4), dtype=torch.long)
    with torch.inference_mode():
        with counter:
            lm.model(input_ids=ids)
        lm.model(input_ids=ids)
        with counter:
            lm.model(input_ids=ids)
    assert counter.flop == 2 * (8 * body + 8 * head)


def test_the_causal_engine_feeds_each_shared_prefix_once(lm):
    """Two texts that differ in their last word: the start token and the two shared words are
    fed once, and the head maps the three of them (the last words are read at their parent)."""
    body, head = _weights(lm)
    lm.score_texts(["the man dreamed"], show_progress=False)  # one-off probes, not counted
    with ForwardFlops(lm.model) as counter:
        lm.score_texts(["the man dreamed", "the man sea"], show_progress=False)
    assert counter.flop == 2 * (3 * body + 3 * head)


def test_the_masked_engine_is_counted_below_one_full_forward_per_copy():
    """PLL of a 4-word text runs 4 masked copies. The engine maps the head at the mask only, so
    its count lies below that of 4 whole forwards, one per copy."""
    masked = tiny_masked_lm()
    text = ["the man dreamed ."]
    masked.score_texts(text, show_progress=False)  # one-off probes, not counted
    length = len(masked.tokenizer(text[0]).input_ids)  # with [CLS] and [SEP]
    copies = length - 2
    with ForwardFlops(masked.model) as whole, torch.inference_mode():
        masked.model(input_ids=torch.ones((copies, length), dtype=torch.long))
    with ForwardFlops(masked.model) as engine:
        masked.score_texts(text, show_progress=False)
    assert 0 < engine.flop < whole.flop


def test_a_model_without_linear_layers_is_refused():
    with pytest.raises(ValueError, match="no linear layers to count"):
        ForwardFlops(torch.nn.Embedding(4, 2))


def test_attention_counts_the_keys_each_query_attends(lm):
    """A causal forward of one 5-token text: each of the 4 query heads of each layer attends
    1 + 2 + ... + 5 keys, 4 FLOPs per head dimension each (QK^T and the weighted values); the
    padded second row of a batch attends only its 3 real keys."""
    config = lm.model.config
    head_size = config.hidden_size // config.num_attention_heads
    per_pair = 4 * head_size * config.num_attention_heads * config.num_hidden_layers
    with ForwardFlops(lm.model) as counter, torch.inference_mode():
        lm.model(input_ids=torch.ones((1, 5), dtype=torch.long))
    assert counter.attention_flop == per_pair * 15
    assert counter.full_gflop == pytest.approx((counter.flop + counter.attention_flop) / 1e9)
    padded = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    with ForwardFlops(lm.model) as counter, torch.inference_mode():
        lm.model(input_ids=torch.ones((2, 5), dtype=torch.long), attention_mask=padded)
    # the padded queries of the second row attend nothing or their real keys: at least the
    # real rows' 15 + 6 pairs, at most as if they attended all 3 real keys
    assert per_pair * 21 <= counter.attention_flop <= per_pair * (21 + 2 * 3)
