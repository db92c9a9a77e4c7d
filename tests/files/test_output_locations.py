"""Output locations are checked before any work, creating nothing."""

from __future__ import annotations

import os

import pytest

from poetic_eval.files import OutputLocationError, check_output_file, check_output_folder

SUFFIXES = (".jsonl", ".csv", ".parquet")


def test_a_writable_location_passes_and_nothing_is_created(tmp_path):
    assert check_output_file(tmp_path / "new" / "deep" / "scores.JSONL", "--out", suffixes=SUFFIXES)
    assert check_output_folder(tmp_path / "new" / "report", "--out")
    (tmp_path / "old.csv").write_text("x")
    assert check_output_file(tmp_path / "old.csv", "--out", suffixes=SUFFIXES)  # replaced later
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


def test_a_wrong_extension_lists_the_right_ones(tmp_path):
    with pytest.raises(
        OutputLocationError, match=r"^--out .*scores\.txt: the file name must end in "
        r"\.jsonl, \.csv or \.parquet$",
    ):  # fmt: skip
        check_output_file(tmp_path / "scores.txt", "--out", suffixes=SUFFIXES)
    with pytest.raises(OutputLocationError, match=r"must end in \.json$"):
        check_output_file(tmp_path / "results", "out_file", suffixes=(".json",))


def test_a_file_where_a_folder_goes_and_the_reverse(tmp_path):
    (tmp_path / "taken").write_text("x")
    with pytest.raises(OutputLocationError, match=r"--out .*taken is a file, not a folder"):
        check_output_folder(tmp_path / "taken", "--out")
    with pytest.raises(OutputLocationError, match=r"taken is a file, so nothing can be written"):
        check_output_folder(tmp_path / "taken" / "report", "--out")
    with pytest.raises(OutputLocationError, match=r"taken is a file, so nothing can be written"):
        check_output_file(tmp_path / "taken" / "sub" / "a.csv", "--out", suffixes=SUFFIXES)
    with pytest.raises(OutputLocationError, match=r"is a folder; give a file name"):
        check_output_file(tmp_path, "--out")


def test_an_unwritable_parent_is_refused(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    # as a user without write permission (root passes any chmod, so ask os.access to say no)
    monkeypatch.setattr(
        os, "access", lambda path, mode: str(path) != str(locked) and real_access(path, mode)
    )
    with pytest.raises(
        OutputLocationError, match=r"cannot write in .*locked \(permission denied\)"
    ):
        check_output_file(locked / "scores.jsonl", "--out", suffixes=SUFFIXES)
    with pytest.raises(OutputLocationError, match=r"cannot write in .*locked"):
        check_output_folder(locked / "a" / "b", "--datasets")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(OutputLocationError, match="permission denied"):
            check_output_file(locked / "scores.jsonl", "--out")
    finally:
        locked.chmod(0o755)
