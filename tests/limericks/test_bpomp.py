"""bpomp: sources, limerick verification, the three corruptions, and the built hub dataset."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import datasets
import pytest

import builders
import builders.bpomp as bpomp_builder
from builders.command_line import main as builders_main
from poetic_eval.cli import main as cli_main
from poetic_eval.hub import parquet_path
from poetic_eval.hub.cards import file_sha256
from poetic_eval.limericks import (
    INSTALL_HINT,
    LimerickRecord,
    SynonymFinder,
    WordNetNotFoundError,
    read_limerick_source,
    recombination_count,
    recombine_limericks,
    wordnet_available,
    wordnet_data,
)
from poetic_eval.limericks.corruptions import (
    CORRUPTIONS,
    Limerick,
    generate_pairs,
    line_swap,
    partner_lines,
    rhyme_word_swap,
    verify_limericks,
    word_before_end,
)
from poetic_eval.limericks.wordnet_data import LEXICOGRAPHER_FILES, lexnames_text
from poetic_eval.resources import seed_path
from poetic_eval.rhyme import in_dictionary, rhymes, same_word
from poetic_eval.text import final_word, tokens, write_poems

SEEDS = seed_path("limericks.txt")


@pytest.fixture(scope="module")
def seed_limericks() -> list[Limerick]:
    return verify_limericks(read_limerick_source(SEEDS), progress=False).kept


@pytest.fixture(scope="module")
def recombined(seed_limericks) -> list[Limerick]:
    """400 limericks the test generates (seeded) by recombining the seeds' rhyme groups."""
    texts = recombine_limericks(seed_limericks, 400, seed=11)
    records = [LimerickRecord(f"r{i}", text) for i, text in enumerate(texts)]
    return verify_limericks(records, progress=False).kept


@pytest.fixture(scope="module")
def finder() -> SynonymFinder:
    if not wordnet_available():
        pytest.skip(INSTALL_HINT)
    return SynonymFinder()


@pytest.fixture(scope="module")
def built(tmp_path_factory, finder):
    """The bpomp dataset built by `python -m builders bpomp` (in-process) from the seeds."""
    out = tmp_path_factory.mktemp("built") / "bpomp"
    code = builders_main(
        ["bpomp", "--out", str(out), "--seed", "5", "--n-pairs", "40", "--no-progress"]
    )
    assert code == 0
    return out


# --- sources -------------------------------------------------------------------------------


def test_seed_source_is_all_limericks(seed_limericks):
    records = read_limerick_source(SEEDS)
    assert len(records) >= 40
    assert len(seed_limericks) == len(records)
    for limerick in seed_limericks:
        assert all(in_dictionary(limerick.end_word(i)) for i in range(5)), limerick.text


def test_reads_oedilf_json(tmp_path):
    path = tmp_path / "oedilf.json"
    records = [
        {"id": 17, "limerick": "a\r\nb", "is_limerick": True, "author": "X"},
        {"limerick": "c\nd", "is_limerick": False},
        {"limerick": "e"},
    ]
    path.write_text(json.dumps(records), encoding="utf-8")
    read = read_limerick_source(path)
    assert read == [
        LimerickRecord("17", "a\nb", True, "X"),
        LimerickRecord("1", "c\nd", False, None),
        LimerickRecord("2", "e", None, None),
    ]


