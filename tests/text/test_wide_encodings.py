"""A UTF-16 or UTF-32 file is named as such with the iconv line that converts it, not told to
convert from Latin-1 (issue 39, item 5)."""

from __future__ import annotations

import pytest

from poetic_eval.cli import main
from poetic_eval.text import read_text_file
from poetic_eval.text.text_files import TextFileError, wide_encoding

TEXT = "the poet sings\nof the sea\n"


@pytest.mark.parametrize(
    "encoding, name",
    [
        ("utf-16", "utf-16"),  # with its byte-order mark
        ("utf-16-le", "utf-16"),  # none: NUL in every other byte
        ("utf-16-be", "utf-16"),
        ("utf-32", "utf-32"),
    ],
)
def test_wide_encodings_get_their_own_hint(tmp_path, encoding, name):
    path = tmp_path / "poems.txt"
    path.write_bytes(TEXT.encode(encoding))
    with pytest.raises(TextFileError, match=rf"{path}: not UTF-8 text.*iconv -f {name} -t utf-8"):
        read_text_file(path)
    assert wide_encoding(path.read_bytes()) == name


def test_latin1_keeps_the_latin1_hint(tmp_path):
    path = tmp_path / "poems.txt"
    path.write_bytes("Straße und Öl\n".encode("latin-1"))
    with pytest.raises(TextFileError, match="iconv -f latin1 -t utf-8"):
        read_text_file(path)
    assert wide_encoding(path.read_bytes()) is None
    assert wide_encoding(b"the poet") is None


def test_a_utf16_pair_file_gets_the_utf16_hint(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes('{"good": "the poet sings", "bad": "the poet sing"}\n'.encode("utf-16"))
    assert main(["score-pairs", "--dataset", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    expected = (
        f"poetic-eval score-pairs: error: dataset {path}: not UTF-8 text; it is UTF-16 text: "
        "convert it, e.g. iconv -f utf-16 -t utf-8 OLD > NEW"
    )
    assert err == [expected]
