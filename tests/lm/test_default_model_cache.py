"""The converted default model's cache verifies itself: faults injected into a conversion of a
tiny model (the GGUF reader replaced), then the real conversion against the GGUF-loaded model."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from tiny_language_models import tiny_causal_lm

from poetic_eval.lm import default_model, default_model_cache_dir, load_language_model, score_texts

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture
def conversions(tmp_path, monkeypatch) -> list[int]:
    """A cache in tmp_path, a fake GGUF file and a converter that de-quantizes nothing: it
    hands over a tiny random Llama (the same each time). Returns the list of conversions."""
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "cache"))
    gguf = tmp_path / "package" / "SmolLM2.gguf"
    gguf.parent.mkdir()
    gguf.write_bytes(np.random.default_rng(0).integers(0, 256, 3 << 20, np.uint8).tobytes())
    monkeypatch.setattr(default_model, "default_gguf_path", lambda: gguf)
    done: list[int] = []

    def dequantized():
        done.append(1)
        lm = tiny_causal_lm(seed=0)
        return lm.model, lm.tokenizer

    monkeypatch.setattr(default_model, "_dequantized_gguf", dequantized)
    return done


def _original_weights() -> dict[str, torch.Tensor]:
    return tiny_causal_lm(seed=0).model.state_dict()


def _same_as_converted(lm) -> bool:
    original = _original_weights()
    return all(torch.equal(value, original[name]) for name, value in lm.model.state_dict().items())


def _truncate(path: Path) -> None:
    with open(path, "r+b") as stream:
        stream.truncate(path.stat().st_size // 2)


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _scribble(path: Path) -> None:
    """Same size, broken JSON (as a bad sector or a stray write would leave it)."""
    data = bytearray(path.read_bytes())
    data[10:30] = b"#" * 20
    path.write_bytes(bytes(data))


def _zero_first_tensor(path: Path) -> None:
    """Zero one tensor's bytes in place: a safetensors file of the same size and valid form."""
    with open(path, "r+b") as stream:
        (header_size,) = struct.unpack("<Q", stream.read(8))
        header = json.loads(stream.read(header_size))
        name = min(k for k in header if k != "__metadata__")
        start, end = header[name]["data_offsets"]
        stream.seek(8 + header_size + start)
        stream.write(b"\0" * (end - start))


