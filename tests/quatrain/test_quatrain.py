"""QuaTrain de-duplication, split, pseudo-sonnets and the ``quatrain`` builder.

The de-duplication is checked against a direct transcription of the spec's procedure
(written plainly below) on synthetic corpora built like QuaTrain: every 4-line window
(stride 1) of stanzas that share lines with other stanzas.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
from datasets import load_dataset

from builders.command_line import main as build_main
from builders.quatrain import build_quatrain
from poetic_eval.hub import write_hub_dataset
from poetic_eval.quatrain import (
    deduplicate,
    dev_size,
    draw_pseudo_sonnets,
    max_sonnets,
    prepare_language,
    read_quatrain_source,
    top_k_in_order,
)
from poetic_eval.resources import seed_path, seed_poems
from poetic_eval.rhyme import rhyme_scheme
from poetic_eval.text.synthetic import SyntheticPoems

# -- the spec, transcribed directly -------------------------------------------------------


def transcribed_deduplication(windows: list[list[str]], p: int) -> tuple[list[int], list[int]]:
    """Indices kept after the sequential pass and after the overlap removal."""
    kept = []
    position = 0
    for i, window in enumerate(windows):
        if i > 0 and window[0] == windows[i - 1][1]:
            position += 1  # continues the previous record
        else:
            position = 0
        if position % 4 == 0:  # first of its group of at most 4
            kept.append(i)
    after_sequential = list(kept)
    while kept:
        counts = Counter(line for i in kept for line in windows[i])
        if max(counts.values()) == 1:
            break
        scores = [sum(counts[line] for line in windows[i]) for i in kept]
        k = math.ceil(sum(1 for score in scores if score > 4) / p)
        ranking = sorted(range(len(kept)), key=lambda j: scores[j], reverse=True)  # stable
        deleted = set(ranking[:k])
        kept = [i for j, i in enumerate(kept) if j not in deleted]
    return after_sequential, kept


# -- synthetic corpora like QuaTrain -------------------------------------------------------


def synthetic_stanzas(seed: int, n_stanzas: int, *, pool: int = 12) -> list[list[str]]:
    """Stanzas of 1-13 lines; some lines come from a small shared pool (refrains, common
    lines), and some stanzas are copies of earlier ones, cut at either end (a poem held by
    two sources)."""
    stream = SyntheticPoems(seed).stanzas_with_copies(
        lengths=(1, 13), copy_rate=0.25, refrains=pool, refrain_rate=0.15
    )
    return list(islice(stream, n_stanzas))


def windows_of(stanzas: list[list[str]]) -> list[list[str]]:
    return [s[i : i + 4] for s in stanzas for i in range(len(s) - 3)]


def write_jsonl(path: Path, windows: list[list[str]], language: str = "en", **labels) -> Path:
    records = ({"text": window, "language": language, **labels} for window in windows)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def lines_of(corpus, rows) -> list[list[str]]:
    return [corpus.lines(row) for row in rows]


# -- de-duplication -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_deduplication_equals_the_transcription(tmp_path, seed):
    windows = windows_of(synthetic_stanzas(seed, 40, pool=4 + seed % 9))
    if not windows:
        pytest.skip("no 4-line stanza drawn")
    p = (1, 2, 3, 10, 20)[seed % 5]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=p)
    after_sequential, kept = transcribed_deduplication(windows, p)
    assert result.after_sequential.tolist() == after_sequential
    assert result.kept.tolist() == kept


@pytest.mark.parametrize("seed", range(5))
def test_no_line_occurs_twice_and_overlaps_were_there(tmp_path, seed):
    windows = windows_of(synthetic_stanzas(100 + seed, 3000, pool=200))
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=10)
    after_stage_1 = Counter(line for w in lines_of(corpus, result.after_sequential) for line in w)
    assert max(after_stage_1.values()) > 1  # the sequential pass alone does not suffice
    final = Counter(line for w in lines_of(corpus, result.kept) for line in w)
    assert max(final.values()) == 1
    assert result.iterations > 1


def test_sequential_pass_keeps_windows_0_4_8_of_each_run(tmp_path):
    stanzas = [[f"s{s} l{i}" for i in range(length)] for s, length in enumerate(range(1, 30))]
    windows = windows_of(stanzas)
    expected = [
        window
        for stanza in stanzas
        for start, window in enumerate(windows_of([stanza]))
        if start % 4 == 0
    ]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en")
    assert lines_of(corpus, result.after_sequential) == expected
    assert result.runs == sum(1 for stanza in stanzas if len(stanza) >= 4)
    # every kept window is a non-overlapping block of its stanza: lines 1-4, 5-8, ...
    assert {int(w[0].split(" l")[1]) % 4 for w in expected} == {0}


def test_a_run_breaks_where_line_1_is_not_the_previous_line_2(tmp_path):
    a, b, c, d, e, f, g, h = "abcdefgh"
    windows = [
        [a, b, c, d],
        [b, c, d, e],
        [c, d, e, f],
        [d, e, f, g],
        [e, f, g, h],  # run of 5
        [f, g, h, a],  # continues [e, f, g, h]: position 5
        [a, c, e, g],  # does not continue: new run
        [c, a, b, d],  # line 1 == previous line 2: continues
    ]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    assert deduplicate(corpus, "en", p=1).after_sequential.tolist() == [0, 4, 6]


def test_ties_delete_the_earlier_quatrain_first(tmp_path):
    windows = [["x", "b1", "c1", "d1"], ["x", "b2", "c2", "d2"], ["y", "b3", "c3", "d3"]]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    result = deduplicate(corpus, "en", p=10)
    assert result.kept.tolist() == [1, 2]
    assert transcribed_deduplication(windows, 10)[1] == [1, 2]


def test_a_line_repeated_inside_a_quatrain_counts_twice(tmp_path):
    windows = [["r", "a", "r", "b"], ["c", "d", "e", "f"]]
    corpus = read_quatrain_source(write_jsonl(tmp_path / "q.jsonl", windows))
    assert deduplicate(corpus, "en").kept.tolist() == [1]


@pytest.mark.parametrize("seed", range(20))
def test_top_k_in_order_is_a_stable_descending_sort(seed):
    rng = np.random.default_rng(seed)
    scores = rng.integers(4, 9, size=int(rng.integers(1, 60)))
    for k in range(1, scores.size + 1):
        expected = sorted(sorted(range(scores.size), key=lambda i: scores[i], reverse=True)[:k])
        assert top_k_in_order(scores, k).tolist() == expected


# -- split and pseudo-sonnets ---------------------------------------------------------------


def test_split_and_sonnet_rules_reproduce_the_paper_sizes():
    assert dev_size(201_856) == 20_186 and 201_856 - dev_size(201_856) == 181_670
    assert dev_size(282_048) == 28_205 and 282_048 - dev_size(282_048) == 253_843
    reported = {181_670: 51_905, 20_186: 5_767, 253_843: 72_526, 28_205: 8_058}
    for quatrains, sonnets in reported.items():
        assert max_sonnets(quatrains) == sonnets
        assert max_sonnets(quatrains, "first") == quatrains // 4


@pytest.mark.parametrize("couplets", ["split", "first", "last"])
@pytest.mark.parametrize("n", [0, 3, 4, 7, 8, 50, 351])
def test_sonnet_parts_come_from_different_quatrains_used_once(n, couplets):
    sonnets = draw_pseudo_sonnets(n, seed=3, couplets=couplets)
    assert len(sonnets) == max_sonnets(n, couplets)
    used = Counter()
    for whole, source, half in zip(
        sonnets.quatrains.tolist(),
        sonnets.couplet_sources.tolist(),
        sonnets.couplet_halves.tolist(),
    ):
        assert len({*whole, source}) == 4
        for quatrain in whole:
            used[(quatrain, "whole")] += 1
        used[(source, half)] += 1
        assert couplets != "first" or half == 0
        assert couplets != "last" or half == 1
    assert max(used.values(), default=1) == 1
    quatrains = {key[0] for key in used}
    whole = {key[0] for key in used if key[1] == "whole"}
    assert len(quatrains) <= n and not (whole & {key[0] for key in used if key[1] != "whole"})
    assert len(draw_pseudo_sonnets(n, seed=3, couplets=couplets, fraction=0.5)) == (
        math.floor(0.5 * max_sonnets(n, couplets))
    )


def test_sonnet_draw_and_split_are_seeded():
    one, two = draw_pseudo_sonnets(100, seed=1), draw_pseudo_sonnets(100, seed=1)
    assert np.array_equal(one.quatrains, two.quatrains)
    other = draw_pseudo_sonnets(100, seed=2)
    assert not np.array_equal(one.quatrains, other.quatrains)
    dev = draw_pseudo_sonnets(100, seed=1, stream=1)
    assert not np.array_equal(one.quatrains, dev.quatrains)


# -- reading --------------------------------------------------------------------------------


def test_json_list_jsonl_and_bom_read_the_same(tmp_path):
    windows = windows_of(synthetic_stanzas(7, 30))
    records = [
        {"text": w, "language": "en", "rhyme": "ABAB", "meter": "iambus", "alliteration": 0.25}
        for w in windows
    ]
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8-sig")
    listed = tmp_path / "q.json"
    listed.write_text(json.dumps(records, indent=1), encoding="utf-8")
    one, two = read_quatrain_source(jsonl), read_quatrain_source(listed)
    assert (one.kind, two.kind) == ("jsonl", "json")
    assert lines_of(one, range(len(one))) == windows == lines_of(two, range(len(two)))
    assert one.label(0, "alliteration") == 0.25 and two.label(3, "meter") == "iambus"
    assert one.source_lines.tolist() == list(range(1, len(windows) + 1))
    assert two.lines(two.source_lines.argmax()) == windows[-1]


def test_text_corpus_gives_every_window_with_rhyme_computed(tmp_path):
    poems = seed_poems("quatrain_stanzas.txt")
    source = tmp_path / "stanzas.txt"
    source.write_text("\ufeff" + "\n\n\n".join(poems) + "\n", encoding="utf-8")
    corpus = read_quatrain_source(source, text_language="en")
    stanzas = [poem.split("\n") for poem in poems]
    assert lines_of(corpus, range(len(corpus))) == windows_of(stanzas)
    assert corpus.label(0, "rhyme") == rhyme_scheme("\n".join(stanzas[0][:4]))
    assert corpus.label(0, "meter") is None and corpus.label(0, "alliteration") is None
    file_lines = source.read_text(encoding="utf-8-sig").split("\n")
    for row in range(0, len(corpus), 17):
        assert file_lines[corpus.source_lines[row] - 1] == corpus.lines(row)[0]


def test_the_bundled_sample_is_the_windows_of_the_bundled_stanzas():
    sample = read_quatrain_source(seed_path("quatrain_sample.jsonl"))
    stanzas = read_quatrain_source(seed_path("quatrain_stanzas.txt"))
    assert lines_of(sample, range(len(sample))) == lines_of(stanzas, range(len(stanzas)))
    assert [sample.label(r, "rhyme") for r in range(len(sample))] == [
        stanzas.label(r, "rhyme") for r in range(len(stanzas))
    ]


# -- the builder ----------------------------------------------------------------------------


def two_language_source(tmp_path: Path) -> tuple[Path, list[list[str]], list[list[str]]]:
    english = windows_of(synthetic_stanzas(11, 400, pool=60))
    german = [[f"de {line}" for line in w] for w in windows_of(synthetic_stanzas(12, 500, pool=60))]
    path = tmp_path / "quatrain.jsonl"
    with open(path, "w", encoding="utf-8") as stream:
        for number, window in enumerate(english + german):
            language = "en" if number < len(english) else "de"
            record = {
                "text": window,
                "language": language,
                "rhyme": "ABCD",
                "meter": "iambus",
                "alliteration": number % 3 / 10,
            }
            stream.write(json.dumps(record) + "\n")
    return path, english, german


def test_builder_round_trip_through_load_dataset(tmp_path):
    source, english, german = two_language_source(tmp_path)
    out = tmp_path / "quatrain"
    assert (
        build_main(
            ["quatrain", "--source", str(source), "--out", str(out), "--seed", "4", "--no-progress"]
        )
        == 0
    )
    card = (out / "README.md").read_text(encoding="utf-8")
    for language, windows, p in (("en", english, 10), ("de", german, 20)):
        quatrains = load_dataset(str(out), f"{language}_quatrains")
        assert set(quatrains) == {"train", "validation"}
        rows = [*quatrains["train"], *quatrains["validation"]]
        offset = 0 if language == "en" else len(english)
        kept = transcribed_deduplication(windows, p)[1]
        assert sorted(row["source_index"] for row in rows) == [offset + i for i in kept]
        assert len(quatrains["validation"]) == dev_size(len(kept))
        lines = [line for row in rows for line in row["lines"]]
        assert len(lines) == len(set(lines))
        for row in rows:
            assert row["lines"] == windows[row["source_index"] - offset]
            assert row["text"] == "\n".join(row["lines"]) and row["language"] == language
            assert row["alliteration"] == pytest.approx(row["source_index"] % 3 / 10)
            assert row["source_line"] == row["source_index"] + 1
        for split in ("train", "validation"):
            by_id = {row["id"]: row for row in quatrains[split]}
            sonnets = load_dataset(str(out), f"{language}_sonnets", split=split)
            assert len(sonnets) == max_sonnets(len(by_id))
            for sonnet in sonnets:
                parts = sonnet["parts"]
                assert [part["span"] for part in parts[:3]] == ["1-4"] * 3
                assert len({part["quatrain_id"] for part in parts}) == 4
                expected = [
                    line for part in parts[:3] for line in by_id[part["quatrain_id"]]["lines"]
                ]
                half = {"1-2": slice(0, 2), "3-4": slice(2, 4)}[parts[3]["span"]]
                expected += by_id[parts[3]["quatrain_id"]]["lines"][half]
                assert sonnet["lines"] == expected and len(expected) == 14
        assert f"| {language} | {p} | {len(windows):,} |" in card


def test_language_option_and_p_option(tmp_path):
    source, english, german = two_language_source(tmp_path)
    dataset = build_quatrain(source, language="de", p=3, progress=False)
    assert [config.name for config in dataset.configs] == ["de_quatrains", "de_sonnets"]
    rows = [*dataset.configs[0].splits["train"], *dataset.configs[0].splits["validation"]]
    expected = transcribed_deduplication(german, 3)[1]
    assert sorted(row["source_index"] - len(english) for row in rows) == expected


def test_builds_are_deterministic_by_seed(tmp_path):
    source, _, _ = two_language_source(tmp_path)

    def parquet_bytes(seed: int, name: str) -> dict[str, bytes]:
        out = write_hub_dataset(
            build_quatrain(source, seed=seed, progress=False),
            tmp_path / name,
            build_command="test",
        )
        return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.*"))}

    first, again, other = parquet_bytes(1, "a"), parquet_bytes(1, "b"), parquet_bytes(2, "c")
    assert first == again
    assert first.keys() == other.keys() and first != other


def test_default_build_uses_the_bundled_sample(tmp_path):
    dataset = build_quatrain(progress=False)
    quatrains, sonnets = dataset.configs
    assert (quatrains.name, sonnets.name) == ("en_quatrains", "en_sonnets")
    sizes = {split: len(rows) for split, rows in quatrains.splits.items()}
    assert sizes["validation"] >= 4 and sizes["train"] > 30
    assert all(len(rows) >= 1 for rows in sonnets.splits.values())
    assert dataset.license == "cc-by-4.0"
    assert "after the sequential pass" in dataset.report[0]


# -- bad input ------------------------------------------------------------------------------

GOOD = {"text": ["a", "b", "c", "d"], "language": "en"}


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ('{"text": ["a", "b", "c"], "language": "en"}', "'text' has 3 lines"),
        ('{"text": ["a", "b", 3, "d"], "language": "en"}', "line 3 of 'text' must be a string"),
        ('{"text": ["a", "b", "", "d"], "language": "en"}', "line 3 of 'text' is empty"),
        ('{"text": ["a", "b", "c", "d"], "language": "en",}', "invalid JSON"),
        ('{"lines": ["a", "b", "c", "d"], "language": "en"}', "missing field 'text'"),
        ('{"text": ["a", "b", "c", "d"]}', "'language' must be a language code"),
        ('{"text": ["a", "b", "c", "d"], "language": "en", "rhyme": ["A"]}', "'rhyme' must be"),
        ('{"text": ["a", "b", "c", "d"], "language": "en", "meter": 3}', "'meter' is a number"),
        ('["a", "b", "c", "d"]', "expected a record object"),
    ],
)
def test_a_bad_record_is_named_and_nothing_is_written(tmp_path, capsys, bad_line, message):
    source = tmp_path / "bad.jsonl"
    good = json.dumps({**GOOD, "meter": "iambus"})
    source.write_text(f"{good}\n{good}\n{bad_line}\n{good}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert build_main(["quatrain", "--source", str(source), "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert f"{source}:3 (record 2)" in error and message in error
    assert not out.exists()


def test_a_bad_record_of_a_json_list_names_its_line(tmp_path):
    source = tmp_path / "bad.json"
    source.write_text(
        '[\n {"text": ["a","b","c","d"], "language": "en"},\n'
        ' {"text": ["a","b"], "language": "en"}\n]\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"bad.json:3 \(record 1\): 'text' has 2 lines"):
        read_quatrain_source(source)
    source.write_text('[{"text": ["a","b","c","d"], "language": "en"}\n{"text": []}]')
    with pytest.raises(ValueError, match=r"bad.json:2 \(after record 0\): invalid JSON"):
        read_quatrain_source(source)


def test_a_language_not_in_the_file_lists_those_present(tmp_path, capsys):
    source, _, _ = two_language_source(tmp_path)
    out = tmp_path / "out"
    status = build_main(
        ["quatrain", "--source", str(source), "--out", str(out), "--language", "fr"]
    )
    error = capsys.readouterr().err
    assert status == 1 and "no records in language 'fr'" in error
    assert "en (" in error and "de (" in error and not out.exists()


def test_empty_corpora_are_errors(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one\ntwo\nthree\n\nfour\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no stanza of 4 or more lines"):
        read_quatrain_source(short)
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    with pytest.raises(ValueError, match="no records"):
        read_quatrain_source(empty)
    repeated = write_jsonl(tmp_path / "r.jsonl", [["a", "a", "a", "a"]])
    with pytest.raises(ValueError, match="no en quatrain is left after de-duplication"):
        prepare_language(read_quatrain_source(repeated), "en", seed=0)
    few = write_jsonl(tmp_path / "few.jsonl", [[f"{i}{j}" for j in "abcd"] for i in range(4)])
    with pytest.raises(ValueError, match="only 4 en quatrains"):
        prepare_language(read_quatrain_source(few), "en", seed=0)


def test_a_plain_text_corpus_builds_with_progress_bars_per_stage(tmp_path, capsys):
    stanzas = synthetic_stanzas(21, 300, pool=30)
    source = tmp_path / "stanzas.txt"
    source.write_text("\n\n".join("\n".join(s) for s in stanzas) + "\n", encoding="utf-8")
    out = tmp_path / "quatrain"
    assert (
        build_main(["quatrain", "--source", str(source), "--out", str(out), "--language", "de"])
        == 0
    )
    error = capsys.readouterr().err
    for stage in (
        "reading stanzas.txt",
        "sequential pass (de)",
        "overlap removal (de, p=20)",
        "rows (de, train)",
    ):
        assert stage in error
    rows = load_dataset(str(out), "de_quatrains", split="train")
    windows = windows_of([s for s in stanzas if s])
    kept = transcribed_deduplication(windows, 20)[1]
    assert {row["source_index"] for row in rows} <= set(kept)
    for row in rows:
        assert row["rhyme"] == rhyme_scheme(row["text"]) and row["meter"] is None
    assert "the plain-text stanzas of `stanzas.txt`" in (out / "README.md").read_text()
