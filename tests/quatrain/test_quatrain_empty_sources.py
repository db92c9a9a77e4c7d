"""QuaTrain sources that hold no records: the error names the JSON file, not stanzas."""

from __future__ import annotations

import json

import pytest

from poetic_eval.cli import main as cli_main
from poetic_eval.quatrain import read_quatrain_source

BLANK_CONTENTS = {
    "empty": b"",
    "whitespace": b"  \n\n\t\r\n  \n",
    "bom only": b"\xef\xbb\xbf\n\n",
    "long whitespace": b" \n" * 70_000,
}


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".JSONL", ".ndjson"])
@pytest.mark.parametrize("content", list(BLANK_CONTENTS.values()), ids=list(BLANK_CONTENTS))
def test_an_empty_or_blank_json_source_says_the_json_file_holds_no_records(
    tmp_path, suffix, content
):
    source = tmp_path / f"QuaTrain-en{suffix}"
    source.write_bytes(content)
    with pytest.raises(ValueError) as raised:
        read_quatrain_source(source)
    message = str(raised.value)
    assert message.startswith(f"{source}: the JSON file holds no records")
    assert "stanza" not in message


def test_an_empty_json_list_and_blank_json_lines_say_the_same(tmp_path):
    listed = tmp_path / "list.json"
    listed.write_text(" [ \n ] \n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"list\.json: the JSON file holds no records"):
        read_quatrain_source(listed)


def test_json_after_more_than_64k_of_whitespace_is_still_json(tmp_path):
    source = tmp_path / "padded.jsonl"
    record = {"text": ["a", "b", "c", "d"], "language": "en"}
    source.write_text(" \n" * 40_000 + json.dumps(record) + "\n", encoding="utf-8")
    corpus = read_quatrain_source(source)
    assert len(corpus.line_ids) == 1


def test_a_blank_text_source_still_speaks_of_stanzas(tmp_path):
    source = tmp_path / "stanzas.txt"
    source.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no stanza of 4 or more lines"):
        read_quatrain_source(source)


def test_the_builder_reports_the_empty_json_file_and_writes_nothing(tmp_path, capsys):
    source = tmp_path / "QuaTrain-en.jsonl"
    source.write_text("\n", encoding="utf-8")
    out = tmp_path / "out"
    status = cli_main(["build", "quatrain", "--source", str(source), "--out", str(out)])
    error = capsys.readouterr().err
    assert status == 1
    assert "QuaTrain-en.jsonl: the JSON file holds no records" in error
    assert not out.exists()
