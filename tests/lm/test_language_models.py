"""Model loading: the offline default SmolLM2 (GGUF -> cached float32), kinds, errors."""

from __future__ import annotations

import time

import numpy as np
import pytest
import torch
from tiny_language_models import tiny_causal_lm, tiny_masked_lm, word_tokenizer
from transformers import BertConfig, BertModel

from poetic_eval.lm import (
    DEFAULT_START_TOKEN,
    LanguageModel,
    default_model_cache_dir,
    document_start_token_id,
    load_language_model,
    score_pairs,
    score_texts,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def default_lm():
    """The real default model (converted on the first use on this machine, then cached)."""
    return load_language_model(device="cpu")


def test_default_model_is_cached_float32_smollm2(default_lm):
    assert default_lm.kind == "causal"
    assert default_lm.dtype == torch.float32
    assert default_lm.device == torch.device("cpu")
    assert (default_model_cache_dir() / "model.safetensors").is_file()
    assert default_lm.model.config.num_hidden_layers == 30
    assert "quantization_config" not in default_lm.model.config.to_dict()
    started = time.perf_counter()
    again = load_language_model(device="cpu")
    assert time.perf_counter() - started < 10  # < 2 s on an idle machine; shared CI is noisier
    assert again.tokenizer.get_vocab() == default_lm.tokenizer.get_vocab()


def test_default_start_token_is_endoftext(default_lm):
    start = document_start_token_id(default_lm)
    assert (
        default_lm.tokenizer.convert_ids_to_tokens(start) == DEFAULT_START_TOKEN == "<|endoftext|>"
    )


def test_default_model_scores_match_a_full_forward(default_lm):
    good = ["The dogs in the garden are barking.", "The keys to the cabinet are here."]
    bad = ["The dogs in the garden is barking.", "The keys to the cabinet is here."]
    good_scores, bad_scores = score_pairs(good, bad, default_lm, show_progress=False)
    for text, score in zip(good + bad, np.concatenate([good_scores, bad_scores])):
        ids = torch.tensor([[0, *default_lm.tokenizer(text, add_special_tokens=False).input_ids]])
        with torch.no_grad():
            log_probs = default_lm.model(ids).logits.double().log_softmax(-1)[0, :-1]
        expected = log_probs.gather(1, ids[0, 1:, None]).sum().item()
        assert abs(score - expected) < 1e-4
    assert np.all(good_scores > bad_scores)  # agreement errors cost probability


def test_default_model_prefix_sharing_equals_separate_scoring(default_lm):
    limerick = (
        "A poet who lived by the sea\nwas as bored as a fellow could be,\n"
        "so he swam to the shore for his tea."
    )
    texts = [
        "The pilots that the farmer admires laugh.",
        "The pilots that the farmer admires laughs.",
        "The pilots that the farmers admire laugh.",
        limerick,
        limerick.replace("tea.", "brew."),
    ]
    shared = score_texts(texts, default_lm, show_progress=False)
    separate = score_texts(
        texts, default_lm, share_prefixes=False, batch_size=1, show_progress=False
    )
    assert np.abs(shared - separate).max() < 1e-4
    mean = score_texts(texts, default_lm, reduction="mean", show_progress=False)
    counts = [len(default_lm.tokenizer(text, add_special_tokens=False).input_ids) for text in texts]
    np.testing.assert_allclose(mean, shared / counts, rtol=1e-9)


def test_pair_of_model_and_tokenizer_keeps_kind_and_start_token():
    causal = tiny_causal_lm()
    assert causal.kind == "causal"
    assert document_start_token_id(causal) == causal.tokenizer.bos_token_id
    assert tiny_masked_lm().kind == "masked"
    moved = load_language_model(causal, device="cpu", dtype=torch.float32)
    assert isinstance(moved, LanguageModel) and moved.model is causal.model
    causal.start_token_id = 5
    assert document_start_token_id(load_language_model(causal, device="cpu")) == 5


def test_local_folder_round_trip(tmp_path):
    original = tiny_causal_lm(seed=2)
    original.model.save_pretrained(tmp_path)
    original.tokenizer.save_pretrained(tmp_path)
    loaded = load_language_model(str(tmp_path), device="cpu")
    assert loaded.kind == "causal" and loaded.name == str(tmp_path)
    texts = ["the poet smiles .", "a guard laughs"]
    np.testing.assert_allclose(
        score_texts(texts, loaded, show_progress=False),
        score_texts(texts, original, show_progress=False),
        atol=1e-5,
    )


def test_models_without_a_language_model_head_are_refused(tmp_path):
    encoder = BertModel(
        BertConfig(
            vocab_size=64,
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
        )
    )
    with pytest.raises(ValueError, match="neither a causal LM"):
        load_language_model((encoder, word_tokenizer(masked=True)))
    encoder.save_pretrained(tmp_path)
    with pytest.raises(ValueError, match="neither a causal nor a masked"):
        load_language_model(str(tmp_path))
    with pytest.raises(TypeError, match="model must be None"):
        load_language_model(42)


def test_the_caller_holds_the_model_no_module_cache():
    from poetic_eval.lm import loading

    first = load_language_model(None, device="cpu")
    assert load_language_model(first) is first  # a loaded engine passes through unchanged
    assert load_language_model(None, device="cpu") is not first  # nothing kept between calls
    assert not hasattr(loading, "resolve_model") and not hasattr(loading, "_DEFAULT_MODELS")
    budgeted = load_language_model(first, token_budget=64)
    assert budgeted.model is first.model and budgeted.tokens_per_forward == 64


def test_conversion_key_follows_content_not_time_and_stale_conversions_go(tmp_path):
    import os

    from poetic_eval.lm.default_model import _gguf_fingerprint, _remove_stale_conversions

    rng = np.random.default_rng(0)
    payload = rng.integers(0, 256, size=3 << 20, dtype=np.uint8).tobytes()
    first, second = tmp_path / "a" / "m.gguf", tmp_path / "b" / "m.gguf"
    for path in (first, second):
        path.parent.mkdir()
        path.write_bytes(payload)
    os.utime(second, (1_000_000, 1_000_000))
    assert _gguf_fingerprint(first) == _gguf_fingerprint(second)  # another venv, same release
    second.write_bytes(payload[:-1] + b"\x00" if payload[-1] else payload[:-1] + b"\x01")
    assert _gguf_fingerprint(first) != _gguf_fingerprint(second)  # a new release

    models = tmp_path / "models"
    for key in ("old1", "old2", "new"):
        (models / f"Model-f32-{key}").mkdir(parents=True)
        (models / f"Model-f32-{key}" / "config.json").write_text("{}")
    (models / "Other-f32-x").mkdir()
    (models / "Other-f32-x" / "config.json").write_text("{}")
    _remove_stale_conversions(models / "Model-f32-new")
    assert sorted(p.name for p in models.iterdir()) == ["Model-f32-new", "Other-f32-x"]


def test_one_public_constructor_and_no_module_level_model():
    """Issue 20: the caller holds the model; the package neither offers a second loader nor
    keeps a loaded model in a module global."""
    import inspect

    from poetic_eval import lm

    loaders = [name for name in lm.__all__ if name.startswith(("load_", "resolve", "wrap"))]
    assert loaders == ["load_language_model"]
    for _, module in inspect.getmembers(lm, inspect.ismodule):
        held = [v for v in vars(module).values() if isinstance(v, (LanguageModel, torch.nn.Module))]
        assert held == [], module.__name__
