"""The diversity report: files, figures, sections other code can append, poem files, the CLI."""

from __future__ import annotations

import json
import math
import random

import matplotlib.image
import pytest
from encoder_doubles import CountingEncoder

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.cli import main
from poetic_eval.diversity import poetic_diversity
from poetic_eval.report import Section, Table, append_section, load_report
from poetic_eval.report.diversity_report import write_report
from poetic_eval.report.document import render_markdown
from poetic_eval.text import read_poems_by_suffix, write_poems

FIGURES = {"length_histograms.png", "rhyme_schemes.png", "max_similarity.png"}


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def corpora():
    rng = random.Random(21)
    poems = SyntheticPoems(rng)
    return poems.rhyming_quatrains(30) + poems.poems(2, lines=5), poems.rhyming_quatrains(120)


def assert_png(path, min_width=300):
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width = matplotlib.image.imread(path).shape[:2]
    assert width >= min_width and height >= 200


def test_write_report_files_scores_and_figures(corpora, tmp_path):
    generated, human = corpora
    out = tmp_path / "report"
    report = write_report(generated, human, out, model=CountingEncoder(), human_samples=3, seed=5)
    assert {p.name for p in (out / "figures").iterdir()} == FIGURES
    for name in FIGURES:
        assert_png(out / "figures" / name)
    stored = json.loads((out / "report.json").read_text())
    assert stored == report == load_report(out)
    expected = poetic_diversity(
        generated, human, semantic_model=CountingEncoder(), human_samples=3, seed=5
    )
    assert stored["scores"].keys() == expected.keys()
    for key, value in expected.items():
        assert stored["scores"][key] == pytest.approx(value), key
    assert list(stored["sections"]) == ["memorization", "length", "rhyme", "lexical", "semantic"]
    assert stored["inputs"]["generated"]["poems"] == len(generated)
    assert stored["settings"]["human_samples"] == 3
    markdown = (out / "report.md").read_text()
    assert markdown == render_markdown(stored)
    for title in (
        "## Memorization",
        "## Length",
        "## Rhyme",
        "## Lexical diversity",
        "## Semantic similarity",
        "figures/rhyme_schemes.png",
        "3 random samples",
    ):
        assert title in markdown
    assert f"| MTLD | {expected['mtld']:.4g} | {expected['reference_mtld']:.4g} |" in markdown
    scheme_rows = stored["sections"]["rhyme"]["tables"][1]["rows"]
    assert [row[0] for row in scheme_rows][:2] == ["AAAA", "AAAB"]
    assert sum(row[1] for row in scheme_rows) == pytest.approx(1.0)


def test_dimensions_limit_sections_and_figures(corpora, tmp_path):
    generated, human = corpora
    report = write_report(generated, human, tmp_path, dimensions=["lexical", "length"])
    assert list(report["sections"]) == ["length", "lexical"]
    assert [p.name for p in (tmp_path / "figures").iterdir()] == ["length_histograms.png"]
    assert report["settings"]["model"] is None


def test_other_code_can_append_a_section(corpora, tmp_path):
    generated, human = corpora
    write_report(generated, human, tmp_path, dimensions=["length"])
    table = Table(["phenomenon", "accuracy"], [["rhyme", 0.75], ["meter", None]], caption="pairs")
    report = append_section(tmp_path, "minimal_pairs", Section("Minimal pairs", "text", [table]))
    assert list(report["sections"]) == ["length", "minimal_pairs"]
    markdown = (tmp_path / "report.md").read_text()
    assert "## Minimal pairs" in markdown and "| rhyme | 0.75 |" in markdown
    assert "| meter | – |" in markdown
    replaced = append_section(tmp_path, "minimal_pairs", {"title": "Minimal pairs v2"})
    assert replaced["sections"]["minimal_pairs"]["tables"] == []
    assert load_report(tmp_path)["sections"]["minimal_pairs"]["title"] == "Minimal pairs v2"
    with pytest.raises(ValueError, match="row 0 has 1 cells, expected 2"):
        append_section(tmp_path, "bad", Section("Bad", tables=[Table(["a", "b"], [["x"]])]))
    with pytest.raises(TypeError, match="needs a string 'title'"):
        append_section(tmp_path, "bad", {"text": "no title"})
    with pytest.raises(FileNotFoundError, match="no report.json"):
        append_section(tmp_path / "elsewhere", "x", {"title": "x"})


