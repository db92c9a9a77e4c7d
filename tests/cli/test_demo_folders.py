"""demo refuses --datasets equal to --out (or one inside the other) before it builds anything
(issue 39, item 5: it used to build for 25 s first)."""

from __future__ import annotations

import pytest

from poetic_eval.cli import demo, main


@pytest.mark.parametrize(
    "out, datasets, how",
    [
        ("same", "same", "the same folder"),
        ("same", "./same/", "the same folder"),
        ("out", "out/datasets", "one inside the other"),
        ("datasets/report", "datasets", "one inside the other"),
    ],
)
def test_overlapping_folders_are_refused_before_the_build(
    tmp_path, monkeypatch, capsys, out, datasets, how
):
    monkeypatch.chdir(tmp_path)

    def no_build(*args, **kwargs):
        raise AssertionError("the build started")

    monkeypatch.setattr(demo, "build_datasets", no_build)
    assert main(["demo", "--out", out, "--datasets", datasets, "--skip-scoring"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"are {how}: the report replaces --out whole" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_a_symbolic_link_to_the_same_folder_is_caught(tmp_path, monkeypatch, capsys):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    monkeypatch.setattr(demo, "build_datasets", lambda *a: pytest.fail("the build started"))
    out, datasets = str(tmp_path / "real"), str(tmp_path / "link")
    assert main(["demo", "--out", out, "--datasets", datasets, "--skip-scoring"]) == 1
    assert "are the same folder" in capsys.readouterr().err


def test_separate_folders_pass_the_check(tmp_path):
    demo.check_separate_folders(tmp_path / "out", tmp_path / "datasets")
    demo.check_separate_folders(tmp_path / "a" / "out", tmp_path / "b" / "out")
