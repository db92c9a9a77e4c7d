"""Every text source is read one way: a UTF-8 byte-order mark is dropped, Windows line ends are
made "\\n", and a file that is not UTF-8 is refused with its name."""

from __future__ import annotations

import json

import pytest

from poetic_eval.agreement import convert_source, load_lexicon
from poetic_eval.analyzers import read_poem_collection
from poetic_eval.blm import read_blm_items
from poetic_eval.blm.records import make_blm_record
from poetic_eval.cli.analyze import read_topics
from poetic_eval.limericks import read_limerick_source
from poetic_eval.quatrain import read_quatrain_source
from poetic_eval.text import TextFileError, read_poem_blocks, read_poems_by_suffix, read_text_file

BOM = b"\xef\xbb\xbf"
LIMERICK = (
    "A baker who lived by the quay\nBaked bread that was harder than key;\n"
    "When a gull took a crust\nIt went down with a thrust,\nAnd it sank like a stone in the sea."
)
QUATRAIN = ["The moon is high above the hill", "the night is long, the air is still", "a", "b"]


def written(tmp_path, name: str, text: str, *, bom: bool = True, crlf: bool = False):
    path = tmp_path / name
    data = text.replace("\n", "\r\n") if crlf else text
    path.write_bytes((BOM if bom else b"") + data.encode("utf-8"))
    return path


def first_quatrain_line(corpus) -> str:
    return corpus.line_texts[int(corpus.line_ids[0][0])]


def blm_json() -> str:
    record = make_blm_record(
        1,
        [f"frase {n}" for n in range(1, 8)],
        [f"risposta {letter}" for letter in "ABCDEFGH"],
        4,
        ["IR-trans", "IER-pass", "ER-pass", "R-trans", "Correct", "I-Int", "E-WrBy", "IE-WrBy"],
        verb="aprire",
        context_annotation=[{"pattern": "x", "chunks": []}] * 7,
        answer_annotation=[{"pattern": "y", "chunks": []}] * 8,
    )
    return json.dumps([record], ensure_ascii=False)


# reader, file name, content, and what the first record must equal without the mark
SOURCES = {
    "poem file (.txt)": (
        lambda p: read_poems_by_suffix(p)[0],
        "poems.txt",
        "Über den Bergen\nthe night\n\nsecond poem",
        "Über den Bergen\nthe night",
    ),
    "poem file (.jsonl)": (
        lambda p: read_poems_by_suffix(p)[0],
        "poems.jsonl",
        '"first poem"\n"second"',
        "first poem",
    ),
    "poem file (.json)": (
        lambda p: read_poems_by_suffix(p)[1],
        "poems.json",
        '["a", "b c"]',
        "b c",
    ),
    "read_poem_blocks": (
        lambda p: read_poem_blocks(p)[0],
        "poems.txt",
        "one\ntwo\n\nthree",
        "one\ntwo",
    ),
    "limericks (text)": (
        lambda p: read_limerick_source(p)[0].text,
        "limericks.txt",
        LIMERICK,
        LIMERICK,
    ),
    "limericks (OEDILF JSON, no .json suffix)": (
        lambda p: read_limerick_source(p)[0].text,
        "limericks.data",
        json.dumps([{"limerick": LIMERICK, "is_limerick": True}]),
        LIMERICK,
    ),
    "agreement source": (
        lambda p: convert_source(p).configs["simple_agrmt"][0].sentence_good,
        "simple_agrmt_all.jsonl",
        json.dumps(
            {"sentence_good": "The cat runs .", "sentence_bad": "The cat run .", "label": -1}
        )
        + "\n",
        "The cat runs .",
    ),
    "BLM items": (lambda p: read_blm_items(p)[0].context[0], "items.json", blm_json(), "frase 1"),
    "quatrain source (JSON lines)": (
        lambda p: first_quatrain_line(read_quatrain_source(p)),
        "quatrains.jsonl",
        json.dumps({"text": QUATRAIN, "language": "en"}),
        QUATRAIN[0],
    ),
    "quatrain source (text)": (
        lambda p: first_quatrain_line(read_quatrain_source(p)),
        "stanzas.txt",
        "\n".join(QUATRAIN),
        QUATRAIN[0],
    ),
    "analyzer poem file": (
        lambda p: read_poem_collection(p).poems[0],
        "poem.txt",
        "Whose woods these are\nI think I know",
        "Whose woods these are\nI think I know",
    ),
    "analyzer topics": (lambda p: read_topics(p, ["a", "b"])[0], "topics.txt", "sea\nlove", "sea"),
}


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_a_byte_order_mark_is_dropped(tmp_path, source, crlf):
    read, name, text, first = SOURCES[source]
    with_mark = read(written(tmp_path, name, text, crlf=crlf))
    (tmp_path / "plain").mkdir()
    without = read(written(tmp_path / "plain", name, text, bom=False))
    assert with_mark == without == first


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_a_file_that_is_not_utf8_is_named(tmp_path, source):
    read, name, text, _ = SOURCES[source]
    path = tmp_path / name
    path.write_bytes(text.replace("e", "\xe9").encode("latin-1") + b"\xe9")
    with pytest.raises(ValueError, match=rf"^{path}\S*( \(record 0\))?: not UTF-8 text \("):
        read(path)


def test_the_lexicon_readers_read_through_the_same_function(tmp_path):
    path = written(tmp_path, "lexicon.json", "[]")
    with pytest.raises(TypeError, match="expected a JSON object"):  # parsed: the mark is gone
        load_lexicon(path)
    path.write_bytes(b'{"nouns": "caf\xe9"}')
    with pytest.raises(ValueError, match=r"lexicon\.json: not UTF-8 text"):
        load_lexicon(path)


def test_read_text_file(tmp_path):
    path = written(tmp_path, "a.txt", "one\ntwo\r\nthree\rfour")
    assert read_text_file(path) == "one\ntwo\nthree\nfour"
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_text_file(tmp_path / "missing.txt")
    with pytest.raises(OSError, match="is a folder, not a regular file"):
        read_text_file(tmp_path)
    (tmp_path / "latin.txt").write_bytes("café".encode("latin-1"))
    with pytest.raises(
        TextFileError, match=r"latin\.txt: not UTF-8 text \(byte 0xe9 at offset 3\)"
    ):
        read_text_file(tmp_path / "latin.txt")
