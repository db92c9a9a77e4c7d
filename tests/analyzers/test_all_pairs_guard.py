"""``analyze`` on many poems does not start an all-pairs novelty of hours: over
:data:`MAX_ALL_PAIRS` ordered pairs it says to give --sample-pairs, before any analysis (issue
24, item 19)."""

from __future__ import annotations

import pytest

from poetic_eval.analyzers import novelty
from poetic_eval.analyzers.novelty import MAX_ALL_PAIRS, check_all_pairs
from poetic_eval.cli import main


def test_the_threshold_is_on_ordered_pairs():
    check_all_pairs(5000, None)  # 24,995,000 pairs: under the threshold
    assert 5000 * 4999 <= MAX_ALL_PAIRS < 5001 * 5000
    with pytest.raises(
        ValueError, match=r"all 100,010,000 ordered pairs of 10,001 poems.*--sample-pairs K"
    ):
        check_all_pairs(10_001, None)
    check_all_pairs(100_000, 1_000_000)  # a sample of any size is the user's choice


def poems_folder(tmp_path, n):
    folder = tmp_path / "poems"
    folder.mkdir()
    for index in range(n):
        (folder / f"p{index}.txt").write_text(f"the moon is high {index}\nthe night is long\n")
    return folder


def test_analyze_refuses_before_analysing_and_runs_with_a_sample(tmp_path, monkeypatch, capsys):
    folder = poems_folder(tmp_path, 4)
    monkeypatch.setattr(novelty, "MAX_ALL_PAIRS", 10)  # 4 poems: 12 ordered pairs
    analysed = []
    from poetic_eval import analyzers

    original = analyzers.analyze_poem
    monkeypatch.setattr(
        analyzers, "analyze_poem", lambda *a, **k: analysed.append(1) or original(*a, **k)
    )
    assert main(["analyze", str(folder), "--json", "--no-progress"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(
        "poetic-eval analyze: error: inter-poem novelty over all 12 ordered pairs of 4 poems"
    )
    assert "--sample-pairs 12 for all of them" in err[-1] and not analysed
    assert main(["analyze", str(folder), "--json", "--no-progress", "--sample-pairs", "6"]) == 0
    assert main(["analyze", str(folder), "--json", "--no-progress", "--no-collection"]) == 0
    assert (
        main(["analyze", str(folder), "--json", "--no-progress", "--analyzers", "line_count"]) == 0
    )
