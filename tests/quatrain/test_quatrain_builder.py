"""The ``quatrain`` builder: a round trip through ``load_dataset``, the language and p options,
determinism by seed, the bundled default, plain-text corpora and unknown languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasets import load_dataset
from quatrain_corpora import synthetic_stanzas, transcribed_deduplication, windows_of

from poetic_eval.builders import quatrain as quatrain_builder
from poetic_eval.cli import main as cli_main
from poetic_eval.hub import write_hub_dataset
from poetic_eval.quatrain.sonnets import max_sonnets
from poetic_eval.quatrain.splitting import dev_size
from poetic_eval.rhyme import rhyme_scheme

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
        cli_main(
            [
                "build",
                "quatrain",
                "--source",
                str(source),
                "--out",
                str(out),
                "--seed",
                "4",
                "--no-progress",
            ]
        )
        == 0
    )
    card = (out / "README.md").read_text(encoding="utf-8")
    for language, windows, p in (("en", english, 10), ("de", german, 20)):
        quatrains = load_dataset(str(out), f"{language}_quatrains", cache_dir=str(tmp_path / "hf"))
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
            sonnets = load_dataset(
                str(out), f"{language}_sonnets", split=split, cache_dir=str(tmp_path / "hf")
            )
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
    dataset = quatrain_builder.build(
        quatrain_builder.Config(source=source, language="de", p=3, show_progress=False)
    )
    assert [config.name for config in dataset.configs] == ["de_quatrains", "de_sonnets"]
    rows = [*dataset.configs[0].splits["train"], *dataset.configs[0].splits["validation"]]
    expected = transcribed_deduplication(german, 3)[1]
    assert sorted(row["source_index"] - len(english) for row in rows) == expected


def test_builds_are_deterministic_by_seed(tmp_path):
    source, _, _ = two_language_source(tmp_path)

    def parquet_bytes(seed: int, name: str) -> dict[str, bytes]:
        out = write_hub_dataset(
            quatrain_builder.build(
                quatrain_builder.Config(source=source, seed=seed, show_progress=False)
            ),
            tmp_path / name,
            build_command="test",
        )
        return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.*"))}

    first, again, other = parquet_bytes(1, "a"), parquet_bytes(1, "b"), parquet_bytes(2, "c")
    assert first == again
    assert first.keys() == other.keys() and first != other


def test_default_build_uses_the_bundled_sample(tmp_path):
    dataset = quatrain_builder.build(quatrain_builder.Config(show_progress=False))
    quatrains, sonnets = dataset.configs
    assert (quatrains.name, sonnets.name) == ("en_quatrains", "en_sonnets")
    sizes = {split: len(rows) for split, rows in quatrains.splits.items()}
    assert sizes["validation"] >= 4 and sizes["train"] > 30
    assert all(len(rows) >= 1 for rows in sonnets.splits.values())
    assert dataset.license == "cc-by-4.0"
    assert "after the sequential pass" in dataset.report[0]


def test_a_language_not_in_the_file_lists_those_present(tmp_path, capsys):
    source, _, _ = two_language_source(tmp_path)
    out = tmp_path / "out"
    status = cli_main(
        ["build", "quatrain", "--source", str(source), "--out", str(out), "--language", "fr"]
    )
    error = capsys.readouterr().err
    assert status == 1 and "no records in language 'fr'" in error
    assert "en (" in error and "de (" in error and not out.exists()


def test_a_plain_text_corpus_builds_with_progress_bars_per_stage(tmp_path, capsys):
    stanzas = synthetic_stanzas(21, 300, pool=30)
    source = tmp_path / "stanzas.txt"
    source.write_text("\n\n".join("\n".join(s) for s in stanzas) + "\n", encoding="utf-8")
    out = tmp_path / "quatrain"
    assert (
        cli_main(
            ["build", "quatrain", "--source", str(source), "--out", str(out), "--language", "de"]
        )
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
    # A cache folder of its own: the shared one is keyed by config and data files, not by the
    # rhyme model, so rows built by another version of the model would be read back.
    rows = load_dataset(str(out), "de_quatrains", split="train", cache_dir=str(tmp_path / "hf"))
    windows = windows_of([s for s in stanzas if s])
    kept = transcribed_deduplication(windows, 20)[1]
    assert {row["source_index"] for row in rows} <= set(kept)
    for row in rows:
        assert row["rhyme"] == rhyme_scheme(row["text"], language="de") and row["meter"] is None
    assert "the plain-text stanzas of `stanzas.txt`" in (out / "README.md").read_text()
