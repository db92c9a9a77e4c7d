"""Where and how outputs land (issue 24, items 4, 17 and 20): an --out that is a symbolic link
is written through to its target with no hidden leftovers, the current folder (or one holding
it) is refused before any work, and new files and folders get the modes the umask gives."""

from __future__ import annotations

import contextlib
import json
import os
import stat

import datasets
import pytest

from poetic_eval.cli import main as cli_main
from poetic_eval.files import OutputLocationError, atomic_folder, atomic_path, write_text_atomically
from poetic_eval.hub import ConfigData, HubDataset, check_replaceable, write_hub_dataset
from poetic_eval.report.folders import REPORT_FORMAT, check_report_folder, report_folder

FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})


def toy_dataset(tmp_path, n=3):
    card = tmp_path / "card.md"
    card.write_text("A card.\n")
    rows = [{"good": f"good {i}", "bad": f"bad {i}"} for i in range(n)]
    return HubDataset(
        "toy", "Toy", [ConfigData("pairs", FEATURES, {"test": rows})], seed=0, card_template=card
    )


def hidden(*folders):
    return sorted(
        entry.name for folder in folders for entry in folder.iterdir() if entry.name.startswith(".")
    )


def test_a_linked_file_is_written_through(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "scores.jsonl").write_text("old\n")
    link = tmp_path / "scores.jsonl"
    link.symlink_to(real / "scores.jsonl")
    write_text_atomically(link, "new\n")
    assert link.is_symlink() and (real / "scores.jsonl").read_text() == "new\n"
    dangling = tmp_path / "later.jsonl"
    dangling.symlink_to(real / "later.jsonl")
    write_text_atomically(dangling, "first\n")
    assert dangling.is_symlink() and (real / "later.jsonl").read_text() == "first\n"
    assert hidden(tmp_path, real) == []


def test_a_linked_dataset_folder_is_written_through_without_leftovers(tmp_path):
    real = tmp_path / "store" / "toy"
    write_hub_dataset(toy_dataset(tmp_path), real, build_command="test")
    link = tmp_path / "datasets" / "toy"
    link.parent.mkdir()
    link.symlink_to(real, target_is_directory=True)
    write_hub_dataset(toy_dataset(tmp_path, n=5), link, build_command="test")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "num_examples: 5" in (real / "README.md").read_text()
    assert hidden(link.parent, real.parent) == []


def test_a_linked_report_folder_is_written_through_without_leftovers(tmp_path):
    real = tmp_path / "store" / "report"
    link = tmp_path / "report"
    real.mkdir(parents=True)
    link.symlink_to(real, target_is_directory=True)
    for run in range(2):
        check_report_folder(link)
        with report_folder(link) as staging:
            (staging / "report.json").write_text(json.dumps({"format": REPORT_FORMAT, "run": run}))
    assert link.is_symlink() and json.loads((real / "report.json").read_text())["run"] == 1
    assert hidden(tmp_path, real.parent) == []


def test_a_folder_link_an_older_version_swapped_aside_is_removed(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    leftover = tmp_path / ".toy.building-99999999-abcd"  # no such process
    leftover.symlink_to(real, target_is_directory=True)
    write_hub_dataset(toy_dataset(tmp_path), tmp_path / "toy", build_command="test")
    assert hidden(tmp_path) == [] and real.is_dir()


@pytest.mark.parametrize(
    "mask, file_mode, folder_mode",
    [(0o022, 0o644, 0o755), (0o027, 0o640, 0o750), (0o077, 0o600, 0o700)],
)
def test_new_files_and_folders_follow_the_umask(tmp_path, mask, file_mode, folder_mode):
    previous = os.umask(mask)
    try:
        with atomic_path(tmp_path / "scores.parquet") as staging:
            staging.write_bytes(b"x")
        with atomic_folder(tmp_path / "report") as staging:
            (staging / "report.md").write_text("x")
        write_text_atomically(tmp_path / "pointer.py", "x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "scores.parquet").stat().st_mode) == file_mode
    assert stat.S_IMODE((tmp_path / "pointer.py").stat().st_mode) == file_mode
    assert stat.S_IMODE((tmp_path / "report").stat().st_mode) == folder_mode


@contextlib.contextmanager
def working_in(folder):
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def test_the_current_folder_or_one_holding_it_is_refused_before_the_build(tmp_path, capsys):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    with working_in(inner):
        for out in (".", str(inner), str(tmp_path / "a")):
            with pytest.raises(OutputLocationError, match="cannot be replaced whole while in use"):
                check_replaceable(out, "--out")
            with pytest.raises(OutputLocationError, match="cannot be replaced whole while in use"):
                check_report_folder(out, "--out")
        with pytest.raises(OutputLocationError, match="is the current folder"):
            write_hub_dataset(toy_dataset(tmp_path), ".", build_command="test")
        assert cli_main(["build", "bpomp", "--out", "."]) != 0
    err = capsys.readouterr().err
    assert "--out . is the current folder" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "card.md"]
    check_replaceable(tmp_path / "elsewhere", "--out")  # a sibling is fine


@pytest.mark.parametrize("proc_readable", [True, False])
def test_the_umask_is_read_without_changing_it(monkeypatch, proc_readable):
    from poetic_eval.files import atomic_files

    if not proc_readable:

        def no_proc(*args, **kwargs):
            raise OSError("no /proc here")

        monkeypatch.setattr(atomic_files, "open", no_proc, raising=False)
    previous = os.umask(0o027)
    try:
        assert atomic_files.default_mode() == 0o640
        assert atomic_files.default_mode(0o777) == 0o750
        assert os.umask(0o027) == 0o027  # still the caller's mask
    finally:
        os.umask(previous)
