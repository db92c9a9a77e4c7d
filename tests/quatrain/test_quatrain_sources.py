"""QuaTrain sources: JSON list, JSON lines and plain text read alike; the bundled sample; bad
records named by file, line and record, and empty corpora."""

from __future__ import annotations

import json

import pytest
from quatrain_corpora import lines_of, synthetic_stanzas, windows_of, write_jsonl

from poetic_eval.cli import main as cli_main
from poetic_eval.quatrain import prepare_language, read_quatrain_source
from poetic_eval.resources import seed_path, seed_poems
from poetic_eval.rhyme import rhyme_scheme

# -- reading --------------------------------------------------------------------------------


def test_json_list_jsonl_and_bom_read_the_same(tmp_path):
    windows = windows_of(synthetic_stanzas(7, 30))
    records = [
        {"text": w, "language": "en", "rhyme": "ABAB", "meter": "iambus", "alliteration": 0.25}
        for w in windows
    ]
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8-sig")
    listed = tmp_path / "q.json"
    listed.write_text(json.dumps(records, indent=1), encoding="utf-8")
    one, two = read_quatrain_source(jsonl), read_quatrain_source(listed)
    assert (one.kind, two.kind) == ("jsonl", "json")
    assert lines_of(one, range(len(one))) == windows == lines_of(two, range(len(two)))
    assert one.label(0, "alliteration") == 0.25 and two.label(3, "meter") == "iambus"
    assert one.source_lines.tolist() == list(range(1, len(windows) + 1))
    assert two.lines(two.source_lines.argmax()) == windows[-1]


def test_text_corpus_gives_every_window_with_rhyme_computed(tmp_path):
    poems = seed_poems("quatrain_stanzas.txt")
    source = tmp_path / "stanzas.txt"
    source.write_text("\ufeff" + "\n\n\n".join(poems) + "\n", encoding="utf-8")
    corpus = read_quatrain_source(source, text_language="en")
    stanzas = [poem.split("\n") for poem in poems]
    assert lines_of(corpus, range(len(corpus))) == windows_of(stanzas)
    assert corpus.label(0, "rhyme") == rhyme_scheme("\n".join(stanzas[0][:4]))
    assert corpus.label(0, "meter") is None and corpus.label(0, "alliteration") is None
    file_lines = source.read_text(encoding="utf-8-sig").split("\n")
    for row in range(0, len(corpus), 17):
        assert file_lines[corpus.source_lines[row] - 1] == corpus.lines(row)[0]


GERMAN_STANZA = [
    "Es kam der erste Mai",  # Mai / sei and Höh / Schnee rhyme in German, not by English rules
    "Wir stiegen auf die Höh",
    "Dass es gesegnet sei",
    "Vergangen ist der Schnee",
]


def test_a_german_text_corpus_is_labelled_with_german_rhyme(tmp_path):
    source = tmp_path / "strophen.txt"
    source.write_text("\n".join(GERMAN_STANZA) + "\n", encoding="utf-8")
    text = "\n".join(GERMAN_STANZA)
    assert rhyme_scheme(text, language="de") != rhyme_scheme(text, language="en")
    corpus = read_quatrain_source(source, text_language="de")
    assert corpus.label(0, "rhyme") == rhyme_scheme(text, language="de") == "ABAB"


def test_a_text_corpus_in_a_language_without_rhyme_rules_is_refused(tmp_path):
    source = tmp_path / "strophes.txt"
    source.write_text("\n".join(GERMAN_STANZA) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="computed for en or de only, got language 'fr'"):
        read_quatrain_source(source, text_language="fr")


def test_the_bundled_sample_is_the_windows_of_the_bundled_stanzas():
    sample = read_quatrain_source(seed_path("quatrain_sample.jsonl"))
    stanzas = read_quatrain_source(seed_path("quatrain_stanzas.txt"))
    assert lines_of(sample, range(len(sample))) == lines_of(stanzas, range(len(stanzas)))
    assert [sample.label(r, "rhyme") for r in range(len(sample))] == [
        stanzas.label(r, "rhyme") for r in range(len(stanzas))
    ]


# -- bad input ------------------------------------------------------------------------------

GOOD = {"text": ["a", "b", "c", "d"], "language": "en"}


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ('{"text": ["a", "b", "c"], "language": "en"}', "'text' has 3 lines"),
        ('{"text": ["a", "b", 3, "d"], "language": "en"}', "line 3 of 'text' must be a string"),
        ('{"text": ["a", "b", "", "d"], "language": "en"}', "line 3 of 'text' is empty"),
        ('{"text": ["a", "b", "c", "d"], "language": "en",}', "invalid JSON"),
        ('{"lines": ["a", "b", "c", "d"], "language": "en"}', "missing field 'text'"),
        ('{"text": ["a", "b", "c", "d"]}', "'language' must be a language code"),
        ('{"text": ["a", "b", "c", "d"], "language": "en", "rhyme": ["A"]}', "'rhyme' must be"),
        ('{"text": ["a", "b", "c", "d"], "language": "en", "meter": 3}', "'meter' is a number"),
        ('["a", "b", "c", "d"]', "expected a record object"),
    ],
)
def test_a_bad_record_is_named_and_nothing_is_written(tmp_path, capsys, bad_line, message):
    source = tmp_path / "bad.jsonl"
    good = json.dumps({**GOOD, "meter": "iambus"})
    source.write_text(f"{good}\n{good}\n{bad_line}\n{good}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert cli_main(["build", "quatrain", "--source", str(source), "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert f"{source}:3 (record 2)" in error and message in error
    assert not out.exists()


def test_a_bad_record_of_a_json_list_names_its_line(tmp_path):
    source = tmp_path / "bad.json"
    source.write_text(
        '[\n {"text": ["a","b","c","d"], "language": "en"},\n'
        ' {"text": ["a","b"], "language": "en"}\n]\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"bad.json:3 \(record 1\): 'text' has 2 lines"):
        read_quatrain_source(source)
    source.write_text('[{"text": ["a","b","c","d"], "language": "en"}\n{"text": []}]')
    with pytest.raises(ValueError, match=r"bad.json:2 \(after record 0\): invalid JSON"):
        read_quatrain_source(source)


def test_empty_corpora_are_errors(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one\ntwo\nthree\n\nfour\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no stanza of 4 or more lines"):
        read_quatrain_source(short)
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    with pytest.raises(ValueError, match="no records"):
        read_quatrain_source(empty)
    repeated = write_jsonl(tmp_path / "r.jsonl", [["a", "a", "a", "a"]])
    with pytest.raises(ValueError, match="no en quatrain is left after de-duplication"):
        prepare_language(read_quatrain_source(repeated), "en", seed=0)
    few = write_jsonl(tmp_path / "few.jsonl", [[f"{i}{j}" for j in "abcd"] for i in range(4)])
    with pytest.raises(ValueError, match="only 4 en quatrains"):
        prepare_language(read_quatrain_source(few), "en", seed=0)
