"""The corpus statistics kept on disk: shared by processes started at once, keyed by the
corpus content and the options, and a damaged file named and rebuilt."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from encoder_doubles import CountingEncoder

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import poetic_diversity
from poetic_eval.files.array_cache import CacheFileWarning
from poetic_eval.text import PoemCorpus
from poetic_eval.text.corpus import DISK_CACHE_MIN_POEMS

DIMENSIONS = ["length", "rhyme", "lexical"]
SRC = Path(__file__).resolve().parents[2] / "src"
TESTS = Path(__file__).resolve().parents[1]

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from encoder_doubles import CountingEncoder
    from poetic_eval.diversity import poetic_diversity
    from poetic_eval.text import PoemCorpus
    from bench.synthetic_poems import SyntheticPoems
    poems = SyntheticPoems(3)
    human = PoemCorpus(poems.rhyming_quatrains({count}), cache_dir=sys.argv[1])
    encoder = CountingEncoder()
    scores = poetic_diversity(
        poems.rhyming_quatrains(20), human, dimensions={dimensions}, semantic_model=encoder
    )
    print(json.dumps({{"scores": scores, "encoded": encoder.encoded_texts}}, sort_keys=True))
    """
)


def corpus_poems(seed: int = 3) -> tuple[list[str], list[str]]:
    poems = SyntheticPoems(seed)
    return poems.rhyming_quatrains(DISK_CACHE_MIN_POEMS), poems.rhyming_quatrains(20)


def cache_files(folder: Path) -> list[Path]:
    return sorted((folder / "corpus").iterdir())


def recomputations(monkeypatch) -> list[str]:
    """Names of the corpus statistics computed (not read from disk) from now on."""
    calls: list[str] = []
    for module_name, function in [
        ("poetic_eval.diversity.rhyme_distribution", "_schemes_of_quatrains"),
        ("poetic_eval.diversity.length", "length"),
        ("poetic_eval.diversity.lexical", "poem_type_ids"),
    ]:
        module = importlib.import_module(module_name)
        original = getattr(module, function)

        def counted(*args, _original=original, _name=function, **kwargs):
            calls.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, function, counted)
    return calls


@pytest.mark.slow  # two fresh processes: about 30 s on 2 busy cores
def test_two_processes_started_at_once_share_the_cache(tmp_path):
    """The derived statistics and the reference embeddings (both through ArrayCache files)."""
    script = _SCRIPT.format(count=DISK_CACHE_MIN_POEMS, dimensions=[*DIMENSIONS, "semantic"])
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS), os.environ.get("PYTHONPATH", "")]),
        "POETIC_EVAL_CACHE": str(tmp_path),
    }
    started = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=300) for process in started]
    assert [process.returncode for process in started] == [0, 0], outputs
    first, second = (json.loads(out) for out, _ in outputs)
    assert first["scores"] == second["scores"]
    files = cache_files(tmp_path)
    assert [path.suffix for path in files] == [".npz"] * 3  # no temporary file left
    embeddings = sorted((tmp_path / "embeddings").iterdir())
    assert embeddings and {path.suffix for path in embeddings} == {".npz"}
    assert not any("CacheFileWarning" in err for _, err in outputs)
    with warnings.catch_warnings():  # what they left is sound, and read back here
        warnings.simplefilter("error", CacheFileWarning)
        human, generated = corpus_poems()
        encoder = CountingEncoder()
        again = poetic_diversity(
            generated,
            PoemCorpus(human, cache_dir=tmp_path),
            dimensions=[*DIMENSIONS, "semantic"],
            semantic_model=encoder,
            semantic_cache_dir=tmp_path,
        )
    assert json.loads(json.dumps(again, sort_keys=True)) == first["scores"]
    assert encoder.encoded_texts == len(generated)  # the references came from the disk


def test_a_new_corpus_object_reads_the_disk_and_keys_follow_content(tmp_path, monkeypatch):
    human, generated = corpus_poems()
    expected = poetic_diversity(generated, human, dimensions=DIMENSIONS)
    first = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS
    )
    assert first == expected
    calls = recomputations(monkeypatch)
    again = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS
    )
    assert again == expected
    assert calls.count("_schemes_of_quatrains") == 1  # the predictions' own, not the corpus's
    assert "poem_type_ids" in calls  # the predictions' lexical scores
    assert calls.count("length") < len(human)  # the predictions' lengths only
    changed = [*human[:-1], human[0]]
    calls.clear()
    poetic_diversity(generated, PoemCorpus(changed, cache_dir=tmp_path), dimensions=DIMENSIONS)
    assert calls.count("_schemes_of_quatrains") == 2 and calls.count("length") > len(human)
    calls.clear()
    options = {"length_remove_punctuation": False, "rhyme_method": "perfect"}
    corpus = PoemCorpus(human, cache_dir=tmp_path)
    poetic_diversity(generated, corpus, dimensions=DIMENSIONS, **options)
    assert calls.count("_schemes_of_quatrains") == 2 and calls.count("length") > len(human)


