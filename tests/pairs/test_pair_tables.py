"""Reading pair tables: a count of zero, empty tables and unreadable files are named."""

from __future__ import annotations

import datasets
import pytest

from poetic_eval.pairs import collect_pairs, load_pair_tables


@pytest.fixture()
def csv_file(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_bytes(b"\xef\xbb\xbfsentence_good,sentence_bad\nThe cat runs.,The cat run.\n")
    return path


def test_a_byte_order_mark_does_not_reach_the_column_names(csv_file):
    [(name, table)] = load_pair_tables(str(csv_file), None, None)
    assert name == "pairs" and table.column_names == ["sentence_good", "sentence_bad"]
    assert collect_pairs([(name, table)], 5, None)[0]["good"] == "The cat runs."


def test_limit_zero_and_empty_tables_are_errors(csv_file):
    tables = load_pair_tables(str(csv_file), None, None)
    with pytest.raises(ValueError, match="limit must be >= 1, got 0"):
        collect_pairs(tables, 0, None)
    empty = datasets.Dataset.from_dict({"good": [], "bad": []})
    with pytest.raises(ValueError, match=r"no pairs to score: the tables \(blank\) have no rows"):
        collect_pairs([("blank", empty)], None, None)


def test_a_file_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("sentence_good,sentence_bad\nThe café runs.,x\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin\.csv: cannot be read as csv: not UTF-8 text"):
        load_pair_tables(str(path), None, None)