def test_reads_plain_text(tmp_path, seed_limericks):
    path = tmp_path / "mine.txt"
    write_poems([seed_limericks[0].text, seed_limericks[1].text], path)
    read = read_limerick_source(path)
    assert [r.source_id for r in read] == ["1", "2"]
    assert [r.text for r in read] == [seed_limericks[0].text, seed_limericks[1].text]
    assert all(r.is_limerick is None for r in read)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[{"limerick": "a"}, ', r"bad\.json: invalid JSON at line 1, column"),
        ('{"limerick": "a"}', r"bad\.json: expected a JSON list of limerick records, got dict"),
        ('[{"limerick": "a"}, 3]', r"bad\.json: record 1: expected an object, got int"),
        (
            '[{"limerick": "a"}, {"text": "a", "label": true}]',
            r"bad\.json: record 1: missing field 'limerick' \(fields present: label, text",
        ),
        ('[{"limerick": 5}]', r"record 0: 'limerick' must be a string, got int"),
        ('[{"limerick": "a", "is_limerick": "yes"}]', r"record 0: 'is_limerick' must be"),
        (
            '[{"limerick": "a", "islimerick": false}]',
            r"record 0: unknown field 'islimerick'; did you mean 'is_limerick'\?",
        ),
        ('[{"limerick": "a", "Author": "X"}]', r"unknown field 'Author'; did you mean 'author'"),
    ],
)
def test_source_errors_name_file_and_record(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_limerick_source(path)


def test_missing_and_undecodable_sources(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nowhere\.json does not exist"):
        read_limerick_source(tmp_path / "nowhere.json")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin\.txt: not UTF-8"):
        read_limerick_source(latin)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no limericks found"):
        read_limerick_source(empty)


# --- verification --------------------------------------------------------------------------


def test_verification_counts_every_drop(seed_limericks):
    rng = random.Random(3)
    good = [limerick.text for limerick in seed_limericks]
    records, expected = [], Counter()
    for i in range(200):
        text = rng.choice(good)
        kind = rng.choice(["ok", "label", "short", "scheme"])
        if kind == "label":
            records.append(LimerickRecord(str(i), text, is_limerick=False))
        elif kind == "short":
            records.append(LimerickRecord(str(i), "\n".join(text.split("\n")[:4])))
        elif kind == "scheme":  # lines 1 and 3 exchanged: ABABA-like, never AABBA
            lines = text.split("\n")
            lines[0], lines[2] = lines[2], lines[0]
            records.append(LimerickRecord(str(i), "\n".join(lines)))
        else:
            records.append(LimerickRecord(str(i), text, is_limerick=True))
        expected[kind] += 1
    report = verify_limericks(records, progress=False)
    texts = [limerick.text for limerick in report.kept]
    assert len(texts) == len(set(texts)) == len({r.text for r in records if r.is_limerick})
    assert report.dropped["labelled is_limerick=false in the source"] == expected["label"]
    assert report.dropped["not exactly 5 non-empty lines"] == expected["short"]
    assert report.dropped["rhyme scheme is not AABBA"] == expected["scheme"]
    duplicates = report.dropped["same text as an earlier limerick"]
    assert len(texts) + duplicates == expected["ok"]
    assert report.summary()[0] == f"kept {len(texts)} of 200 source records as verified limericks"


# --- swap corruptions (no WordNet needed) --------------------------------------------------


def changed_lines(good: str, bad: str) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(good.split("\n"), bad.split("\n"))) if a != b]


def test_rhyme_word_swap_invariants(recombined):
    rng = random.Random(0)
    for limerick in recombined:
        corruption = rhyme_word_swap(limerick, rng)
        i, j = corruption.lines
        assert (i, j) in ((0, 1), (0, 4), (1, 4), (2, 3))
        assert corruption.bad != limerick.text
        assert changed_lines(limerick.text, corruption.bad) == [i, j]
        bad_lines = corruption.bad.split("\n")
        assert final_word(bad_lines[i]) == limerick.end_word(j)
        assert final_word(bad_lines[j]) == limerick.end_word(i)
        assert corruption.original_words == (limerick.end_word(i), limerick.end_word(j))
        assert corruption.new_words == corruption.original_words[::-1]
        # only the two final words moved: the same words overall
        assert Counter(tokens(corruption.bad, strip_punctuation=True)) == Counter(
            tokens(limerick.text, strip_punctuation=True)
        )


def test_line_swap_invariants(recombined):
    rng = random.Random(1)
    for limerick in recombined:
        corruption = line_swap(limerick, rng)
        i, j = corruption.lines
        bad_lines = corruption.bad.split("\n")
        assert changed_lines(limerick.text, corruption.bad) == [i, j]
        assert (bad_lines[i], bad_lines[j]) == (limerick.lines[j], limerick.lines[i])
        assert sorted(bad_lines) == sorted(limerick.lines)


def test_no_swap_when_words_or_lines_are_identical():
    repeated = Limerick("x", ("a b day", "c d day", "e night", "f night", "g day"))
    assert rhyme_word_swap(repeated, random.Random(0)) is None
    assert line_swap(repeated, random.Random(0)) is not None
    same_lines = Limerick("y", ("one day", "one day", "two nights", "two nights", "one day"))
    assert line_swap(same_lines, random.Random(0)) is None


def test_generate_pairs_is_seeded_capped_and_unique(recombined):
    first = generate_pairs(recombined, "line_swap", 150, seed=2, progress=False)
    again = generate_pairs(recombined, "line_swap", 150, seed=2, progress=False)
    other = generate_pairs(recombined, "line_swap", 150, seed=3, progress=False)
    assert [(p.limerick, p.corruption) for p in first.pairs] == [
        (p.limerick, p.corruption) for p in again.pairs
    ]
    assert [p.corruption.bad for p in first.pairs] != [p.corruption.bad for p in other.pairs]
    assert len(first.pairs) == 150 and not first.capped
    everything = generate_pairs(recombined, "rhyme_word_swap", 10**6, seed=2, progress=False)
    assert everything.capped
    assert len(everything.pairs) + everything.without_candidate == len(recombined)
    keys = [(p.limerick.text, p.corruption.bad) for p in everything.pairs]
    assert len(keys) == len(set(keys))
    assert len({p.limerick.text for p in everything.pairs}) == len(everything.pairs)
    with pytest.raises(ValueError, match="unknown corruption 'shuffle'"):
        generate_pairs(recombined, "shuffle", 1, seed=0)


