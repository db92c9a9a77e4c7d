"""Atomic writes: a failed write leaves the previous file and no temporary behind."""

from __future__ import annotations

import pytest

from poetic_eval.text import atomic_path, write_text_atomically


def test_write_replaces_and_creates_parents(tmp_path):
    target = tmp_path / "a" / "b" / "out.txt"
    write_text_atomically(target, "first")
    write_text_atomically(target, "second ✓")
    assert target.read_text(encoding="utf-8") == "second ✓"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]


def test_failure_keeps_previous_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(target) as staging:
        staging.write_text("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
