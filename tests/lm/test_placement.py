"""Models placed as transformers and accelerate place them: dispatched over CPU memory and
disk, handed in already dispatched, or quantized. Each scores like the plain model through
every verb and is never moved or cast."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
import torch
from tiny_language_models import random_minimal_pairs, tiny_causal_lm, tiny_masked_lm

from poetic_eval.files import DeviceError
from poetic_eval.lm import load_language_model
from poetic_eval.pairs.verb_agreement.distributions import verb_slot_log_probs

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TOLERANCE = 1e-4  # nats: the same float32 weights, read from disk instead of memory
GOOD = [
    "The poets near the guard laugh.",
    "The author that the pilots like is old.",
    "There once was a man from Peru who dreamed he was eating his shoe.",
]
BAD = [
    "The poets near the guard laughs.",
    "The author that the pilots like are old.",
    "There once was a man from Peru who dreamed he were eating his shoe.",
]
AGREEMENT = [
    {"sentence_good": "the pilot laughs", "sentence_bad": "the pilot laugh", "label": -1},
    {"sentence_good": "the pilots laugh", "sentence_bad": "the pilots laughs", "label": -2},
    {"sentence_good": "the guard that the poets like is tall",
     "sentence_bad": "the guard that the poets like are tall", "label": -1},
]  # fmt: skip
PREFIXES = ["Context: the poet smiles. The poets smile. Answer:", "Which is right? Answer:"]
CHOICES = [[" The poet smiles.", " The poets smiles.", " A poet smile."], [" A", " B", " C"]]


def parameter_places(model: torch.nn.Module) -> dict[str, tuple]:
    """Each parameter's device, dtype, tensor class and storage (unchanged if never moved)."""
    return {
        name: (str(p.device), p.dtype, type(p.data).__name__, _storage(p))
        for name, p in model.named_parameters(remove_duplicate=False)  # tied ones too
    }


def _storage(parameter: torch.Tensor):
    try:
        return parameter.data.data_ptr() if parameter.device.type != "meta" else None
    except RuntimeError:  # tensor subclasses without one storage
        return None