FAULTS = {
    "truncated safetensors": ("model.safetensors", _truncate, "of \\d+ bytes, \\d+ at conversion"),
    "empty safetensors": ("model.safetensors", _empty, "of 0 bytes"),
    "broken tokenizer": ("tokenizer.json", _scribble, "tokenizer.json changed since"),
    "truncated tokenizer": ("tokenizer.json", _truncate, "tokenizer.json of \\d+ bytes"),
    "zeroed tensor": ("model.safetensors", _zero_first_tensor, "model.safetensors changed since"),
    "no manifest": (default_model.MANIFEST, Path.unlink, "no readable poetic_eval_manifest"),
    "broken manifest": (default_model.MANIFEST, _scribble, "no readable poetic_eval_manifest"),
    "missing tokenizer config": ("tokenizer_config.json", Path.unlink, "lacks tokenizer_config"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_damaged_conversion_is_detected_and_converted_again(conversions, fault):
    load_language_model(device="cpu")
    folder = default_model_cache_dir()
    name, damage, reason = FAULTS[fault]
    damage(folder / name)
    expected = rf"{re.escape(str(folder))} .*{reason}.*: converting it again .*always safe"
    with pytest.warns(UserWarning, match=expected):
        again = load_language_model(device="cpu")
    assert len(conversions) == 2
    assert _same_as_converted(again)
    assert default_model.conversion_problem(folder) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no note the time after
        load_language_model(device="cpu")
    assert len(conversions) == 2


def test_the_manifest_lists_every_file_and_an_untouched_cache_is_not_hashed(
    conversions, monkeypatch
):
    load_language_model(device="cpu")
    folder = default_model_cache_dir()
    files = json.loads((folder / default_model.MANIFEST).read_text())["files"]
    on_disk = {p.name for p in folder.iterdir()} - {default_model.MANIFEST, ".verified.json"}
    assert set(files) == on_disk and {"model.safetensors", "tokenizer.json"} <= on_disk
    for name, entry in files.items():
        digest = subprocess.run(
            ["sha256sum", str(folder / name)], capture_output=True, text=True, check=True
        ).stdout.split()[0]
        assert entry == {"size": (folder / name).stat().st_size, "sha256": digest}
    hashed = []
    original = default_model._file_sha256
    monkeypatch.setattr(
        default_model, "_file_sha256", lambda path: hashed.append(path.name) or original(path)
    )
    load_language_model(device="cpu")
    assert hashed == []  # the conversion recorded what it wrote
    os.utime(folder / "model.safetensors")  # touched, content unchanged: hashed once, kept
    load_language_model(device="cpu")
    assert hashed == ["model.safetensors"] and len(conversions) == 1
    load_language_model(device="cpu")
    assert hashed == ["model.safetensors"]


def _dead_pid() -> int:
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def test_partial_conversions_of_killed_runs_are_removed(conversions):
    load_language_model(device="cpu")
    folder = default_model_cache_dir()
    models = folder.parent
    prefix = folder.name.rsplit("-", 1)[0]
    killed = models / f".{folder.name}.building-{_dead_pid()}-k1"  # killed while another finished
    earlier = models / f".{prefix}-0123456789ab.building-{_dead_pid()}-k2"  # an earlier release
    running = models / f".{folder.name}.building-{os.getppid()}-r1"  # a conversion still running
    for leftover in (killed, earlier, running):
        leftover.mkdir()
        (leftover / "model.safetensors").write_bytes(b"\0" * 4096)
    load_language_model(device="cpu")
    assert not killed.exists() and not earlier.exists()
    assert running.is_dir()
    assert len(conversions) == 1


def test_a_cache_that_cannot_be_written_names_it_and_what_to_do(conversions, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(blocker / "cache"))
    with pytest.raises(default_model.ModelCacheError) as raised:
        load_language_model(device="cpu")
    assert conversions == []  # found before the 40 s of de-quantizing
    message = str(raised.value)
    assert str(blocker / "cache") in message and "set POETIC_EVAL_CACHE" in message
    assert "to clear it" in message and "\n" not in message


@pytest.mark.slow
def test_the_public_api_conversion_scores_as_the_gguf_loaded_model():
    """The cached conversion (model rebuilt from its config, the state dict loaded, saved with
    save_pretrained) against the model transformers reads from the GGUF file itself."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from poetic_eval.lm import DEFAULT_START_TOKEN, load_language_model

    converted = load_language_model(device="cpu")
    gguf = default_model.default_gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
    )
    direct = load_language_model((model, tokenizer), device="cpu")
    direct.start_token_id = tokenizer.convert_tokens_to_ids(DEFAULT_START_TOKEN)
    weights = converted.model.state_dict()
    assert all(torch.equal(weights[name], value) for name, value in model.state_dict().items())
    texts = [
        "There once was a poet from Leeds",
        "The kettle hums beside the window, low.",
        "Along the shore the gulls were calling",
    ]
    ours = score_texts(texts, converted, show_progress=False)
    theirs = score_texts(texts, direct, show_progress=False)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-5)
    assert converted.tokenizer.get_vocab() == tokenizer.get_vocab()


# Issue 39: links planted in the cache are refused, never followed; a full disk is one line.


def _precious_folder(tmp_path: Path) -> Path:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work\n")
    return precious


def test_a_model_folder_that_is_a_link_is_refused_and_its_target_untouched(conversions, tmp_path):
    from poetic_eval.files import LinkRefusedError

    precious = _precious_folder(tmp_path)
    folder = default_model_cache_dir()
    folder.parent.mkdir(parents=True)
    folder.symlink_to(precious, target_is_directory=True)
    with pytest.raises(LinkRefusedError, match=rf"{re.escape(str(folder))} is a symbolic link"):
        load_language_model(device="cpu")
    assert sorted(p.name for p in precious.iterdir()) == ["thesis.tex"]
    assert (precious / "thesis.tex").read_text() == "years of work\n"
    assert folder.is_symlink() and conversions == []


def test_a_models_folder_that_is_a_link_is_refused(conversions, tmp_path):
    from poetic_eval.files import LinkRefusedError

    precious = _precious_folder(tmp_path)
    models = default_model_cache_dir().parent
    models.parent.mkdir(parents=True)
    models.symlink_to(precious, target_is_directory=True)
    with pytest.raises(LinkRefusedError, match="models is a symbolic link"):
        load_language_model(device="cpu")
    assert sorted(p.name for p in precious.iterdir()) == ["thesis.tex"] and conversions == []


def test_a_linked_check_record_is_not_written_through(conversions, tmp_path):
    load_language_model(device="cpu")
    folder = default_model_cache_dir()
    secret = tmp_path / "secret.txt"
    secret.write_text("do not touch\n")
    secret.chmod(0o600)
    (folder / ".verified.json").unlink()
    (folder / ".verified.json").symlink_to(secret)
    with pytest.warns(UserWarning, match=r"\.verified\.json is a symbolic link"):
        load_language_model(device="cpu")
    assert secret.read_text() == "do not touch\n" and (secret.stat().st_mode & 0o777) == 0o600


def test_a_full_disk_during_the_conversion_is_one_line_and_leaves_nothing(conversions, monkeypatch):
    import transformers.modeling_utils
    from safetensors import SafetensorError

    def full_disk(*args, **kwargs):  # what safetensors raises on ENOSPC
        raise SafetensorError(
            'Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: "No '
            'space left on device" })'
        )

    monkeypatch.setattr(transformers.modeling_utils, "safe_save_file", full_disk)
    with pytest.raises(default_model.ModelCacheError, match="disk full") as raised:
        load_language_model(device="cpu")
    assert "\n" not in str(raised.value) and "nothing was left behind" in str(raised.value)
    models = default_model_cache_dir().parent
    assert list(models.iterdir()) == []
