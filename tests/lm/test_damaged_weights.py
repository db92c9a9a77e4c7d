"""A model folder whose weights file is damaged or holds a pickle of other objects is one line
naming the file, and nothing in the pickle runs (issue 39, item 4)."""

from __future__ import annotations

import pickle
import shutil

import pytest
import torch
from tiny_language_models import tiny_causal_lm

from poetic_eval.cli import main
from poetic_eval.lm import load_language_model
from poetic_eval.lm.model_sources import ModelFileError

pytestmark = pytest.mark.usefixtures("one_torch_thread")

RAN = []


def _ran(*args):
    RAN.append(args)


class Planted:
    """A pickle that would call :func:`_ran` if it were loaded without weights_only."""

    def __reduce__(self):
        return (_ran, ("code ran",))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    lm = tiny_causal_lm(seed=0)
    folder = tmp_path_factory.mktemp("tiny")
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder, lm


def _copy(saved, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(saved[0], folder)
    return folder


def _truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_a_truncated_safetensors_file_is_named(saved, tmp_path):
    folder = _copy(saved, tmp_path)
    _truncate(folder / "model.safetensors")
    with pytest.raises(ModelFileError, match=rf"weights file {folder}/model.safetensors cannot"):
        load_language_model(folder, device="cpu")


def test_a_safetensors_file_of_garbage_is_named(saved, tmp_path):
    folder = _copy(saved, tmp_path)
    (folder / "model.safetensors").write_bytes(b"\xff" * 64)
    with pytest.raises(ModelFileError, match="model.safetensors cannot be read .*header"):
        load_language_model(folder, device="cpu")


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_a_pickle_in_pytorch_model_bin_is_refused_and_not_run(saved, tmp_path):
    folder = _copy(saved, tmp_path)
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(Planted()))
    with pytest.raises(ModelFileError, match=r"pytorch_model.bin cannot be read \(it holds obj"):
        load_language_model(folder, device="cpu")
    assert RAN == []


def test_a_truncated_torch_checkpoint_is_named(saved, tmp_path):
    folder = _copy(saved, tmp_path)
    (folder / "model.safetensors").unlink()
    torch.save(saved[1].model.state_dict(), folder / "pytorch_model.bin")
    assert load_language_model(folder, device="cpu") is not None  # whole: it loads
    _truncate(folder / "pytorch_model.bin")
    with pytest.raises(ModelFileError, match=r"pytorch_model.bin cannot be read \(it is trunc"):
        load_language_model(folder, device="cpu")


def test_the_command_line_says_it_in_one_line(saved, tmp_path, capsys):
    folder = _copy(saved, tmp_path)
    _truncate(folder / "model.safetensors")
    source = tmp_path / "pairs.jsonl"
    source.write_text('{"good": "the poet", "bad": "the poets"}\n')
    assert main(["score-pairs", "--dataset", str(source), "--model", str(folder)]) == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("poetic-eval score-pairs: error: model ") and "model.safetensors" in last