def test_non_finite_scores_are_valid_json(tmp_path):
    human = ["a single line of verse", "another line of verse here", "and a third one"]
    report = write_report(["one line only", "and one more"], human, tmp_path,
                          dimensions=["memorization"])  # fmt: skip
    text = (tmp_path / "report.json").read_text()
    json.loads(text, parse_constant=lambda name: pytest.fail(f"non-standard JSON {name}"))
    assert report["scores"]["memorization_couplet"] == "nan"
    assert math.isnan(float(report["scores"]["memorization_couplet"]))


# --- poem files -------------------------------------------------------------------------------


def test_poem_file_formats(tmp_path):
    poems = ["first line\nsecond line", "third line\nfourth line"]
    write_poems(poems, tmp_path / "p.txt")
    (tmp_path / "p.jsonl").write_text(
        json.dumps(poems[0]) + "\n\n" + json.dumps({"text": poems[1].split("\n")}) + "\n"
    )
    (tmp_path / "p.json").write_text(json.dumps([{"text": poems[0]}, poems[1].split("\n")]))
    (tmp_path / "q.json").write_text(json.dumps({"poems": poems}))
    for name in ("p.txt", "p.jsonl", "p.json", "q.json"):
        assert read_poems_by_suffix(tmp_path / name) == poems, name


@pytest.mark.parametrize(
    ("name", "content", "error", "match"),
    [
        ("a.jsonl", '"ok"\n{"title": "x"}\n', ValueError, r"a.jsonl:2: an object needs a 'text'"),
        ("b.jsonl", '"ok"\n{broken\n', ValueError, r"b.jsonl:2: invalid JSON"),
        ("c.json", '{"rows": []}', ValueError, "expected a JSON list of poems"),
        ("d.json", '["fine", 3]', TypeError, r"d.json\[1\]: expected a poem"),
        ("e.json", '["fine", ["a", 2]]', TypeError, r"e.json\[1\]: a list of lines"),
        ("f.json", '["fine", "  \\n "]', ValueError, r"f.json\[1\]: the poem is empty"),
        ("g.txt", "\n\n  \n", ValueError, "no poems found"),
    ],
)
def test_bad_poem_files_name_the_row(tmp_path, name, content, error, match):
    (tmp_path / name).write_text(content)
    with pytest.raises(error, match=match):
        read_poems_by_suffix(tmp_path / name)


def test_missing_poem_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such poem file"):
        read_poems_by_suffix(tmp_path / "absent.txt")


# --- the CLI ----------------------------------------------------------------------------------


def test_cli_report_with_options(corpora, tmp_path, capsys):
    generated, human = corpora
    write_poems(generated, tmp_path / "generated.txt")
    (tmp_path / "human.jsonl").write_text("\n".join(json.dumps({"text": p}) for p in human))
    code = main([
        "report", "--generated", str(tmp_path / "generated.txt"),
        "--human", str(tmp_path / "human.jsonl"), "--out", str(tmp_path / "out"),
        "--dimensions", "length", "rhyme", "--option", "length_bins=10",
        "--option", "rhyme_smoothing=0.001", "--seed", "3", "--no-progress",
    ])  # fmt: skip
    assert code == 0
    assert "report.md" in capsys.readouterr().out
    report = load_report(tmp_path / "out")
    expected = poetic_diversity(
        generated, human, dimensions=["length", "rhyme"], length_bins=10, rhyme_smoothing=0.001
    )
    assert report["scores"]["rhyme_kl"] == pytest.approx(expected["rhyme_kl"])
    assert report["scores"]["length_histogram_intersection"] == pytest.approx(
        expected["length_histogram_intersection"]
    )
    assert report["settings"]["length_bins"] == 10


def test_cli_errors_are_reported_not_raised(corpora, tmp_path, capsys):
    generated, human = corpora
    write_poems(generated, tmp_path / "g.txt")
    write_poems(human, tmp_path / "h.txt")
    base = ["report", "--generated", str(tmp_path / "g.txt"), "--human", str(tmp_path / "h.txt"),
            "--out", str(tmp_path / "out"), "--no-progress"]  # fmt: skip
    assert main([*base, "--dimensions", "length", "--option", "length_binz=3"]) == 1
    assert "length has no option 'binz'" in capsys.readouterr().err
    assert main([*base, "--dimensions", "length", "--model", "some-model"]) == 1
    assert "semantic_model was given" in capsys.readouterr().err
    assert main([*base, "--option", "no-equals-sign"]) == 1
    assert "NAME=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--dimensions", "meter"])
    assert not (tmp_path / "out").exists()