def assert_same_scores(plain, placed, *, masked: bool = False):
    """texts, pairs, choices (causal) and verb slots: within TOLERANCE, same decisions."""
    texts_plain, texts_placed = plain.score_texts(GOOD), placed.score_texts(GOOD)
    np.testing.assert_allclose(texts_placed, texts_plain, atol=TOLERANCE, rtol=0)
    (good_a, bad_a), (good_b, bad_b) = plain.score_pairs(GOOD, BAD), placed.score_pairs(GOOD, BAD)
    np.testing.assert_allclose(good_b, good_a, atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(bad_b, bad_a, atol=TOLERANCE, rtol=0)
    assert np.array_equal(good_a > bad_a, good_b > bad_b)
    if not masked:
        for a, b in zip(
            plain.score_choices(PREFIXES, CHOICES), placed.score_choices(PREFIXES, CHOICES)
        ):
            np.testing.assert_allclose(b, a, atol=TOLERANCE, rtol=0)
            assert a.argmax() == b.argmax()
    slots_a = verb_slot_log_probs(AGREEMENT, plain, show_progress=False).log_probs
    slots_b = verb_slot_log_probs(AGREEMENT, placed, show_progress=False).log_probs
    assert torch.allclose(slots_a, slots_b, atol=TOLERANCE, rtol=0)
    assert torch.equal(slots_a.argmax(-1), slots_b.argmax(-1))


@pytest.fixture(scope="module")
def default_models(tmp_path_factory):
    plain = load_language_model(device="cpu")
    size = sum(p.numel() * p.element_size() for p in plain.model.parameters())
    folder = tmp_path_factory.mktemp("offload")
    offloaded = load_language_model(
        device_map="auto", max_memory={"cpu": size // 3}, offload_folder=folder
    )
    return plain, offloaded, size, folder


def test_the_default_model_offloaded_to_disk_scores_like_the_plain_model(default_models):
    plain, offloaded, size, _ = default_models
    assert offloaded.start_token_id == plain.start_token_id  # the default model's own start
    assert "disk" in offloaded.model.hf_device_map.values()  # a third of it fits in memory
    # (transformers reads disk-offloaded weights from the checkpoint's own safetensors file;
    # offload_folder receives only what the checkpoint cannot serve)
    assert offloaded.device == torch.device("cpu")
    in_memory = sum(
        p.numel() * p.element_size()
        for p in offloaded.model.parameters()
        if p.device.type != "meta"
    )
    assert in_memory < size
    places = parameter_places(offloaded.model)
    assert_same_scores(plain, offloaded)
    assert parameter_places(offloaded.model) == places


def _saved(lm, folder):
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder


def test_a_masked_model_offloaded_to_disk_scores_like_the_plain_model(tmp_path):
    plain = tiny_masked_lm(3)
    folder = _saved(plain, tmp_path / "bert")
    offloaded = load_language_model(
        str(folder), device_map="auto", max_memory={"cpu": 20_000}, offload_folder=tmp_path / "off"
    )
    assert "disk" in offloaded.model.hf_device_map.values()
    places = parameter_places(offloaded.model)
    assert_same_scores(plain, offloaded, masked=True)
    assert parameter_places(offloaded.model) == places


def test_a_model_dispatched_by_the_caller_stays_where_it_was(tmp_path):
    from accelerate import dispatch_model

    plain = tiny_causal_lm(4)
    network = tiny_causal_lm(4).model
    mapping = {"model.embed_tokens": "cpu", "model.layers": "disk", "model.norm": "cpu",
               "model.rotary_emb": "cpu", "lm_head": "disk"}  # fmt: skip
    dispatch_model(network, device_map=mapping, offload_dir=str(tmp_path), main_device="cpu")
    places, device_map = parameter_places(network), dict(network.hf_device_map)
    adopted = load_language_model((network, plain.tokenizer), device="cpu")
    assert adopted.model is network and adopted.placed
    assert network.hf_device_map == device_map and parameter_places(network) == places
    good, bad = random_minimal_pairs(12, 5)
    (good_a, bad_a), (good_b, bad_b) = plain.score_pairs(good, bad), adopted.score_pairs(good, bad)
    np.testing.assert_allclose(good_b, good_a, atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(bad_b, bad_a, atol=TOLERANCE, rtol=0)
    assert parameter_places(network) == places
    with pytest.raises(DeviceError, match="cannot be cast"):
        load_language_model((network, plain.tokenizer), dtype=torch.bfloat16)
    assert parameter_places(network) == places


def test_a_model_hooked_on_one_device_scores_like_it_held_whole():
    """accelerate's hooks on every module of a model that fits on one device (what
    bench_big_models times against the model held whole): every verb, the same scores."""
    from accelerate import dispatch_model

    plain = tiny_causal_lm(4)
    network = tiny_causal_lm(4).model
    mapping = {"model.embed_tokens": "cpu", "model.layers": "cpu", "model.norm": "cpu",
               "model.rotary_emb": "cpu", "lm_head": "cpu"}  # fmt: skip
    dispatch_model(network, device_map=mapping, main_device="cpu", force_hooks=True)
    assert sum(hasattr(module, "_hf_hook") for module in network.modules()) > 10
    hooked = load_language_model((network, plain.tokenizer))
    assert hooked.placed and network.hf_device_map == mapping
    assert_same_scores(plain, hooked)


def test_placement_options_with_a_loaded_object_are_refused():
    lm = tiny_causal_lm(0)
    with pytest.raises(ValueError, match="already loaded"):
        load_language_model((lm.model, lm.tokenizer), device_map="auto")
    with pytest.raises(ValueError, match="either device or device_map"):
        load_language_model("some/model", device="cpu", device_map="auto")
    with pytest.raises(ValueError, match="did you mean"):
        load_language_model(lm, quantization="int9")


def every_verb(lm, *, masked: bool = False) -> list[np.ndarray]:
    """Scores from every verb of the engine (the causal-only ones for causal LMs)."""
    good, bad = random_minimal_pairs(10, 8)
    found = [lm.score_texts(good), *lm.score_pairs(good, bad)]
    found.append(verb_slot_log_probs(AGREEMENT, lm, show_progress=False).log_probs.numpy())
    if not masked:
        found += lm.score_choices(PREFIXES, CHOICES)
        found.append(lm.score_sequences([[2, 9, 10, 11], [2, 9, 12]]))
    return found


@pytest.mark.parametrize("masked", [False, True], ids=["causal", "masked"])
def test_a_quantized_model_scores_through_every_verb_as_it_is(tmp_path, masked):
    pytest.importorskip("torchao")
    plain = tiny_masked_lm(6) if masked else tiny_causal_lm(6)
    folder = _saved(plain, tmp_path / "model")
    quantized = load_language_model(str(folder), quantization="int8", device="cpu")
    assert quantized.placed and quantized.model.is_quantized
    places = parameter_places(quantized.model)
    int8 = {name for name, place in places.items() if place[2] == "Int8Tensor"}
    assert len(int8) >= 4  # the linear layers hold int8 tensors (the head stays float)
    scores = every_verb(quantized, masked=masked)
    assert parameter_places(quantized.model) == places  # not dequantized, not moved
    with pytest.raises(DeviceError, match="cannot be cast"):
        load_language_model(quantized, dtype=torch.bfloat16)
    # as the Trainer callback hands it in: the pair, with the model's own device
    again = load_language_model(
        (quantized.model, quantized.tokenizer), device=quantized.model.device
    )
    assert again.model is quantized.model and again.placed
    assert parameter_places(quantized.model) == places
    reference = every_verb(plain, masked=masked)
    for found, expected in zip(scores, reference):
        assert np.all(np.isfinite(found))
        # int8 weights with a scale per row: close to float32, not equal to it
        assert 0 < np.abs(found - expected).max() < 0.05 * np.abs(expected).max()


def test_the_cli_loads_with_the_placement_options(tmp_path, capsys):
    """score-pairs with --device-map/--max-memory/--offload-folder and with --quantization:
    the scores of the plain model (offloaded) or close to them (int8)."""
    import json

    from poetic_eval.cli import main
    from poetic_eval.cli.arguments import device_map_value, max_memory_value

    assert max_memory_value("0=20GiB,cpu=60000") == {0: "20GiB", "cpu": 60000}
    assert device_map_value('{"": "cpu"}') == {"": "cpu"}
    with pytest.raises(Exception, match="did you mean"):
        device_map_value("balance")
    plain = tiny_causal_lm(2)
    folder = _saved(plain, tmp_path / "model")
    good, bad = random_minimal_pairs(15, 3)
    source = tmp_path / "pairs.jsonl"
    source.write_text("".join(json.dumps({"good": g, "bad": b}) + "\n" for g, b in zip(good, bad)))
    common = ["score-pairs", "--dataset", str(source), "--model", str(folder), "--no-progress"]
    placements = {
        "offloaded": ["--device-map", "auto", "--max-memory", "cpu=20000",
                      "--offload-folder", str(tmp_path / "off")],
        "int8": ["--quantization", "int8", "--device", "cpu"],
    }  # fmt: skip
    expected = np.stack(plain.score_pairs(good, bad), axis=1)
    for name, options in placements.items():
        if name == "int8" and importlib.util.find_spec("torchao") is None:
            continue
        out = tmp_path / f"{name}.jsonl"
        assert main([*common, *options, "--out", str(out)]) == 0, capsys.readouterr().err
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        found = np.array([[row["good_score"], row["bad_score"]] for row in rows])
        tolerance = TOLERANCE if name == "offloaded" else 0.05 * np.abs(expected).max()
        assert np.abs(found - expected).max() < tolerance, name
