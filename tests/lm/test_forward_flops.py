"""bench/forward_flops.py, the counter behind the FLOP ratios the LM benchmarks print: it counts
the positions fed to a model's body and the rows its head maps, for a whole-model forward (as
minicons runs it) and for the body and head run apart (as poetic_eval's engine does)."""

from __future__ import annotations

import pytest
import torch

from bench.forward_flops import ForwardFlops
from tests.tiny_language_models import tiny_causal_lm


@pytest.fixture(scope="module")
def lm():
    return tiny_causal_lm()


def _independent_weights(lm) -> tuple[int, int]:
    """The body's and head's matrix weights, counted from the parameters (embeddings excluded)."""
    body = sum(
        parameter.numel()
        for name, parameter in lm.model.base_model.named_parameters()
        if parameter.dim() == 2 and "embed" not in name
    )
    return body, lm.model.lm_head.weight.numel()


def test_a_whole_forward_counts_every_position_and_head_row(lm):
    counter = ForwardFlops(lm.model)
    body, head = _independent_weights(lm)
    assert (counter.body_weights, counter.head_weights) == (body, head)
    with counter, torch.inference_mode():
        lm.model(input_ids=torch.ones((2, 5), dtype=torch.long))
    assert (counter.positions, counter.head_rows) == (10, 10)
    assert counter.gflop == pytest.approx(2 * (10 * body + 10 * head) / 1e9)


def test_body_and_head_apart_count_only_the_rows_the_head_maps(lm):
    counter = ForwardFlops(lm.model)
    with counter, torch.inference_mode():
        hidden = lm.model.base_model(input_ids=torch.ones((3, 4), dtype=torch.long))
        lm.model.lm_head(hidden.last_hidden_state[:, -1])
    assert (counter.positions, counter.head_rows) == (12, 3)


def test_it_counts_only_while_open_and_adds_up_across_openings(lm):
    counter = ForwardFlops(lm.model)
    ids = torch.ones((1, 4), dtype=torch.long)
    with torch.inference_mode():
        with counter:
            lm.model(input_ids=ids)
        lm.model(input_ids=ids)
        with counter:
            lm.model(input_ids=ids)
    assert (counter.positions, counter.head_rows) == (8, 8)


def test_the_engine_feeds_each_shared_prefix_once(lm):
    """Two texts that differ in their last word: the start token and the two shared words are
    fed once, and the head maps the three of them (the last words are read at their parent)."""
    lm.score_texts(["the man dreamed"], show_progress=False)  # one-off probes, not counted
    counter = ForwardFlops(lm.model)
    with counter:
        lm.score_texts(["the man dreamed", "the man sea"], show_progress=False)
    assert (counter.positions, counter.head_rows) == (3, 3)


def test_a_model_without_a_single_head_is_refused():
    with pytest.raises(ValueError, match="no base model and single head"):
        ForwardFlops(torch.nn.Linear(2, 2))
