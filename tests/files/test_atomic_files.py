"""Atomic writes: a failed write leaves the previous file and no temporary behind."""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path

import pytest
from fault_injection import leftovers, run_killed_at

from poetic_eval.files import (
    OutputWriteError,
    UserError,
    atomic_folder,
    atomic_path,
    recover_folder,
    write_text_atomically,
)


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


def test_a_full_disk_names_the_file_and_keeps_the_previous_one(tmp_path, monkeypatch):
    target = tmp_path / "scores.jsonl"
    target.write_text("old")

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OutputWriteError, match=r"could not write .*scores\.jsonl: No space left"):
        write_text_atomically(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["scores.jsonl"]


def test_a_folder_that_cannot_be_written_is_named(tmp_path, monkeypatch):
    target = tmp_path / "datasets" / "bpomp"

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    denied = r"could not write .*bpomp: Permission denied"
    with pytest.raises(OutputWriteError, match=denied), atomic_folder(target):
        pass
    error = OutputWriteError.of(OSError(errno.ENOSPC, "No space left on device"), target)
    assert "disk full" in str(error) and error.errno == errno.ENOSPC
    assert isinstance(error, OSError) and isinstance(error, UserError)


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_killed_swaps_are_repaired_and_cleaned_by_the_next_run(tmp_path, exchange):
    target = tmp_path / "out"
    with atomic_folder(target) as staging:
        (staging / "a.txt").write_text("old")
    steps = 0
    while True:  # kill the second swap before each of its steps, in a child
        steps += 1
        if not run_killed_at(steps, lambda: _fill(target, "new"), exchange=exchange):
            break
        recover_folder(target)
        assert (target / "a.txt").read_text() in ("old", "new"), steps
        assert leftovers(target) == [], steps
        _fill(target, "old")
    assert (target / "a.txt").read_text() == "new" and steps > 3


def _fill(target, text):
    with atomic_folder(target) as staging:
        (staging / "a.txt").write_text(text)
