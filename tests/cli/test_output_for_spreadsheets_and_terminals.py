"""What commands write for spreadsheets and print to terminals (issue 39, items 4 and 5): CSV
cells that begin like a formula are quoted as the OWASP recommends, control characters from
data are escaped when printed, and an empty pair file is one line, not a StopIteration."""

from __future__ import annotations

import csv
import json
from types import SimpleNamespace

import numpy as np
import pytest

import poetic_eval.lm
import poetic_eval.lm.distributed
from poetic_eval.cli import main
from poetic_eval.text.safe_output import printable, spreadsheet_cell

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]
ESCAPE = "\x1b"


def fake_model(monkeypatch, n):
    model = SimpleNamespace(name="fake", kind="causal", device="cpu")
    monkeypatch.setattr(poetic_eval.lm, "load_language_model", lambda *a, **k: model)
    good, bad = -np.arange(1.0, n + 1), -np.arange(2.0, n + 2)
    monkeypatch.setattr(
        poetic_eval.lm.distributed, "score_pairs_sharded", lambda *a, **k: (good, bad)
    )


def write_pairs(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_csv_cells_that_begin_like_a_formula_are_quoted(tmp_path, monkeypatch):
    rows = [
        {"good": text, "bad": f"plain {i}", "category": FORMULAS[-1 - i]}
        for i, text in enumerate(FORMULAS)
    ]
    source = write_pairs(tmp_path / "pairs.jsonl", rows)
    fake_model(monkeypatch, len(rows))
    out = tmp_path / "scores.csv"
    assert main(["score-pairs", "--dataset", str(source), "--out", str(out), "--no-progress"]) == 0
    with open(out, newline="", encoding="utf-8") as stream:
        written = list(csv.DictReader(stream))
    for row, given in zip(written, rows):
        for column in ("good", "category"):
            assert row[column] == "'" + given[column]  # shown as text, never run
        assert row["bad"] == given["bad"]
        assert float(row["good_score"]) < 0  # a negative number stays a number
    raw = out.read_text(encoding="utf-8")
    assert ',"\'=HYPERLINK(""http://x"",""y"")",' in raw  # quoted, quotes doubled
    assert ",-1.0," in raw  # numbers unquoted and unprefixed


def test_jsonl_and_parquet_keep_the_texts_exactly(tmp_path, monkeypatch):
    rows = [{"good": text, "bad": "b", "category": "c"} for text in FORMULAS]
    source = write_pairs(tmp_path / "pairs.jsonl", rows)
    fake_model(monkeypatch, len(rows))
    out = tmp_path / "scores.jsonl"
    assert main(["score-pairs", "--dataset", str(source), "--out", str(out), "--no-progress"]) == 0
    assert [json.loads(line)["good"] for line in out.read_text().splitlines()] == FORMULAS


def test_spreadsheet_cell_against_the_owasp_list():
    for start in "=+-@\t\r":
        assert spreadsheet_cell(start + "x") == "'" + start + "x"
    for value in ("x=1", "", "'=already", -1.5, 3, None, True):
        assert spreadsheet_cell(value) == value


def test_control_characters_in_a_category_are_escaped_when_printed(tmp_path, monkeypatch, capsys):
    category = "evil\x1b[2J\x1b]8;;http://x\x07link\u202eabc\rover"
    source = write_pairs(
        tmp_path / "pairs.jsonl", [{"good": "g", "bad": "b", "category": category}] * 2
    )
    fake_model(monkeypatch, 2)
    out = tmp_path / "scores.jsonl"
    assert main(["score-pairs", "--dataset", str(source), "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert ESCAPE not in printed and "\x07" not in printed and "\u202e" not in printed
    assert "\r" not in printed
    assert r"evil\x1b[2J\x1b]8;;http://x\x07link\u202eabc\x0dover" in printed
    assert json.loads(out.read_text().splitlines()[0])["category"] == category  # data kept


def test_an_error_quoting_data_is_printed_without_control_codes(tmp_path, capsys):
    missing = tmp_path / "no\x1b[31mfile\x07.jsonl"
    assert main(["score-pairs", "--dataset", str(missing)]) == 1
    err = capsys.readouterr().err
    assert ESCAPE not in err and "\x07" not in err
    assert r"no\x1b[31mfile\x07.jsonl" in err and len(err.strip().splitlines()) == 1


def test_printable_escapes_only_controls():
    assert printable("plain — äö 詩 \\x41") == "plain — äö 詩 \\x41"
    assert printable("a\nb\tc\x00\x7f\x9b") == r"a\x0ab\x09c\x00\x7f\x9b"
    assert printable(printable("\x1b")) == r"\x1b"


@pytest.mark.parametrize("content", [b"", b"  \n\n", b"\n"])
def test_an_empty_pair_file_is_one_line(tmp_path, capsys, content):
    source = tmp_path / "pairs.jsonl"
    source.write_bytes(content)
    assert main(["score-pairs", "--dataset", str(source)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"poetic-eval score-pairs: error: dataset {source}: the file is empty (no rows to score)"
    ]
