"""A lone surrogate in a poem, a JSON poem file or a checked text list is named by its row
(issue 39, item 4: tokenizers and Arrow fail on it with errors that name no row)."""

from __future__ import annotations

import pytest

from poetic_eval.text import read_poems_by_suffix, require_texts


@pytest.mark.parametrize("bad", [chr(0xDC80), chr(0xD800), "x" + chr(0xDFFF) + "y"])
def test_require_texts_names_the_row(bad):
    with pytest.raises(ValueError, match=r"poems\[2\] holds a lone surrogate \(U\+D[89A-F]"):
        require_texts(["fine", "also fine", f"a {bad} poem"], "poems")


def test_a_proper_pair_and_other_scripts_pass():
    texts = ["emoji \U0001f600 pair", "詩 and äöü", "tab\tand\nnewline"]
    assert require_texts(texts, "poems") == texts


def test_a_json_escape_in_a_poem_file_is_named(tmp_path):
    path = tmp_path / "poems.jsonl"
    path.write_text('"first poem"\n"a \\udc80 poem"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{path}:2 holds a lone surrogate \(U\+DC80 at char"):
        read_poems_by_suffix(path)
