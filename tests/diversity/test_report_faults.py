"""Reports killed at every write step: the previous report stays whole (report.json, report.md
and figures of one run), and the next run cleans up after the killed one."""

from __future__ import annotations

import random
import shutil

import pytest
from fault_injection import folder_fingerprint, leftovers, run_killed_at

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.files import recover_folder
from poetic_eval.report import (
    Section,
    Table,
    add_section,
    append_section,
    attach,
    load_report,
    report_folder,
    write_report_files,
)
from poetic_eval.report.diversity_report import write_report
from poetic_eval.report.document import render_markdown
from poetic_eval.report.figures import accuracy_bars

DIMENSIONS = ["length", "lexical"]  # one figure: the write steps of any report, fast


@pytest.fixture(scope="module")
def corpora():
    poems = SyntheticPoems(random.Random(4))
    return poems.rhyming_quatrains(12), poems.rhyming_quatrains(40)


def report(target, corpora, title: str) -> None:
    generated, human = corpora
    write_report(generated, human, target, dimensions=DIMENSIONS, title=title)


def add_scores(target) -> None:
    """What the demo does: a section, its figure and an attached file, in one update."""
    with report_folder(target, keep=True) as staging:
        (staging / "scores.jsonl").write_text('{"pair": 1}\n', encoding="utf-8")
        accuracy_bars({"a": 0.5, "b": 0.75}, staging / "figures" / "accuracy.png")
        section = Section(
            "Pairs",
            "two configs",
            [Table(["config", "accuracy"], [["a", 0.5]])],
            [{"path": "figures/accuracy.png", "caption": "accuracy"}],
        )
        write_report_files(
            attach(add_section(load_report(staging), "pairs", section), "scores.jsonl"), staging
        )


def assert_whole(target, allowed: dict[str, dict]) -> str:
    """The report folder is exactly one of the ``allowed`` states; returns which."""
    found = folder_fingerprint(target)
    names = [name for name, fingerprint in allowed.items() if fingerprint == found]
    assert names, f"a mixed or missing report: {sorted(found or {})}"
    stored = load_report(target)
    assert (target / "report.md").read_text(encoding="utf-8") == render_markdown(stored)
    for section in stored["sections"].values():
        for figure in section["figures"]:
            assert (target / figure["path"]).is_file()
    return names[0]


@pytest.mark.parametrize(
    "exchange",
    [True, pytest.param(False, marks=pytest.mark.slow)],
    ids=["renameat2", "two-renames"],  # the builds' test covers both ways in the default run
)
def test_a_report_killed_at_any_write_leaves_the_previous_report(tmp_path, corpora, exchange):
    target = tmp_path / "report"
    report(target, corpora, "new")
    states = {"new": folder_fingerprint(target)}
    killed = 0
    for step in range(1, 200):
        report(target, corpora, "old")  # after a kill: the re-run succeeds and cleans up
        states.setdefault("old", folder_fingerprint(target))
        assert folder_fingerprint(target) == states["old"] and leftovers(target) == []
        if not run_killed_at(step, lambda: report(target, corpora, "new"), exchange=exchange):
            break
        killed += 1
        if not exchange:
            recover_folder(target)
        assert assert_whole(target, states) in ("old", "new")
    assert folder_fingerprint(target) == states["new"] and leftovers(target) == []
    assert killed >= 6  # staging, figure (temp file + rename), json, md, swap, clean-up


def test_adding_a_section_killed_at_any_write_leaves_the_report_before_or_after(tmp_path, corpora):
    target, snapshot = tmp_path / "report", tmp_path / "snapshot"
    report(snapshot, corpora, "base")
    shutil.copytree(snapshot, target)
    states = {"before": folder_fingerprint(target)}
    add_scores(target)
    states["after"] = folder_fingerprint(target)
    assert load_report(target)["attachments"] == ["scores.jsonl"]
    killed = 0
    for step in range(1, 200):
        shutil.rmtree(target)
        shutil.copytree(snapshot, target)
        if not run_killed_at(step, lambda: add_scores(target)):
            break
        killed += 1
        assert assert_whole(target, states) in ("before", "after")
        append_section(target, "note", {"title": "A note"})  # the next update cleans up
        assert leftovers(target) == []
    assert killed >= 5
