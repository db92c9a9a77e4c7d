"""Unknown models, missing paths and absent devices: one clear error naming the argument,
before the loaders answer with a hub repo-id, connection or assertion error."""

from __future__ import annotations

import pytest
import torch

from poetic_eval.diversity import load_sentence_encoder, max_similarity
from poetic_eval.files import DeviceError, ModelNotFoundError
from poetic_eval.lm import (
    check_device,
    check_model_source,
    load_language_model,
    model_sources,
    score_texts,
)

LOADERS = {
    "language model": lambda model=None, device=None: load_language_model(model, device=device),
    "sentence encoder": lambda model=None, device=None: load_sentence_encoder(model, device),
}


@pytest.mark.parametrize("loader", sorted(LOADERS))
@pytest.mark.parametrize(
    "model, message",
    [
        ("./no/such/model", r"^model \./no/such/model: no such folder$"),
        ("/no/such/model", r"^model /no/such/model: no such folder$"),
        ("runs/2024/checkpoint-500", r"no such folder"),
        ("no such name!", r"neither a local folder nor a valid Hugging Face model name"),
        (
            "no-such-org/no-such-model",
            r"neither a local folder nor in the local Hugging Face cache",
        ),
    ],
)
def test_a_model_that_is_not_here_is_named(loader, model, message):
    with pytest.raises(ModelNotFoundError, match=message):
        LOADERS[loader](model)


def test_a_file_is_not_a_model_folder(tmp_path):
    (tmp_path / "model.bin").write_bytes(b"")
    with pytest.raises(ModelNotFoundError, match=r"model\.bin is a file; give the model's folder"):
        check_model_source(tmp_path / "model.bin")
    assert check_model_source(tmp_path) == str(tmp_path)


def test_online_loading_errors_name_the_model(monkeypatch):
    import transformers

    def unreachable(*args, **kwargs):
        raise OSError("We couldn't connect to 'https://huggingface.co' to load the files")

    monkeypatch.setattr(model_sources, "_offline", lambda: False)
    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", unreachable)
    with pytest.raises(
        ModelNotFoundError,
        match=r"^model 'someone/some-lm' could not be loaded: We couldn't connect .*check the name",
    ):
        load_language_model("someone/some-lm")


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_an_absent_device_is_named_before_loading(loader):
    with pytest.raises(DeviceError, match=r"^device 'cuda' is not available: .*; use device cpu"):
        LOADERS[loader](device="cuda")


def test_device_checks():
    check_device(None)
    check_device("cpu")
    check_device(torch.device("cpu"))
    with pytest.raises(DeviceError, match=r"^--device 'gpu0' is not a torch device"):
        check_device("gpu0", "--device")
    if not torch.cuda.is_available():
        with pytest.raises(DeviceError, match="CPU-only build|no CUDA GPU"):
            check_device("cuda:3")
        with pytest.raises(DeviceError, match="not available"):
            score_texts(["a text"], model=None, device="cuda")
        with pytest.raises(DeviceError, match="not available"):
            max_similarity(["a b", "c d"], device="cuda")
