"""--language on `poetic-eval report` and `analyze`, and the demo's German section built from
the bundled German quatrains (seed_data/german_quatrains.jsonl)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from poetic_eval.cli import main
from poetic_eval.cli.demo import HUMAN_SAMPLE, german_section, german_seed_quatrains
from poetic_eval.diversity import poetic_diversity
from poetic_eval.diversity.rhyme_distribution import scheme_distribution
from poetic_eval.report.diversity_report import write_report
from poetic_eval.resources import seed_poems
from poetic_eval.rhyme import rhyme_scheme, syllable_count
from poetic_eval.text import read_poems_by_suffix

DIMENSIONS = ["rhyme", "lexical", "length"]


@pytest.fixture(scope="module")
def seed():
    records = german_seed_quatrains()
    return {side: [r for r in records if r["sample"] == side] for side in ("human", "generated")}


def test_the_german_seed_quatrains_have_their_gold_schemes(seed):
    for side, records in seed.items():
        assert len(records) >= 15, side
        for record in records:
            assert len(record["text"].split("\n")) == 4
    human = Counter(r["scheme"] for r in seed["human"])
    generated = Counter(r["scheme"] for r in seed["generated"])
    # the paper: German human quatrains are mostly ABAB (above 35 %); the "generated" sample
    # leans on couplets, as the weaker models do
    assert human["ABAB"] / len(seed["human"]) > 0.35
    assert generated["AABB"] > generated["ABAB"]
    # and more ABAB than the English human seed, as the paper finds (measured: 22.5 % there)
    english = scheme_distribution(seed_poems(HUMAN_SAMPLE))
    assert human["ABAB"] / len(seed["human"]) > english["ABAB"] + 0.2
    records = seed["human"] + seed["generated"]
    read = [rhyme_scheme(r["text"], language="de") == r["scheme"] for r in records]
    assert sum(read) / len(read) >= 0.9  # measured: 40 of 40 with the German model


@pytest.fixture
def poem_files(tmp_path, seed):
    paths = {}
    for side, records in seed.items():
        paths[side] = tmp_path / f"{side}.txt"
        paths[side].write_text("\n\n".join(r["text"] for r in records), encoding="utf-8")
    return paths


def test_report_reads_the_poems_in_the_language_given(tmp_path, poem_files):
    argv = ["report", "--generated", str(poem_files["generated"]), "--human",
            str(poem_files["human"]), "--dimensions", *DIMENSIONS, "--no-progress"]  # fmt: skip
    assert main([*argv, "--out", str(tmp_path / "de"), "--language", "de"]) == 0
    assert main([*argv, "--out", str(tmp_path / "en")]) == 0
    german = json.loads((tmp_path / "de" / "report.json").read_text(encoding="utf-8"))
    english = json.loads((tmp_path / "en" / "report.json").read_text(encoding="utf-8"))
    assert german["settings"]["language"] == "de" and english["settings"]["language"] == "en"
    generated = read_poems_by_suffix(poem_files["generated"])
    human = read_poems_by_suffix(poem_files["human"])
    expected = poetic_diversity(generated, human, dimensions=DIMENSIONS, language="de")
    assert german["scores"] == pytest.approx(expected, rel=1e-12)
    assert german["scores"]["reference_scheme_distribution_ABAB"] > 0.35
    assert german["scores"]["rhyme_kl"] != english["scores"]["rhyme_kl"]


def test_a_misspelt_language_is_refused_with_the_choices(tmp_path, poem_files, capsys):
    out = tmp_path / "report"
    argv = ["report", "--generated", str(poem_files["generated"]), "--human",
            str(poem_files["human"]), "--out", str(out), "--language", "dee"]  # fmt: skip
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "--language" in error and "did you mean 'de'" in error and "en, de" in error
    assert not out.exists()


def test_analyze_reads_sound_by_the_language(tmp_path, seed, capsys):
    text = seed["human"][0]["text"]  # "Der Abend legt sich auf das Feld, ..." (ABAB)
    path = tmp_path / "gedicht.txt"
    path.write_text(text, encoding="utf-8")
    results = {}
    for language in ("de", "en"):
        assert main(["analyze", str(path), "--json", "--language", language]) == 0
        [poem] = json.loads(capsys.readouterr().out)["poems"]
        results[language] = poem["analysis"]
    german = results["de"]
    assert german["rhyme_scheme"] == "ABAB"
    lines = text.split("\n")
    words = [[w.strip(",;.").lower() for w in line.split()] for line in lines]
    assert german["syllables_per_line"] == [
        sum(syllable_count(w, language="de") for w in line) for line in words
    ]
    assert german["syllables_per_line"][0] == 8  # Der A-bend legt sich auf das Feld
    assert [len(marks) for marks in german["stress_per_line"]] == german["syllables_per_line"]
    assert "?" not in "".join(german["stress_per_line"])  # German rules read every spelling
    assert results["en"]["syllables_per_line"] != german["syllables_per_line"] or (
        results["en"]["stress_per_line"] != german["stress_per_line"]
    )


def test_the_demo_german_section_sits_beside_the_english_one(tmp_path, seed):
    out = tmp_path / "out"
    english = [r["text"] for r in seed["human"]]  # any poems: the English part is not tested
    write_report(english[:8], english[8:], out, dimensions=["length"])
    report = german_section(out, 0)
    assert list(report["sections"]) == ["length", "diversity_de"]
    section = report["sections"]["diversity_de"]
    assert section["title"] == "German poems"
    tables = {table["caption"]: table for table in section["tables"]}
    assert list(tables) == [
        "Length", "Rhyme", "Rhyme: rhyme-scheme distributions", "Lexical diversity"
    ]  # fmt: skip
    rows = tables["Rhyme: rhyme-scheme distributions"]["rows"]
    distribution = {row[0]: (row[1], row[2]) for row in rows}
    human = Counter(r["scheme"] for r in seed["human"])
    assert distribution["ABAB"][1] == pytest.approx(human["ABAB"] / len(seed["human"]))
    for figure in ("rhyme_schemes_de.png", "length_histograms_de.png"):
        assert (out / "figures" / figure).stat().st_size > 1000
    assert {f["path"] for f in section["figures"]} == {
        "figures/rhyme_schemes_de.png", "figures/length_histograms_de.png"
    }  # fmt: skip
    saved = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert saved["scores"]["de_reference_scheme_distribution_ABAB"] == distribution["ABAB"][1]
    assert "de_mattr" in saved["scores"] and "length_mean" in saved["scores"]
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "## Length" in markdown and "## German poems" in markdown
