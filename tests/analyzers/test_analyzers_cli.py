"""Reading poems from files and folders, and ``poetic-eval analyze``."""

from __future__ import annotations

import json
import warnings

import pytest

from poetic_eval.analyzers import (
    analyze_collection,
    analyze_poem,
    evaluate_poem,
    read_poem_collection,
)
from poetic_eval.analyzers.poem_sources import read_poem_file
from poetic_eval.cli import main

SONNET_LIKE = "\n\n".join(
    "\n".join(f"the {word} is {end} tonight" for word, end in stanza)
    for stanza in ([("sea", "bright"), ("moon", "low")], [("wind", "light"), ("star", "slow")])
)
LIMERICK = (
    "There once was a cat in a hat\nWho sat every day on the mat.\n"
    "When the dog wandered near\nShe would flatten an ear\nAnd pretend to be terribly fat."
)


@pytest.fixture
def erato_folder(tmp_path):
    """The Erato layout: poems<k>/poemN.txt with topic<k>.txt beside each folder."""
    root = tmp_path / "collection"
    for k, (topic, words) in enumerate(
        [("sea", ["wave", "tide", "shore"]), ("fire", ["flame", "ember", "ash"])]
    ):
        (root / f"poems{k}").mkdir(parents=True)
        (root / f"topic{k}.txt").write_text(f"{topic}\n", encoding="utf-8")
        for n, word in enumerate(words):
            text = f"the {word} of the {topic}\nis all I know\n\nand all I {word}"
            (root / f"poems{k}" / f"poem{10 - n if k else n}.txt").write_text(
                text, encoding="utf-8"
            )
    return root


def test_folder_reading_natural_order_topics_and_stanzas(erato_folder):
    collection = read_poem_collection(erato_folder)
    names = [name.split("collection/")[1] for name in collection.names]
    assert names == [
        "poems0/poem0.txt",
        "poems0/poem1.txt",
        "poems0/poem2.txt",
        "poems1/poem8.txt",
        "poems1/poem9.txt",
        "poems1/poem10.txt",
    ]
    assert collection.topics == ["sea"] * 3 + ["fire"] * 3
    assert all("\n\n" in poem for poem in collection.poems)  # stanza breaks kept


def test_json_and_jsonl_files_keep_stanzas_and_topics(tmp_path):
    items = [{"text": ["a b", "", "c d"], "topic": "x"}, {"text": "e f\n\ng h", "topic": "y"}]
    (tmp_path / "p.json").write_text(json.dumps({"poems": items}), encoding="utf-8")
    (tmp_path / "p.jsonl").write_text("\n".join(map(json.dumps, items)) + "\n", encoding="utf-8")
    for name in ("p.json", "p.jsonl"):
        found = read_poem_file(tmp_path / name)
        assert found.topics == ["x", "y"]
        assert [analyze_poem(p, ["stanza_count"])["stanza_count"] for p in found.poems] == [2, 2]
    (tmp_path / "bad.jsonl").write_text('"a b"\n{"text": ""}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.jsonl:2: the poem is empty"):
        read_poem_file(tmp_path / "bad.jsonl")


def test_bad_files_and_folders_are_named(tmp_path):
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 au lait\nencore".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1.txt: not UTF-8 text \(byte 0xe9 at offset 3\)"):
        read_poem_collection(tmp_path / "latin1.txt")
    with pytest.raises(ValueError, match="latin1.txt: not UTF-8"):
        read_poem_collection(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("not a poem", encoding="utf-8")
    with pytest.raises(ValueError, match="empty: no poem files"):
        read_poem_collection(empty)
    (empty / "blank.txt").write_text("\n  \n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="blank.txt: the poem is empty or only blank lines"):
        read_poem_collection(empty)
    with pytest.raises(FileNotFoundError, match="no such poem file or folder"):
        read_poem_collection(tmp_path / "missing")


def test_cli_json_for_one_poem_equals_the_python_api(tmp_path, capsys):
    path = tmp_path / "limerick.txt"
    path.write_text(LIMERICK, encoding="utf-8")
    assert main(["analyze", str(path), "--form", "limerick", "--json"]) == 0
    output = json.loads(capsys.readouterr().out)
    [poem] = output["poems"]
    assert poem["analysis"] == json.loads(json.dumps(analyze_poem(LIMERICK)))
    assert poem["form"] == json.loads(json.dumps(evaluate_poem(LIMERICK, "limerick").to_json()))
    assert poem["form"]["passed"] is True and output["collection"] is None


def test_cli_tables_for_a_folder(erato_folder, capsys):
    code = main(
        [
            "analyze",
            str(erato_folder),
            "--form",
            "quatrain",
            "--no-progress",
            "--analyzers",
            "stanza_count",
            "syllables_per_line",
            "inter_novelty",
            "--rhyme-window",
            "none",
            "--rhyme-option",
            "near=true",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "== poems0/poem0.txt" in out and "== poems1/poem10.txt" in out
    assert "inter_novelty (30 ordered pairs of poems, all)" in out
    assert "form quatrain: 0/6 poems pass" in out
    expected = analyze_collection(read_poem_collection(erato_folder).poems, ["inter_novelty"])
    assert f"{expected['inter_novelty']['single_string']['rouge1']:.4f}" in out


def test_cli_sampled_pairs_and_topics_file(erato_folder, tmp_path, capsys):
    topics = tmp_path / "topics.txt"
    topics.write_text("\n".join(["a"] * 6), encoding="utf-8")
    code = main(
        [
            "analyze",
            str(erato_folder),
            "--json",
            "--analyzers",
            "inter_novelty",
            "--sample-pairs",
            "7",
            "--seed",
            "1",
            "--topics",
            str(topics),
        ]
    )
    assert code == 0
    collection = json.loads(capsys.readouterr().out)["collection"]
    assert collection["inter_novelty"]["pairs"] == 7 and collection["inter_novelty"]["sampled"]
    topics.write_text("a\nb\n", encoding="utf-8")
    assert main(["analyze", str(erato_folder), "--topics", str(topics)]) == 1
    assert "expected one topic per poem (6), got 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--form", "ode"], "unknown form 'ode'"),
        (["--analyzers", "meter"], "unknown analyzer"),
        (["--rhyme-window", "five"], "--rhyme-window expects an integer"),
    ],
)
def test_cli_errors_are_one_clear_line(erato_folder, capsys, arguments, message):
    assert main(["analyze", str(erato_folder), *arguments]) == 1
    assert message in capsys.readouterr().err


