"""The text-sequence digest that keys the corpus caches, against hashlib on the same bytes."""

import hashlib
import random

from poetic_eval.files import file_sha256, texts_sha256


def _reference(texts):
    digest = hashlib.sha256()
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def test_texts_digest_equals_length_prefixed_hashlib_on_generated_texts():
    rng = random.Random(0)
    alphabet = "ab \n\u00e9\u4e2d\U0001f600"
    for _ in range(50):
        texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 12))) for _ in range(5)]
        assert texts_sha256(texts) == _reference(texts)


def test_texts_digest_separates_boundaries_and_order():
    assert texts_sha256(["ab"]) != texts_sha256(["a", "b"])
    assert texts_sha256(["a", "b"]) != texts_sha256(["b", "a"])
    assert texts_sha256([]) == hashlib.sha256().hexdigest()


def test_texts_digest_takes_lone_surrogates():
    assert texts_sha256(["\ud800"]) == _reference(["\ud800"])


def test_file_digest_equals_hashlib(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(256)) * 5000)
    assert file_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest()
