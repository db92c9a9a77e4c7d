"""The package skeleton: resolver, text handling, validation, CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import poetic_eval
from poetic_eval import text
from poetic_eval.checks import validation
from poetic_eval.text import poem_inputs


def test_metric_path_unknown_lists_names():
    with pytest.raises(ValueError, match="unknown metric 'no_such_metric'.*choices: .*mtld"):
        poetic_eval.metric_path("no_such_metric")


def test_every_metric_folder_has_module_and_card():
    for name in poetic_eval.available_metrics():
        folder = Path(poetic_eval.metric_path(name))
        assert (folder / f"{name}.py").is_file(), name
        assert (folder / "README.md").is_file(), f"{name} has no metric card"


@pytest.mark.floors
def test_wheel_ships_metric_modules_and_resolver_finds_them(tmp_path, repo_root):
    """After a plain `pip install` (no checkout), metric_path must find the modules, the
    builders must work, and no top-level `builders` package may be installed."""
    wheel_dir, site = tmp_path / "wheel", tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        pip + ["wheel", "--no-deps", "--no-build-isolation", "-w", str(wheel_dir), str(repo_root)],
        check=True,
        capture_output=True,
    )
    wheel = next(wheel_dir.glob("poetic_eval-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for name in poetic_eval.available_metrics():
        assert f"poetic_eval/metric_modules/{name}/{name}.py" in names, name
    assert "poetic_eval/builders/__init__.py" in names
    assert "poetic_eval/py.typed" in names  # PEP 561: type checkers read the annotations
    for name in ("nouns", "verbs", "adjectives", "agreement_templates", "alternation_phrases"):
        assert f"poetic_eval/blm/generator/data/{name}.json" in names, (
            f"BLM lexicon {name}.json not shipped"
        )
    top_level = {name.split("/")[0] for name in names}
    assert top_level <= {
        "poetic_eval",
        f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info",
    }, top_level
    subprocess.run(
        pip + ["install", "--no-deps", "--no-index", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    assert not (site / "builders").exists()
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    probe = (
        "import importlib.util, pathlib, poetic_eval\n"
        "assert importlib.util.find_spec('builders') is None, 'a top-level builders is there'\n"
        "names = poetic_eval.available_metrics()\n"
        "print(*[pathlib.Path(poetic_eval.metric_path(n)) for n in names])\n"
        "mtld = poetic_eval.load_metric('mtld')\n"
        "print(mtld.compute(predictions=['the cat sat on the mat'])['attr'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        check=False,
        capture_output=True,
        text=True,
        cwd=work,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    folders, attr = out.stdout.splitlines()
    assert all(f.startswith(str(site)) for f in folders.split()), folders
    assert float(attr) == pytest.approx(5 / 6)
    build = subprocess.run(
        [sys.executable, "-m", "poetic_eval.cli", "build", "bpomp", "--out", "bpomp",
         "--no-progress", "--n-pairs", "3"],
        check=False, capture_output=True, text=True, cwd=work, env=env,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    card = (work / "bpomp" / "README.md").read_text(encoding="utf-8")
    assert "poetic-eval build bpomp" in card and "configs:" in card
    assert sorted(p.name for p in (work / "bpomp" / "data").iterdir())


def test_lines_and_stanzas():
    poem = "  One line,\n two line \n\n\nthree line\n   \nfour"
    assert text.lines(poem) == ["One line,", "two line", "three line", "four"]
    assert text.stanzas(poem) == [["One line,", "two line"], ["three line"], ["four"]]


def test_tokens_and_length_unicode():
    poem = "Ça va — “très” bien!\nnaïve coöperation; it's"
    assert text.tokens(poem, lowercase=True, remove_punctuation=True) == [
        "ça",
        "va",
        "très",
        "bien",
        "naïve",
        "coöperation",
        "its",
    ]
    assert text.length(poem) == 7
    assert text.length(poem, remove_punctuation=False) == 8


def test_final_word():
    assert text.final_word("There once was a man from Nantucket,") == "Nantucket"
    assert text.final_word("and then — !") == "then"
    assert text.final_word("...") == ""


def test_read_write_poems_roundtrip(tmp_path):
    poems = ["a b\nc d", "e f\ng h\ni j"]
    path = tmp_path / "p.txt"
    text.write_poems(poems, path)
    assert text.read_poem_blocks(path) == poems


@pytest.mark.parametrize(
    "values, error",
    [
        (None, ValueError),
        ([], ValueError),
        ("a poem", TypeError),
        (["ok", None], TypeError),
        (["ok", "  "], ValueError),
        ([1], TypeError),
    ],
)
def test_require_texts_errors(values, error):
    with pytest.raises(error):
        poem_inputs.require_texts(values, "predictions")


def test_require_texts_names_row():
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        poem_inputs.require_texts(["ok", 3], "predictions")


def test_require_texts_takes_str_subclasses_and_names_a_blank_among_them():
    class Verse(str):
        pass

    poems = [Verse("one line"), "two", Verse("three")]
    assert poem_inputs.require_texts(poems, "predictions") == poems
    with pytest.raises(ValueError, match=r"predictions\[2\] is empty"):
        poem_inputs.require_texts([Verse("ok"), "fine", Verse(" \n")], "predictions")


@pytest.mark.parametrize("value", [0, -0.1, 1.5, float("nan")])
def test_require_fraction_bounds(value):
    with pytest.raises(ValueError):
        validation.require_fraction(value, "threshold")


def test_cli_lists_metrics():
    out = subprocess.run(
        [sys.executable, "-m", "poetic_eval.cli", "metrics"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    for name in poetic_eval.available_metrics():
        assert name in out.stdout


def test_without_punctuation_ascii_fast_path_equals_the_unicode_table():
    import random

    from poetic_eval.text import without_punctuation
    from poetic_eval.text.poems import _punctuation_table

    rng = random.Random(0)
    alphabet = [chr(i) for i in range(128)] + ["é", "—", "’", "夜", "«"]
    texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 40))) for _ in range(3000)]
    texts += ["".join(rng.choices(alphabet[:128], k=40)) for _ in range(3000)]
    for sample in texts:
        assert without_punctuation(sample) == sample.translate(_punctuation_table()), repr(sample)
    assert without_punctuation("Don't -- stop!") == "Dont  stop"
