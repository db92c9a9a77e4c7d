"""The LM head on vocabulary slices gives the log-probabilities of the whole head."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from poetic_eval.lm import next_token
from poetic_eval.lm.next_token import chosen_log_probs


@torch.no_grad()
def _float64_reference(states, head, state_of, tokens) -> np.ndarray:
    weight = head.weight.double()
    logits = states.double() @ weight.T
    if head.bias is not None:
        logits = logits + head.bias.double()
    log_probs = torch.log_softmax(logits, dim=-1)
    return log_probs[torch.as_tensor(state_of), torch.as_tensor(tokens)].numpy()


def _case(seed: int, vocabulary: int, bias: bool, states: int = 37, wanted: int = 90):
    generator = torch.Generator().manual_seed(seed)
    head = torch.nn.Linear(16, vocabulary, bias=bias)
    with torch.no_grad():
        head.weight.copy_(torch.randn(vocabulary, 16, generator=generator))
        if bias:
            head.bias.copy_(torch.randn(vocabulary, generator=generator))
    hidden = torch.randn(states, 16, generator=generator)
    rng = np.random.default_rng(seed)
    state_of = rng.integers(0, states, size=wanted)  # unsorted, repeated states
    tokens = rng.integers(0, vocabulary, size=wanted)
    return hidden, head, state_of, tokens


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("vocabulary, size", [(101, 7), (101, 101), (64, 16), (50, 200)])
@pytest.mark.parametrize("bias", [False, True])
def test_sliced_head_matches_the_whole_head_and_float64(seed, vocabulary, size, bias):
    hidden, head, state_of, tokens = _case(seed, vocabulary, bias)
    with torch.inference_mode():
        sliced = chosen_log_probs(hidden, head, state_of, tokens, vocabulary_slice=size)
        whole = chosen_log_probs(hidden, head, state_of, tokens, vocabulary_slice=None)
    exact = _float64_reference(hidden, head, state_of, tokens)
    assert sliced.dtype == np.float64 and sliced.shape == tokens.shape
    np.testing.assert_allclose(sliced, exact, atol=2e-5)
    np.testing.assert_allclose(sliced, whole, atol=2e-5)


def test_states_beyond_one_block_are_read_in_their_own_block(monkeypatch):
    """Blocks of 8 states: every state is normalised in its own block, whatever the order."""
    monkeypatch.setattr(next_token, "SLICED_BLOCK_ROWS", 8)
    monkeypatch.setattr(next_token, "WHOLE_BLOCK_ROWS", 8)
    hidden, head, state_of, tokens = _case(5, 45, False, states=30, wanted=120)
    exact = _float64_reference(hidden, head, state_of, tokens)
    with torch.inference_mode():
        for size in (6, None):
            found = chosen_log_probs(hidden, head, state_of, tokens, vocabulary_slice=size)
            np.testing.assert_allclose(found, exact, atol=2e-5)


def test_a_head_that_is_not_linear_runs_whole(monkeypatch):
    """A soft-capped head is no plain linear map: the sliced path must not be taken."""
    hidden, head, state_of, tokens = _case(1, 40, False)

    def capped(states):
        return 3.0 * torch.tanh(head(states) / 3.0)

    def refuse(*args, **kwargs):
        raise AssertionError("a non-linear head went through the vocabulary slices")

    monkeypatch.setattr(next_token, "_sliced", refuse)
    with torch.inference_mode():
        found = chosen_log_probs(hidden, capped, state_of, tokens, vocabulary_slice=8)
        logits = capped(hidden).double()
    exact = torch.log_softmax(logits, -1)[torch.as_tensor(state_of), torch.as_tensor(tokens)]
    np.testing.assert_allclose(found, exact.numpy(), atol=2e-5)


def test_the_sliced_head_is_taken_for_a_linear_head(monkeypatch):
    hidden, head, state_of, tokens = _case(2, 40, False)
    calls = []
    original = next_token._sliced
    monkeypatch.setattr(
        next_token, "_sliced", lambda *args: calls.append(args[-1]) or original(*args)
    )
    with torch.inference_mode():
        chosen_log_probs(hidden, head, state_of, tokens, vocabulary_slice=16)
    assert calls == [16]


class _ScaledLinear(torch.nn.Linear):
    """A subclass whose forward is not ``x @ W.T`` (as a quantised or patched head's is not)."""

    def forward(self, states):
        return 2.0 * super().forward(states)


def test_a_subclass_or_a_hooked_linear_head_runs_whole(monkeypatch):
    """Only an exact ``torch.nn.Linear`` without an accelerate hook is multiplied by its weight
    directly: a subclass (bitsandbytes' are) or a hooked head is called as a module."""
    hidden, head, state_of, tokens = _case(3, 40, True)
    scaled = _ScaledLinear(16, 40)
    scaled.load_state_dict(head.state_dict())
    hooked = torch.nn.Linear(16, 40)
    hooked.load_state_dict(head.state_dict())
    hooked._hf_hook = object()

    def refuse(*args, **kwargs):
        raise AssertionError("the head went through the vocabulary slices")

    monkeypatch.setattr(next_token, "_sliced", refuse)
    with torch.inference_mode():
        for module in (scaled, hooked):
            found = chosen_log_probs(hidden, module, state_of, tokens, vocabulary_slice=8)
            logits = module(hidden).double()
            exact = torch.log_softmax(logits, -1)[
                torch.as_tensor(state_of), torch.as_tensor(tokens)
            ]
            np.testing.assert_allclose(found, exact.numpy(), atol=2e-5)