def test_cli_report_with_the_bundled_minilm(tmp_path):
    rng = random.Random(22)
    write_poems(SyntheticPoems(rng).rhyming_quatrains(8), tmp_path / "g.txt")
    write_poems(SyntheticPoems(rng).rhyming_quatrains(20), tmp_path / "h.txt")
    code = main(["report", "--generated", str(tmp_path / "g.txt"), "--human",
                 str(tmp_path / "h.txt"), "--out", str(tmp_path / "out"),
                 "--dimensions", "semantic", "lexical", "--no-progress"])  # fmt: skip
    assert code == 0
    report = load_report(tmp_path / "out")
    assert report["settings"]["model"].startswith("all-MiniLM-L6-v2")
    assert 0 < report["scores"]["within_max_sim"] <= 1
    assert 0 < report["scores"]["across_max_sim"] <= 1
    assert_png(tmp_path / "out" / "figures" / "max_similarity.png")


# --- real corpora (../shared/data) ------------------------------------------------------------


def _four_line_stanzas(texts):
    from poetic_eval.text import stanzas

    return ["\n".join(s) for text in texts for s in stanzas(text) if len(s) == 4]


@pytest.mark.slow
@pytest.mark.needs_shared_data
def test_report_on_real_poems_with_planted_copies(shared_data, tmp_path):
    import csv

    from poetic_eval.diversity import diversity_profile

    table = (
        shared_data
        / "sonnet_or_not_public_domain_poems"
        / "poetry-evaluation_public-domain-poems.csv"
    )
    with table.open(encoding="utf-8") as stream:
        human = _four_line_stanzas(row["poem_text"] for row in csv.DictReader(stream))
    folder = shared_data / "erato_eval_poems" / "dataset_evaluation" / "dataset" / "openaienglish"
    files = sorted(folder.glob("*/*.txt"))
    generated = _four_line_stanzas(p.read_text(encoding="utf-8", errors="replace") for p in files)
    assert len(human) > 1000 and len(generated) > 100
    copies = human[:: len(human) // 10][:10]
    profile = diversity_profile(generated + copies, human, human_samples=3)
    scores, details = profile.scores, profile.details
    # every planted copy is memorized (quatrain and its 4 verses) and has a human twin at cosine 1
    assert scores["memorization_quatrain"] >= 10 / (len(generated) + 10)
    assert details["across_max_sim_values"][-10:] == pytest.approx([1.0] * 10, abs=1e-5)
    assert scores["memorization_verse"] >= 40 / (4 * (len(generated) + 10))
    for key in ("within_max_sim", "reference_within_max_sim", "across_max_sim"):
        assert 0 < scores[key] <= 1 + 1e-6, key
    out = tmp_path / "report"  # tmp_path holds the embedding cache
    report = write_report(generated, human, out, dimensions=["length", "rhyme", "semantic"])
    assert {p.name for p in (out / "figures").iterdir()} == FIGURES
    assert report["inputs"]["human"]["poems"] == len(human)


def test_only_a_report_folder_is_replaced(corpora, tmp_path):
    generated, human = corpora
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes")
    with pytest.raises(ValueError, match=r"refusing to replace .* \(it holds notes\.txt\)"):
        write_report(generated, human, mine, dimensions=["length"])
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    theirs = tmp_path / "theirs"  # someone's own report.json, report.md and figures
    (theirs / "figures").mkdir(parents=True)
    (theirs / "report.json").write_text('{"mine": 1}')
    (theirs / "report.md").write_text("# mine")
    (theirs / "figures" / "my_plot.png").write_bytes(b"png")
    with pytest.raises(ValueError, match=r"its report\.json was not written by poetic-eval"):
        write_report(generated, human, theirs, dimensions=["length"])
    assert (theirs / "report.json").read_text() == '{"mine": 1}'
    assert (theirs / "figures" / "my_plot.png").read_bytes() == b"png"
    out = tmp_path / "report"
    write_report(generated, human, out, dimensions=["length"])
    (out / "figures" / "my_plot.png").write_bytes(b"x")  # a file the report does not show
    with pytest.raises(ValueError, match=r"it holds figures/my_plot\.png"):
        write_report(generated, human, out, dimensions=["lexical"])
    assert (out / "figures" / "my_plot.png").read_bytes() == b"x"
    (out / "figures" / "my_plot.png").unlink()
    report = write_report(generated, human, out, dimensions=["lexical"])  # its own: replaced
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.md"]
    assert list(report["sections"]) == ["lexical"]
