"""``--option NAME=VALUE``: values read by one documented grammar, checked before the work, and
report.md shows what ran."""

from __future__ import annotations

import dataclasses
import json

import pytest

from poetic_eval.cli import main
from poetic_eval.cli.arguments import parse_option, parse_option_value
from poetic_eval.diversity import length_comparison


@pytest.mark.parametrize(
    "text, value",
    [
        ("False", False),
        ("true", True),
        ("TRUE", True),
        ("none", None),
        ("null", None),
        ("20", 20),
        ("-3", -3),
        ("0.5", 0.5),
        ("1e-3", 0.001),
        (".25", 0.25),
        ('{"verse": 0.95}', {"verse": 0.95}),
        ("[1, 2]", [1, 2]),
        ('"20"', "20"),
        ("cuda", "cuda"),
        ("path/to/model", "path/to/model"),
        ("no", "no"),  # a string: typed options then refuse it by name
    ],
)
def test_values_follow_the_grammar(text, value):
    parsed = parse_option_value(text)
    assert parsed == value and type(parsed) is type(value)


def test_bad_option_text_is_named():
    with pytest.raises(ValueError, match=r"--option expects NAME=VALUE, got 'bins'"):
        parse_option("bins")
    with pytest.raises(ValueError, match=r"--option length_bins: .* starts like JSON but is not"):
        parse_option("length_bins=[1, 2")
    assert parse_option(" length_bins = 20") == ("length_bins", 20)


@pytest.fixture()
def poem_files(tmp_path):
    generated = ["The moon, is high!\nthe night... is long", "a dog -- ran far\nover the hill"]
    human = ["grey sea; loud gulls!\nthe harbour wakes", "ledgers, debts\nunder the stair !"]
    paths = []
    for name, poems in (("generated.txt", generated), ("human.txt", human)):
        path = tmp_path / name
        path.write_text("\n\n".join(poems), encoding="utf-8")
        paths.append(path)
    return paths, generated, human


def test_a_boolean_option_runs_as_given_and_report_md_says_so(tmp_path, poem_files):
    (generated_file, human_file), generated, human = poem_files
    out = tmp_path / "report"
    argv = ["report", "--generated", str(generated_file), "--human", str(human_file),
            "--out", str(out), "--dimensions", "length", "--no-progress"]  # fmt: skip
    assert main([*argv, "--option", "length_remove_punctuation=False"]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    expected = length_comparison(generated, human, remove_punctuation=False)
    assert report["scores"]["length_mean"] == expected["length_mean"]
    assert expected["length_mean"] != length_comparison(generated, human)["length_mean"]
    assert report["settings"]["length_remove_punctuation"] is False
    assert "length_remove_punctuation: False" in (out / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "option, message",
    [
        ("length_remove_punctation=false", "length has no option 'remove_punctation'"),
        ("rhyme_near=no", "rhyme_near must be True or False, got str 'no'"),
        ("semantic_batch_size=1.5", "semantic_batch_size must be an integer, got float"),
    ],
)
def test_unknown_or_mistyped_options_fail_before_the_work(tmp_path, poem_files, capsys, option,
                                                          message, monkeypatch):  # fmt: skip
    (generated_file, human_file), _, _ = poem_files
    from poetic_eval.diversity import dimensions

    def forbidden(*args, **kwargs):
        raise AssertionError("a dimension ran before the options were checked")

    for name, record in dimensions.DIMENSIONS.items():
        monkeypatch.setitem(dimensions.DIMENSIONS, name, dataclasses.replace(record, run=forbidden))
    out = tmp_path / "report"
    argv = ["report", "--generated", str(generated_file), "--human", str(human_file),
            "--out", str(out), "--option", option]  # fmt: skip
    assert main(argv) == 1
    assert message in capsys.readouterr().err
    assert not out.exists()