def test_cli_empty_folder_and_non_utf8_file(tmp_path, capsys):
    assert main(["analyze", str(tmp_path)]) == 1
    assert "no poem files" in capsys.readouterr().err
    (tmp_path / "poem.txt").write_bytes(b"\xff\xfeh\x00i\x00")
    assert main(["analyze", str(tmp_path / "poem.txt")]) == 1
    assert "poem.txt: not UTF-8 text" in capsys.readouterr().err


def test_cli_encoding_and_line_by_line_divisor_reach_the_analyzers(tmp_path, capsys):
    opening = "\n".join(["the old road and the quiet bell beside the grey stone wall"] * 30)
    poems = {
        "long_sea.txt": f"{opening}\nsea waves tide salt\nthe sea the waves the tide",
        "long_fire.txt": f"{opening}\nflame smoke ember blaze\nthe fire the flame the smoke",
        "short_sea.txt": "sea waves and tide\nsalt on the shore",
    }
    folder = tmp_path / "poems"
    folder.mkdir()
    for name, text in poems.items():
        (folder / name).write_text(text, encoding="utf-8")
    topics = tmp_path / "topics.json"
    topics.write_text(
        json.dumps({name: name.split("_")[1][:-4] for name in poems}), encoding="utf-8"
    )
    base = ["analyze", str(folder), "--json", "--topics", str(topics), "--no-progress"]
    base += ["--analyzers", "inter_novelty", "topicality"]
    with pytest.warns(UserWarning, match="2 of 3 poems .*'chunks'"):
        assert main(base) == 0
    default = json.loads(capsys.readouterr().out)["collection"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main([*base, "--encoding", "chunks", "--line-by-line-divisor", "first"]) == 0
    chosen = json.loads(capsys.readouterr().out)["collection"]
    assert chosen["topicality"]["accuracy"] == 1.0
    texts = read_poem_collection(folder).poems
    for divisor, result in (("shorter", default), ("first", chosen)):
        expected = analyze_collection(texts, ["inter_novelty"], line_by_line_divisor=divisor)
        assert result["inter_novelty"]["line_by_line"] == pytest.approx(
            expected["inter_novelty"]["line_by_line"], abs=1e-12
        )
    assert chosen["inter_novelty"]["line_by_line"] != default["inter_novelty"]["line_by_line"]
    with pytest.raises(SystemExit):
        main([*base, "--encoding", "stanzas"])
    assert "unknown encoding 'stanzas'; choices: poem, lines, chunks" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--encoding", "line"])
    assert "unknown encoding 'line'; did you mean 'lines'?" in capsys.readouterr().err
