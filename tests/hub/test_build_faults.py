"""Builds killed at every write step: the previous dataset folder stays whole and loadable, and
the next build cleans up after the killed one."""

from __future__ import annotations

import shutil

import datasets
import pytest
from fault_injection import folder_fingerprint, leftovers, run_killed_at

from poetic_eval.files import recover_folder
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset

FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})


def toy_dataset(version: str, card_template) -> HubDataset:
    rows = [
        {"good": f"{version} cat sings {i}", "bad": f"{version} cat sing {i}"} for i in range(5)
    ]
    return HubDataset(
        name="toy",
        pretty_name="Toy pairs",
        configs=[
            ConfigData("first", FEATURES, {"test": rows}),
            ConfigData("second", FEATURES, {"test": rows[:3]}),
        ],
        seed=0,
        card_template=card_template,
    )


def build(target, version: str) -> None:
    template = target.parent / "card.md"
    if not template.exists():
        template.write_text("Toy pairs for the fault-injection test.\n", encoding="utf-8")
    write_hub_dataset(toy_dataset(version, template), target, build_command=f"test {version}")


def loaded_version(target, cache) -> str:
    """The version of the folder as ``datasets`` loads it (a fresh cache each time: the same
    paths are rewritten within the same second)."""
    table = datasets.load_dataset(str(target), "first", split="test", cache_dir=str(cache))
    assert len(table) == 5
    second = datasets.load_dataset(str(target), "second", split="test", cache_dir=str(cache))
    assert len(second) == 3
    return table[0]["good"].split()[0]


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_build_killed_at_any_write_leaves_the_previous_folder(tmp_path, exchange):
    datasets.disable_progress_bars()
    target = tmp_path / "toy"
    build(target, "old")
    old = folder_fingerprint(target)
    build(target, "new")
    new = folder_fingerprint(target)
    assert old != new
    killed_at = []
    for step in range(1, 100):
        build(target, "old")  # after a kill: the re-run succeeds and cleans up
        assert folder_fingerprint(target) == old and leftovers(target) == []
        if not run_killed_at(step, lambda: build(target, "new"), exchange=exchange):
            break  # the build finished before this step: every point has been tried
        killed_at.append(step)
        if not exchange:
            recover_folder(target)  # what the next run does first: undo a half-done swap
        found = folder_fingerprint(target)
        assert found in (old, new), f"killed before step {step}: a mixed or missing folder"
        assert loaded_version(target, tmp_path / f"cache{step}") == (
            "old" if found == old else "new"
        )
    assert folder_fingerprint(target) == new and leftovers(target) == []
    assert len(killed_at) >= 5, killed_at  # staging, two parquet files, card, swap, clean-up


def test_a_first_build_killed_at_any_write_leaves_nothing_or_everything(tmp_path):
    datasets.disable_progress_bars()
    reference = tmp_path / "reference"
    build(reference, "new")
    complete = folder_fingerprint(reference)
    target = tmp_path / "toy"
    for step in range(1, 100):
        if not run_killed_at(step, lambda: build(target, "new")):
            break
        assert folder_fingerprint(target) in (None, complete), step
        build(target, "new")
        assert folder_fingerprint(target) == complete and leftovers(target) == []
        shutil.rmtree(target)
