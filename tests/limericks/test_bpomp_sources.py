"""bpomp sources (OEDILF JSON, plain text, errors naming file and record) and the limerick
verification."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from bpomp_cases import SEEDS

from poetic_eval.limericks import read_limerick_source
from poetic_eval.limericks.corruptions import verify_limericks
from poetic_eval.limericks.sources import LimerickRecord
from poetic_eval.rhyme import in_dictionary
from poetic_eval.text import write_poems

# --- sources -------------------------------------------------------------------------------


def test_seed_source_is_all_limericks(seed_limericks):
    records = read_limerick_source(SEEDS)
    assert len(records) >= 40
    assert len(seed_limericks) == len(records)
    for limerick in seed_limericks:
        assert all(in_dictionary(limerick.end_word(i)) for i in range(5)), limerick.text


def test_reads_oedilf_json(tmp_path):
    path = tmp_path / "oedilf.json"
    records = [
        {"id": 17, "limerick": "a\r\nb", "is_limerick": True, "author": "X"},
        {"limerick": "c\nd", "is_limerick": False},
        {"limerick": "e"},
    ]
    path.write_text(json.dumps(records), encoding="utf-8")
    read = read_limerick_source(path)
    assert read == [
        LimerickRecord("17", "a\nb", True, "X"),
        LimerickRecord("1", "c\nd", False, None),
        LimerickRecord("2", "e", None, None),
    ]


def test_reads_plain_text(tmp_path, seed_limericks):
    path = tmp_path / "mine.txt"
    write_poems([seed_limericks[0].text, seed_limericks[1].text], path)
    read = read_limerick_source(path)
    assert [r.source_id for r in read] == ["1", "2"]
    assert [r.text for r in read] == [seed_limericks[0].text, seed_limericks[1].text]
    assert all(r.is_limerick is None for r in read)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[{"limerick": "a"}, ', r"bad\.json: invalid JSON at line 1, column"),
        ('{"limerick": "a"}', r"bad\.json: expected a JSON list of limerick records, got dict"),
        ('[{"limerick": "a"}, 3]', r"bad\.json: record 1: expected an object, got int"),
        (
            '[{"limerick": "a"}, {"text": "a", "label": true}]',
            r"bad\.json: record 1: missing field 'limerick' \(fields present: label, text",
        ),
        ('[{"limerick": 5}]', r"record 0: 'limerick' must be a string, got int"),
        ('[{"limerick": "a", "is_limerick": "yes"}]', r"record 0: 'is_limerick' must be"),
        (
            '[{"limerick": "a", "islimerick": false}]',
            r"record 0: unknown field 'islimerick'; did you mean 'is_limerick'\?",
        ),
        ('[{"limerick": "a", "Author": "X"}]', r"unknown field 'Author'; did you mean 'author'"),
    ],
)
def test_source_errors_name_file_and_record(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_limerick_source(path)


def test_missing_and_undecodable_sources(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nowhere\.json does not exist"):
        read_limerick_source(tmp_path / "nowhere.json")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin\.txt: not UTF-8"):
        read_limerick_source(latin)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no limericks found"):
        read_limerick_source(empty)


# --- verification --------------------------------------------------------------------------


def test_verification_counts_every_drop(seed_limericks):
    rng = random.Random(3)
    good = [limerick.text for limerick in seed_limericks]
    records, expected = [], Counter()
    for i in range(200):
        text = rng.choice(good)
        kind = rng.choice(["ok", "label", "short", "scheme"])
        if kind == "label":
            records.append(LimerickRecord(str(i), text, is_limerick=False))
        elif kind == "short":
            records.append(LimerickRecord(str(i), "\n".join(text.split("\n")[:4])))
        elif kind == "scheme":  # lines 1 and 3 exchanged: ABABA-like, never AABBA
            lines = text.split("\n")
            lines[0], lines[2] = lines[2], lines[0]
            records.append(LimerickRecord(str(i), "\n".join(lines)))
        else:
            records.append(LimerickRecord(str(i), text, is_limerick=True))
        expected[kind] += 1
    report = verify_limericks(records, show_progress=False)
    texts = [limerick.text for limerick in report.kept]
    assert len(texts) == len(set(texts)) == len({r.text for r in records if r.is_limerick})
    assert report.dropped["labelled is_limerick=false in the source"] == expected["label"]
    assert report.dropped["not exactly 5 non-empty lines"] == expected["short"]
    assert report.dropped["rhyme scheme is not AABBA"] == expected["scheme"]
    duplicates = report.dropped["same text as an earlier limerick"]
    assert len(texts) + duplicates == expected["ok"]
    assert report.summary()[0] == f"kept {len(texts)} of 200 source records as verified limericks"