def test_recombination_counts(seed_limericks):
    assert recombination_count(45) == 24_300
    texts = recombine_limericks(seed_limericks[:3], recombination_count(3), seed=0)
    assert len(texts) == len(set(texts)) == 108
    with pytest.raises(ValueError, match="exceeds the 108 recombinations"):
        recombine_limericks(seed_limericks[:3], 109, seed=0)


# --- WordNet and synonyms ------------------------------------------------------------------


def test_lexnames_file_lists_the_45_lexicographer_files():
    rows = [line.split("\t") for line in lexnames_text().splitlines()]
    assert len(rows) == len(LEXICOGRAPHER_FILES) == 45
    assert [int(number) for number, _, _ in rows] == list(range(45))
    assert rows[0] == ["00", "adj.all", "3"] and rows[3] == ["03", "noun.Tops", "1"]
    assert rows[44] == ["44", "adj.ppl", "3"] and rows[29] == ["29", "verb.body", "2"]


def test_missing_wordnet_says_how_to_install(tmp_path, monkeypatch):
    with pytest.raises(WordNetNotFoundError, match="apt-get install wordnet-base"):
        wordnet_data.find_wordnet_root(tmp_path)
    import nltk

    def not_found(resource, *args, **kwargs):
        raise LookupError(resource)

    monkeypatch.setattr(nltk.data, "find", not_found)
    monkeypatch.setattr(wordnet_data, "DEBIAN_WORDNET", tmp_path / "absent")
    monkeypatch.delenv("WNHOME", raising=False)
    assert not wordnet_available()
    with pytest.raises(WordNetNotFoundError, match=r"nltk\.download\('wordnet'\)"):
        wordnet_data.find_wordnet_root()


def test_build_without_wordnet_leaves_out_synonym_replace(tmp_path, monkeypatch):
    def unavailable(*args, **kwargs):
        raise WordNetNotFoundError(INSTALL_HINT)

    monkeypatch.setattr(bpomp_builder, "SynonymFinder", unavailable)
    dataset = bpomp_builder.build_bpomp(n_pairs=5, progress=False)
    assert dataset.config_names() == ["rhyme_word_swap", "line_swap"]
    assert any("synonym_replace not built" in line and "apt-get" in line for line in dataset.report)


def test_part_of_speech_and_inflected_synonyms(finder):
    assert finder.lemma_and_pos("cats") == ("cat", "n")
    assert finder.lemma_and_pos("ran") == ("run", "v")
    assert finder.part_of_speech("qzxv") is None
    # the word before is the cue: determiners announce nouns, modals and pronouns verbs
    assert finder.part_of_speech("train") == "v"
    assert finder.part_of_speech("train", "the") == "n"
    assert finder.part_of_speech("train", "her") == "n"
    assert finder.part_of_speech("fall", "would") == "v"
    assert finder.part_of_speech("slow", "the") == "a"  # no noun reading: the usual rule
    assert all(s.synset.split(".")[1] == "n" for s in finder.synonyms("train", "the"))
    for word in ("cats", "running", "towns"):
        for synonym in finder.synonyms(word):
            assert synonym.word.endswith("s" if word.endswith("s") else "ing"), synonym
    for synonym in finder.synonyms("bright"):
        assert synonym.pos == "a" and "_" not in synonym.word and synonym.word != "bright"


def assert_valid_synonym_pair(row, finder):
    corruption = row["corruption"]
    (index,) = corruption["lines"]
    (original,) = corruption["original_words"]
    (new,) = corruption["new_words"]
    assert changed_lines(row["good"], row["bad"]) == [index]
    good_line, bad_line = row["good"].split("\n")[index], row["bad"].split("\n")[index]
    assert final_word(good_line) == original and final_word(bad_line) == new
    start = good_line.rfind(original)
    assert bad_line == good_line[:start] + new + good_line[start + len(original) :]
    assert new.isalpha() and new.islower() and new != original and in_dictionary(new)
    lemma, pos = finder.lemma_and_pos(original, word_before_end(good_line))
    assert corruption["pos"] == pos
    synset = finder.wordnet.synset(corruption["synset"])
    assert synset.pos() in ({"a", "s"} if pos == "a" else {pos})
    assert synset in finder.wordnet.synsets(lemma, pos)  # a sense of the original word
    new_lemma = finder.wordnet.morphy(new, pos) or new
    assert new_lemma in synset.lemma_names() or new in synset.lemma_names()
    partners = [final_word(row["bad"].split("\n")[i]) for i in partner_lines(index)]
    assert not any(rhymes(new, partner) or same_word(new, partner) for partner in partners)