def test_small_corpora_and_plain_lists_write_nothing(tmp_path):
    poems = SyntheticPoems(4)
    small = PoemCorpus(poems.rhyming_quatrains(DISK_CACHE_MIN_POEMS - 1), cache_dir=tmp_path)
    poetic_diversity(poems.rhyming_quatrains(5), small, dimensions=DIMENSIONS)
    off = PoemCorpus(corpus_poems()[0], cache_dir=tmp_path, disk_cache=False)
    poetic_diversity(poems.rhyming_quatrains(5), off, dimensions=DIMENSIONS)
    assert not (tmp_path / "corpus").exists()


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "empty"])
def test_a_damaged_cache_file_is_named_and_rebuilt(tmp_path, damage):
    human, generated = corpus_poems()
    expected = poetic_diversity(
        generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS
    )
    (victim,) = [p for p in cache_files(tmp_path) if ".rhyme-schemes." in p.name]
    data = victim.read_bytes()
    if damage == "truncated":
        victim.write_bytes(data[: len(data) // 2])
    elif damage == "flipped byte":
        position = data.index(b"ABCD") if b"ABCD" in data else len(data) // 3
        victim.write_bytes(data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1 :])
    else:
        victim.write_bytes(b"")
    with pytest.warns(CacheFileWarning) as caught:
        again = poetic_diversity(
            generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS
        )
    assert again == expected
    message = str(caught[0].message)
    assert str(victim) in message and "rebuilt" in message and str(tmp_path) in message
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheFileWarning)
        poetic_diversity(generated, PoemCorpus(human, cache_dir=tmp_path), dimensions=DIMENSIONS)


def memorization_inputs() -> tuple[list[str], list[str]]:
    """A disk-cached corpus size, and generated poems with near copies of it (every level
    has matches)."""
    poems = SyntheticPoems(8)
    human = poems.rhyming_quatrains(DISK_CACHE_MIN_POEMS)
    generated = poems.rhyming_quatrains(10)
    generated += [poems.near_copy(poems.rng.choice(human)) for _ in range(20)]
    return human, generated


def index_builds(monkeypatch) -> list[str]:
    """Levels whose memorization training index is built (not read from disk) from now on."""
    module = importlib.import_module("poetic_eval.diversity.memorization")
    built: list[str] = []
    original = module._training_index

    def counted(references, level):
        built.append(level)
        return original(references, level)

    monkeypatch.setattr(module, "_training_index", counted)
    return built


@pytest.mark.floors
def test_a_new_corpus_object_reads_the_memorization_index_from_disk(tmp_path, monkeypatch):
    from poetic_eval.diversity import memorization

    human, generated = memorization_inputs()
    expected = memorization(generated, human, return_matches=True)  # a plain list: no cache
    assert all(expected["matches"][level] for level in ("quatrain", "couplet", "verse"))
    built = index_builds(monkeypatch)
    first = memorization(generated, PoemCorpus(human, cache_dir=tmp_path), return_matches=True)
    assert first == expected and sorted(built) == ["couplet", "quatrain", "verse"]
    stored = [p for p in cache_files(tmp_path) if ".memorization-index." in p.name]
    assert len(stored) == 3
    built.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheFileWarning)
        again = memorization(generated, PoemCorpus(human, cache_dir=tmp_path), return_matches=True)
    assert again == expected and built == []  # all three levels came from the disk
    other = PoemCorpus([*human[:-1], human[0]], cache_dir=tmp_path)  # other content, other key
    memorization(generated, other, levels="verse")
    assert built == ["verse"]


@pytest.mark.parametrize("damage", ["truncated", "flipped byte"])
def test_a_damaged_memorization_index_is_named_and_rebuilt(tmp_path, monkeypatch, damage):
    from poetic_eval.diversity import memorization

    human, generated = memorization_inputs()
    expected = memorization(generated, PoemCorpus(human, cache_dir=tmp_path), return_matches=True)
    victim = next(p for p in cache_files(tmp_path) if ".memorization-index." in p.name)
    data = victim.read_bytes()
    if damage == "truncated":
        victim.write_bytes(data[: len(data) // 2])
    else:
        position = len(data) // 2
        victim.write_bytes(data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1 :])
    built = index_builds(monkeypatch)
    with pytest.warns(CacheFileWarning) as caught:
        again = memorization(generated, PoemCorpus(human, cache_dir=tmp_path), return_matches=True)
    assert again == expected and len(built) == 1  # the damaged level only
    message = str(caught[0].message)
    assert str(victim) in message and "rebuilt" in message
    built.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheFileWarning)
        third = memorization(generated, PoemCorpus(human, cache_dir=tmp_path), return_matches=True)
    assert third == expected and built == []  # the rebuilt file was written back


def test_a_stored_form_that_does_not_decode_is_named_and_rebuilt(tmp_path):
    """A file whose checksum holds but whose arrays do not fit together is recomputed."""
    from poetic_eval.text import StoredForm

    human, _ = corpus_poems()
    calls: list[int] = []

    def compute() -> list[int]:
        calls.append(1)
        return [len(poem) for poem in human]

    def decode(arrays):
        if arrays["lengths"].size != len(human):
            raise ValueError("lengths of the wrong size")
        return arrays["lengths"].tolist()

    def broken(value):
        return {"lengths": np.asarray(value[:-1])}

    good = StoredForm("test-lengths", "v1", lambda v: {"lengths": np.asarray(v)}, decode)
    PoemCorpus(human, cache_dir=tmp_path).derived(
        "lengths", compute, StoredForm("test-lengths", "v1", broken, decode)
    )
    with pytest.warns(CacheFileWarning, match="test-lengths cache file .* does not decode"):
        again = PoemCorpus(human, cache_dir=tmp_path).derived("lengths", compute, good)
    assert again == [len(poem) for poem in human] and len(calls) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheFileWarning)
        assert PoemCorpus(human, cache_dir=tmp_path).derived("lengths", compute, good) == again
    assert len(calls) == 2  # the rebuilt file was written and is read back
