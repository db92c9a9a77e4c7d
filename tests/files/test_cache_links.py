"""Cache files are never written through a link they did not make, and a manifest of another
shape is rebuilt, not a crash (issue 39, items 2 and 4)."""

from __future__ import annotations

import json
import os
import stat
import warnings

import numpy as np
import pytest

from poetic_eval.diversity.embedding_cache import EmbeddingCache
from poetic_eval.files import LinkRefusedError, atomic_folder, atomic_path, write_text_atomically
from poetic_eval.files.array_cache import ArrayCache, CacheFileWarning


def _secret(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("private key\n")
    secret.chmod(0o600)
    return secret


def _untouched(secret) -> bool:
    return secret.read_text() == "private key\n" and stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_a_planted_embedding_entry_link_is_neither_read_nor_written_through(tmp_path):
    secret = _secret(tmp_path)
    cache = EmbeddingCache(tmp_path / "cache")
    entry = cache.store.path("abc123", "embeddings")
    entry.parent.mkdir(parents=True)
    entry.symlink_to(secret)
    assert cache.load("abc123", "embeddings", rows=2, width=3) is None
    with pytest.warns(UserWarning, match="symbolic link that poetic-eval did not make") as caught:
        cache.save("abc123", "embeddings", np.ones((2, 3), dtype=np.float32))
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    assert str(entry) in str(caught[0].message)
    assert _untouched(secret) and entry.is_symlink()
    assert sorted(p.name for p in entry.parent.iterdir()) == [entry.name]  # no staging left


def test_a_dangling_entry_link_is_refused_too(tmp_path):
    cache = ArrayCache("corpus", tmp_path / "cache")
    entry = cache.path("k", "stats")
    entry.parent.mkdir(parents=True)
    entry.symlink_to(tmp_path / "created-elsewhere.npz")
    with pytest.warns(UserWarning, match="symbolic link"):
        cache.save("k", "stats", {"values": np.arange(3)})
    assert not (tmp_path / "created-elsewhere.npz").exists()


def test_a_cache_subfolder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "cache"
    root.mkdir()
    (root / "embeddings").symlink_to(elsewhere, target_is_directory=True)
    cache = EmbeddingCache(root)
    with pytest.warns(UserWarning, match="embeddings is a symbolic link"):
        cache.save("k", "embeddings", np.ones((1, 2)))
    assert list(elsewhere.iterdir()) == []


def test_a_cache_root_that_is_a_link_is_the_users_choice(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "cache").symlink_to(real, target_is_directory=True)
    cache = EmbeddingCache(tmp_path / "cache")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cache.save("k", "embeddings", np.ones((1, 2)))
        assert cache.load("k", "embeddings", rows=1, width=2) is not None
    assert (real / "embeddings" / "k.embeddings.npz").is_file()


@pytest.mark.parametrize("mask, mode", [(0o077, 0o600), (0o022, 0o644)])
def test_cache_files_keep_the_umask_mode(tmp_path, mask, mode):
    previous = os.umask(mask)
    try:
        ArrayCache("embeddings", tmp_path).save("k", "embeddings", {"values": np.ones(2)})
    finally:
        os.umask(previous)
    written = tmp_path / "embeddings" / "k.embeddings.npz"
    assert stat.S_IMODE(written.stat().st_mode) == mode


def test_the_writers_refuse_links_under_a_cache_root(tmp_path):
    secret = _secret(tmp_path)
    root = tmp_path / "cache"
    root.mkdir()
    (root / "entry").symlink_to(secret)
    with pytest.raises(LinkRefusedError), atomic_path(root / "entry", links_refused_under=root):
        pass
    with pytest.raises(LinkRefusedError):
        write_text_atomically(root / "entry", "x", links_refused_under=root)
    folder_secret = tmp_path / "folder"
    folder_secret.mkdir()
    (folder_secret / "keep").write_text("keep")
    (root / "model").symlink_to(folder_secret, target_is_directory=True)
    with pytest.raises(LinkRefusedError), atomic_folder(root / "model", links_refused_under=root):
        pass
    assert _untouched(secret) and (folder_secret / "keep").read_text() == "keep"
    assert sorted(p.name for p in root.iterdir()) == ["entry", "model"]


def _with_manifest(path, manifest) -> None:
    with open(path, "wb") as stream:
        np.savez(stream, values=np.ones(2), manifest=np.array(manifest))


@pytest.mark.parametrize(
    "manifest",
    [
        json.dumps([1, 2, 3]),
        json.dumps("poetic-eval-array-cache/v1"),
        json.dumps({"format": "poetic-eval-array-cache/v1", "arrays": [1]}),
        json.dumps({"format": "poetic-eval-array-cache/v1", "arrays": {"values": 3}}),
        json.dumps({"format": "poetic-eval-array-cache/v1", "arrays": {"values": {"shape": 2}}}),
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["list", "string", "arrays-list", "entry-int", "shape-int", "deeply-nested"],
)
def test_a_manifest_of_another_shape_is_named_and_rebuilt(tmp_path, manifest):
    cache = ArrayCache("embeddings", tmp_path)
    path = cache.path("k", "embeddings")
    path.parent.mkdir(parents=True)
    _with_manifest(path, manifest)
    with pytest.warns(CacheFileWarning, match=rf"cache file {path} is .*rebuilt now") as caught:
        assert cache.load("k", "embeddings") is None
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    cache.save("k", "embeddings", {"values": np.arange(2.0)})
    assert np.array_equal(cache.load("k", "embeddings")["values"], np.arange(2.0))


def test_install_metrics_refuses_a_planted_pointer_link(tmp_path):
    from poetic_eval.evaluate_modules.bare_names import install_metrics

    secret = _secret(tmp_path)
    cache = tmp_path / "modules"
    [metric] = install_metrics(["mtld"], modules_cache=cache)
    metric.pointer.unlink()
    metric.pointer.symlink_to(secret)
    with pytest.raises(LinkRefusedError, match=rf"{metric.pointer} is a symbolic link"):
        install_metrics(["mtld"], modules_cache=cache)
    assert _untouched(secret)