def test_synonym_pairs_on_generated_limericks(recombined, finder):
    generation = generate_pairs(
        recombined, "synonym_replace", 300, 4, finder=finder, progress=False
    )
    assert len(generation.pairs) > 100
    for pair in generation.pairs:
        row = {
            "good": pair.limerick.text,
            "bad": pair.corruption.bad,
            "corruption": pair.corruption.as_record(),
        }
        assert_valid_synonym_pair(row, finder)
    assert {line for pair in generation.pairs for line in pair.corruption.lines} == {0, 1, 2, 3, 4}


# --- the built dataset ---------------------------------------------------------------------


def test_built_configs_load_offline(built, finder, seed_limericks):
    texts = {limerick.text for limerick in seed_limericks}
    for config in CORRUPTIONS:
        rows = datasets.load_dataset(str(built), config, split="test").to_list()
        assert len(rows) == 40
        assert [row["id"] for row in rows] == [f"{config}-{i:05d}" for i in range(40)]
        assert len({(row["good"], row["bad"]) for row in rows}) == 40
        assert len({row["source_id"] for row in rows}) == 40
        for row in rows:
            assert row["good"] in texts and row["good"] != row["bad"]
            assert row["corruption"]["type"] == config
            if config == "synonym_replace":
                assert_valid_synonym_pair(row, finder)
            else:
                assert row["corruption"]["synset"] == row["corruption"]["pos"] == ""
    with pytest.raises(ValueError, match=r"'swap' not found.*'rhyme_word_swap', 'line_swap'"):
        datasets.load_dataset(str(built), "swap")


def test_card_records_seed_checksum_counts_and_command(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert file_sha256(SEEDS) in card
    assert "seed `5`" in card
    assert "poetic-eval build bpomp --out" in card and "--seed 5 --n-pairs 40" in card
    assert "| `synonym_replace` | test | 40 |" in card
    assert "kept 45 of 45 source records" in card
    assert "license: cc-by-4.0" in card


def test_rebuild_is_byte_identical_and_seed_dependent(built, tmp_path, finder):
    again = tmp_path / "again" / "bpomp"
    other = tmp_path / "other" / "bpomp"
    for out, seed in ((again, "5"), (other, "6")):
        assert (
            builders_main(
                ["bpomp", "--out", str(out), "--seed", seed, "--n-pairs", "40", "--no-progress"]
            )
            == 0
        )
    for config in CORRUPTIONS:
        path = parquet_path(config, "test")
        assert (built / path).read_bytes() == (again / path).read_bytes()
        assert (built / path).read_bytes() != (other / path).read_bytes()
    assert (again / "README.md").read_bytes() == (built / "README.md").read_bytes()  # any folder


def test_build_all_and_cli_build_forward_options(tmp_path, monkeypatch, finder, seed_limericks):
    source = tmp_path / "three.txt"
    write_poems([limerick.text for limerick in seed_limericks[:3]], source)
    monkeypatch.setattr(builders, "BUILDERS", {"bpomp": builders.BUILDERS["bpomp"]})
    monkeypatch.setattr("builders.command_line.BUILDERS", builders.BUILDERS)
    out = tmp_path / "datasets"
    code = builders_main(
        ["all", "--out", str(out), "--seed", "1", "--bpomp-source", str(source),
         "--n-pairs", "2", "--no-progress"]
    )  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["bpomp"]
    rows = datasets.load_dataset(str(out / "bpomp"), "line_swap", split="test")
    assert rows.num_rows == 2
    card = (out / "bpomp" / "README.md").read_text(encoding="utf-8")
    assert (
        f"--source {source.name}" in card
        and str(source.parent) not in card
        and "license: other" in card
    )
    code = cli_main(
        ["build", "bpomp", "--source", str(source), "--out", str(tmp_path / "cli"),
         "--n-pairs", "9", "--no-progress"]
    )  # fmt: skip
    assert code == 0
    card = (tmp_path / "cli" / "README.md").read_text(encoding="utf-8")
    assert "3 pairs (9 requested; capped at one pair per source limerick)" in card


def test_failed_build_names_the_source_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"poem": "x"}]', encoding="utf-8")
    out = tmp_path / "out" / "bpomp"
    assert builders_main(["bpomp", "--source", str(bad), "--out", str(out)]) == 1
    assert "bad.json: record 0: missing field 'limerick'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    prose = tmp_path / "prose.txt"
    prose.write_text("Not a limerick at all.\n", encoding="utf-8")
    assert builders_main(["bpomp", "--source", str(prose), "--out", str(out)]) == 1
    assert "no verified limericks" in capsys.readouterr().err
    assert not out.exists()


def test_python_dash_m_builders_runs(repo_root):
    result = subprocess.run(
        [sys.executable, "-m", "builders", "bpomp", "--help"],
        cwd=repo_root, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "--n-pairs" in result.stdout and "--source PATH" in result.stdout
