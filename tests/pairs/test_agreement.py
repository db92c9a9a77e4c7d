"""The agreement dataset: grammar, published-format conversion, labels and the hub build."""

from __future__ import annotations

import itertools
import json
import pickle
import pickletools
from collections import Counter
from pathlib import Path

import datasets
import pytest

from builders import agreement as agreement_builder
from builders.command_line import main as builders_main
from poetic_eval.pairs import (
    BLIMP_FAMILIES,
    FAMILIES,
    LABEL_NAMES,
    MARVIN_LINZEN_FAMILIES,
    AgreementPair,
    convert_source,
    family_capacity,
    generate_all_pairs,
    generate_pairs,
    label_from_tse,
    load_lexicon,
    noun_pair_number,
    pair_tokens,
    single_token_difference,
    tse_label,
    verb_pair_number,
)
from poetic_eval.resources import seed_path

N_PAIRS = 400
NOUN_VARIES = {
    "regular_plural_subject_verb_agreement_2",
    "irregular_plural_subject_verb_agreement_2",
}


# --- independent word sets, read straight from the lexicon JSON ------------------------------


@pytest.fixture(scope="module")
def raw_lexicon() -> dict:
    return json.loads(seed_path("agreement_lexicon.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def verb_forms(raw_lexicon) -> dict[str, set[str]]:
    """Singular and plural present forms of every agreeing word the lexicon has."""
    singular, plural = {"is"}, {"are"}
    for key in (
        "intransitive_verbs",
        "person_transitive_verbs",
        "work_transitive_verbs",
        "thing_intransitive_verbs",
        "thing_transitive_verbs",
        "long_verb_phrases",
        "auxiliaries",
    ):
        for entry in raw_lexicon[key]:
            singular.add(entry[0])
            plural.add(entry[1])
    assert not singular & plural
    return {"singular": singular, "plural": plural}


@pytest.fixture(scope="module")
def noun_forms(raw_lexicon) -> dict[str, set[str]]:
    singular, plural = set(), set()
    for key in (
        "person_nouns",
        "irregular_person_nouns",
        "irregular_animal_nouns",
        "work_nouns",
        "irregular_thing_nouns",
        "relative_nouns",
        "depiction_nouns",
    ):
        for entry in raw_lexicon[key]:
            singular.add(entry[0])
            plural.add(entry[1])
    assert not singular & plural
    return {"singular": singular, "plural": plural}


@pytest.fixture(scope="module")
def generated() -> dict[str, list[AgreementPair]]:
    return generate_all_pairs(n_pairs=N_PAIRS, seed=0)


# --- the grammar ------------------------------------------------------------------------------


def test_every_family_is_generated_with_the_requested_count_and_balanced_labels(generated):
    assert list(generated) == list(FAMILIES)
    for family, pairs in generated.items():
        assert len(pairs) == N_PAIRS, family
        assert Counter(pair.label for pair in pairs) == {
            "singular": N_PAIRS // 2,
            "plural": N_PAIRS // 2,
        }
        assert {pair.family for pair in pairs} == {family}
        assert len({(pair.sentence_good, pair.sentence_bad) for pair in pairs}) == N_PAIRS, family


def test_every_pair_differs_in_exactly_one_token(generated):
    for pairs in generated.values():
        for pair in pairs:
            good, bad = (
                pair.sentence_good.rstrip(".").split(),
                pair.sentence_bad.rstrip(".").split(),
            )
            assert len(good) == len(bad), pair
            assert sum(a != b for a, b in zip(good, bad)) == 1, pair
            assert pair.sentence_good.endswith(".") and pair.sentence_good[0].isupper()


def test_label_is_the_number_of_the_good_verb(generated, verb_forms, noun_forms):
    for family, pairs in generated.items():
        for pair in pairs:
            position, good_word, bad_word = single_token_difference(
                pair.sentence_good, pair.sentence_bad
            )
            other = "plural" if pair.label == "singular" else "singular"
            assert pair.case.split("_")[0] == pair.label[:4], pair
            if family in NOUN_VARIES:
                good_word, bad_word = good_word.lower(), bad_word.lower()
                assert good_word in noun_forms[pair.label] and bad_word in noun_forms[other], pair
                verb = pair_tokens(pair.sentence_good)[position + 1]
                assert verb in verb_forms[pair.label], pair
            else:
                assert good_word in verb_forms[pair.label], pair
                assert bad_word in verb_forms[other], pair


def test_determiners_articles_and_nouns_agree(generated, raw_lexicon, noun_forms):
    singular_determiners = set(raw_lexicon["determiners"]["singular"]) - {"the"} | {"an"}
    plural_determiners = set(raw_lexicon["determiners"]["plural"]) - {"the"}
    for family in BLIMP_FAMILIES:
        for pair in generated[family]:
            tokens = [token.lower() for token in pair_tokens(pair.sentence_good)]
            for determiner, word in itertools.pairwise(tokens):
                # "that" is also a complementizer; check it only before a noun
                if word not in noun_forms["singular"] | noun_forms["plural"]:
                    continue
                if determiner in ("a", "an"):
                    assert (determiner == "an") == (word[0] in "aeiou"), pair
                if determiner in singular_determiners:
                    assert word in noun_forms["singular"], pair
                if determiner in plural_determiners:
                    assert word in noun_forms["plural"], pair


def test_stative_verbs_are_never_progressive(generated, raw_lexicon):
    stative = set(raw_lexicon["stative_verbs"])
    ing_forms = {
        entry[2]
        for key in ("person_transitive_verbs", "work_transitive_verbs", "intransitive_verbs")
        for entry in raw_lexicon[key]
        if entry[1] in stative
    }
    assert ing_forms
    for pairs in generated.values():
        for pair in pairs:
            assert not ing_forms & set(pair_tokens(pair.sentence_good)), pair


def test_lexicon_has_no_words_whose_article_the_vowel_rule_gets_wrong(noun_forms):
    # "a university", "an hour": the grammar picks a/an by the first letter only
    for noun in noun_forms["singular"]:
        assert not noun.startswith(("uni", "use", "eu", "one", "hour", "hon", "heir")), noun


def test_generation_is_deterministic_and_seeded(generated):
    again = generate_pairs("prep_anim", n_pairs=N_PAIRS, seed=0)
    assert again == generated["prep_anim"]  # independent of which other families were built
    other_seed = generate_pairs("prep_anim", n_pairs=N_PAIRS, seed=1)
    assert other_seed != again


def test_generation_is_capped_by_the_grammar():
    capacity = family_capacity("simple_agrmt")
    pairs = generate_pairs("simple_agrmt", n_pairs=capacity * 10, seed=3)
    assert len(pairs) == capacity
    assert len({pair.sentence_good for pair in pairs}) == capacity


def test_generation_is_fast():
    import time

    lexicon = load_lexicon()
    generate_pairs("subj_rel", n_pairs=10, lexicon=lexicon)  # builds the verb-phrase lists once
    start = time.perf_counter()
    pairs = generate_all_pairs(n_pairs=1000, seed=7, lexicon=lexicon)
    elapsed = time.perf_counter() - start
    assert sum(len(rows) for rows in pairs.values()) == 1000 * len(FAMILIES)
    assert elapsed < 5, f"{elapsed:.2f} s for {1000 * len(FAMILIES)} pairs"


def test_bad_arguments_raise_clear_errors(tmp_path):
    with pytest.raises(
        ValueError, match="unknown agreement family 'nope'; available: simple_agrmt"
    ):
        generate_pairs("nope")
    with pytest.raises(ValueError, match="n_pairs must be >= 1"):
        generate_pairs("simple_agrmt", n_pairs=0)
    with pytest.raises(TypeError, match="seed must be an integer"):
        generate_pairs("simple_agrmt", seed="0")
    broken = tmp_path / "lexicon.json"
    broken.write_text(json.dumps({"person_nouns": [["poet", "poets"]]}))
    with pytest.raises(ValueError, match="lexicon.json: missing key 'determiners'"):
        load_lexicon(broken)
    broken.write_text('{"person_nouns": [["poet"]]')
    with pytest.raises(ValueError, match="not valid JSON"):
        load_lexicon(broken)


# --- labels and the one-token check -----------------------------------------------------------


def test_label_conventions():
    assert LABEL_NAMES == ("singular", "plural")
    assert [tse_label(name) for name in LABEL_NAMES] == [-1, -2]
    assert [label_from_tse(value) for value in (-1, -2)] == ["singular", "plural"]
    assert [-1 - LABEL_NAMES.index(label_from_tse(v)) for v in (-1, -2)] == [-1, -2]
    with pytest.raises(ValueError, match="-1 .singular. or -2 .plural."):
        label_from_tse(1)
    with pytest.raises(ValueError, match="label must be one of"):
        AgreementPair("a b", "a c", "dual", "f", "")


def test_single_token_difference():
    assert single_token_difference("The poets sleep.", "The poets sleeps.") == (
        2,
        "sleep",
        "sleeps",
    )
    with pytest.raises(ValueError, match="differ in 0 tokens"):
        single_token_difference("The poets sleep.", "The poets sleep")
    with pytest.raises(ValueError, match="differ in 2 tokens"):
        single_token_difference("The poet sleeps.", "The poets sleep.")
    with pytest.raises(ValueError, match="3 and 4 tokens"):
        single_token_difference("The poets sleep.", "The poets do sleep.")


def test_number_of_verb_and_noun_pairs():
    cases = [("likes", "like"), ("isn't", "weren't"), ("discusses", "discuss"), ("cries", "cry")]
    assert [verb_pair_number(a, b) for a, b in cases] == ["singular"] * 4
    assert verb_pair_number("have", "has") == "plural"
    assert verb_pair_number("discuss", "discusses") == "plural"
    nouns = [
        ("cacti", "cactus"),
        ("women", "woman"),
        ("analyses", "analysis"),
        ("people", "person"),
        ("leaves", "leaf"),
        ("diaries", "diary"),
        ("oxen", "ox"),
    ]
    assert [noun_pair_number(a, b) for a, b in nouns] == ["plural"] * len(nouns)
    assert noun_pair_number("couch", "couchs") == "singular"
    with pytest.raises(ValueError, match="'sing' / 'singing'"):
        verb_pair_number("sing", "singing")
    with pytest.raises(ValueError, match="neither is a plural"):
        noun_pair_number("cat", "dog")


# --- conversion of published formats ---------------------------------------------------------


def _write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def test_convert_refining_tse_format(tmp_path, generated):
    pairs = generated["obj_rel_within_anim"][:20]
    records = [
        {
            "sentence_good": p.sentence_good,
            "sentence_bad": p.sentence_bad,
            "label": tse_label(p.label),
        }
        for p in pairs
    ]
    _write_jsonl(tmp_path / "obj_rel_within_anim_all.jsonl", records)
    converted = convert_source(tmp_path)
    rows = converted.configs["obj_rel_within_anim"]
    assert [(r.sentence_good, r.sentence_bad, r.label) for r in rows] == [
        (p.sentence_good, p.sentence_bad, p.label) for p in pairs
    ]
    assert {r.case for r in rows} == {""}


def test_convert_marvin_linzen_pickle_refuses_code(tmp_path, generated):
    cases: dict[str, list] = {}
    for pair in generated["sent_comp"][:40]:
        cases.setdefault(pair.case, []).append(
            (pair.sentence_good.rstrip(".").lower(), pair.sentence_bad.rstrip(".").lower())
        )
    with open(tmp_path / "sent_comp.pickle", "wb") as stream:
        pickle.dump(cases, stream, protocol=2)
    with open(tmp_path / "simple_reflexives.pickle", "wb") as stream:
        pickle.dump(
            {"sing_MS_ANPHR": [("the poet hurt himself", "the poet hurt themselves")]}, stream
        )
    converted = convert_source(tmp_path)
    assert list(converted.configs) == ["sent_comp"]
    rows = converted.configs["sent_comp"]
    assert len(rows) == 40 and all(row.case.startswith(row.label[:4]) for row in rows)
    assert any("simple_reflexives" in line for line in converted.skipped)

    class Exploit:
        def __reduce__(self):
            return (print, ("pickles must not run code",))

    payload = pickle.dumps({"sing_MS_MV": [Exploit()]})
    assert any(op.name in ("GLOBAL", "STACK_GLOBAL") for op, _, _ in pickletools.genops(payload))
    (tmp_path / "simple_agrmt.pickle").write_bytes(payload)
    with pytest.raises(ValueError, match="refusing to load builtins.print"):
        convert_source(tmp_path / "simple_agrmt.pickle")


def test_convert_errors_name_the_file_and_line(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        convert_source(tmp_path / "missing")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"sentence_good": "A b.", "sentence_bad": "A c.", "label": -1}\n{oops\n')
    with pytest.raises(ValueError, match=r"bad.jsonl, line 2: not valid JSON"):
        convert_source(bad)
    _write_jsonl(bad, [{"good": "A b.", "bad": "A c."}])
    with pytest.raises(ValueError, match="line 1 has fields \\['bad', 'good'\\]"):
        convert_source(bad)
    _write_jsonl(bad, [{"sentence_good": "A b.", "sentence_bad": "A c.", "label": 3}])
    with pytest.raises(ValueError, match="line 1: a refining-tse label must be -1"):
        convert_source(bad)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="not a .jsonl or .pickle"):
        convert_source(tmp_path / "notes.txt")
    twice = tmp_path / "twice"
    for folder in ("a", "b"):
        (twice / folder).mkdir(parents=True)
        _write_jsonl(
            twice / folder / "simple_agrmt_all.jsonl",
            [{"sentence_good": "the poet sleeps", "sentence_bad": "the poet sleep", "label": -1}],
        )
    with pytest.raises(ValueError, match="family 'simple_agrmt' comes from both"):
        convert_source(twice)


@pytest.fixture(scope="module")
def refining_tse(shared_data):
    return convert_source(shared_data / "refining_tse")


@pytest.fixture(scope="module")
def blimp(shared_data):
    return convert_source(shared_data / "blimp")


@pytest.mark.needs_shared_data
def test_convert_refining_tse_release(refining_tse):
    counts = {family: len(rows) for family, rows in refining_tse.configs.items()}
    assert set(counts) == set(MARVIN_LINZEN_FAMILIES) | {
        "regular_plural_subject_verb_agreement_1",
        "irregular_plural_subject_verb_agreement_1",
        "distractor_agreement_relational_noun",
        "distractor_agreement_relative_clause",
    }
    # per-file counts of SOURCE.md (their sum is 121,220; its "total 121,040" is a typo)
    assert [counts[family] for family in MARVIN_LINZEN_FAMILIES] == [
        140,
        1680,
        840,
        400,
        16800,
        5040,
        11200,
        11200,
        10080,
        11200,
        10080,
        11200,
        10080,
        11200,
        10080,
    ]
    assert not refining_tse.dropped
    for family in MARVIN_LINZEN_FAMILIES:
        labels = Counter(row.label for row in refining_tse.configs[family])
        assert labels["singular"] == labels["plural"], family
    # the published labels agree with the number of the varied verb form, on every row
    for rows in refining_tse.configs.values():
        for row in rows:
            _, good, bad = single_token_difference(row.sentence_good, row.sentence_bad)
            assert verb_pair_number(good, bad) == row.label, row


@pytest.mark.needs_shared_data
def test_blimp_labels_match_refining_tse_labels(blimp, refining_tse):
    assert {family: len(rows) for family, rows in blimp.configs.items()} == {
        "distractor_agreement_relational_noun": 1000,
        "distractor_agreement_relative_clause": 999,
        "irregular_plural_subject_verb_agreement_1": 1000,
        "irregular_plural_subject_verb_agreement_2": 1000,
        "regular_plural_subject_verb_agreement_1": 1000,
        "regular_plural_subject_verb_agreement_2": 1000,
    }
    assert len(blimp.dropped) == 1 and "line 822" in blimp.dropped[0]
    compared = 0
    for family in (
        "regular_plural_subject_verb_agreement_1",
        "irregular_plural_subject_verb_agreement_1",
        "distractor_agreement_relational_noun",
    ):
        published = {
            (r.sentence_good, r.sentence_bad): r.label for r in refining_tse.configs[family]
        }
        for row in blimp.configs[family]:
            assert published[(row.sentence_good, row.sentence_bad)] == row.label, row
            compared += 1
    assert compared == 3000
    # *_2: the noun varies; the fixed verb, where it is be/have/do, agrees with the label
    checked = 0
    for family in NOUN_VARIES:
        for row in blimp.configs[family]:
            position, _, _ = single_token_difference(row.sentence_good, row.sentence_bad)
            verb = pair_tokens(row.sentence_good)[position + 1]
            if verb in ("is", "isn't", "was", "wasn't", "has", "hasn't", "doesn't"):
                assert row.label == "singular", row
                checked += 1
            elif verb in ("are", "aren't", "were", "weren't", "have", "haven't", "don't"):
                assert row.label == "plural", row
                checked += 1
    assert checked > 300


@pytest.mark.needs_shared_data
def test_convert_marvin_linzen_release(shared_data):
    converted = convert_source(shared_data / "marvin_linzen_2018")
    assert set(converted.configs) == set(MARVIN_LINZEN_FAMILIES)
    # EMNLP 2018 version, per-file counts of SOURCE.md
    assert [len(converted.configs[family]) for family in MARVIN_LINZEN_FAMILIES] == [
        140,
        1680,
        840,
        400,
        16800,
        5600,
        11200,
    ] + [11200] * 8
    assert sum("not a subject-verb agreement template" in line for line in converted.skipped) == 7
    for rows in converted.configs.values():
        for row in rows:
            _, good, bad = single_token_difference(row.sentence_good, row.sentence_bad)
            assert verb_pair_number(good, bad) == row.label, row


# --- the hub build ----------------------------------------------------------------------------


def _parquet_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("agreement") / "agreement"
    assert builders_main(["agreement", "--out", str(out), "--seed", "5", "--n-pairs", "60"]) == 0
    return out


def test_build_loads_offline_for_every_config(built, tmp_path):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert "--n-pairs 60" in card and "agreement_lexicon.json" in card
    for config in [*FAMILIES, "verbs"]:
        data = datasets.load_dataset(str(built), config, split="test", cache_dir=str(tmp_path))
        if config == "verbs":
            assert data.column_names == ["lemma", "singular", "plural", "frequency"]
            assert {"lemma": "be", "singular": "is", "plural": "are"}.items() <= data[0].items()
            continue
        assert data.num_rows == 60
        assert data.features["label"].names == ["singular", "plural"]
        expected = generate_pairs(config, n_pairs=60, seed=5)
        assert data[0]["sentence_good"] == expected[0].sentence_good
        assert data.features["label"].int2str(data[0]["label"]) == expected[0].label
    with pytest.raises(ValueError, match="simple_agrmt"):
        datasets.load_dataset(str(built), "no_such_config", cache_dir=str(tmp_path))


def test_build_is_deterministic(built, tmp_path):
    again = tmp_path / "agreement"
    assert builders_main(["agreement", "--out", str(again), "--seed", "5", "--n-pairs", "60"]) == 0
    assert _parquet_bytes(again) == _parquet_bytes(built)
    assert (again / "README.md").read_text().replace(str(again), "OUT") == (
        (built / "README.md").read_text().replace(str(built), "OUT")
    )


def test_build_converts_published_files(tmp_path, generated):
    source = tmp_path / "source"
    source.mkdir()
    pairs = generated["vp_coord"][:30]
    _write_jsonl(
        source / "vp_coord_all.jsonl",
        [
            {
                "sentence_good": p.sentence_good,
                "sentence_bad": p.sentence_bad,
                "label": tse_label(p.label),
            }
            for p in pairs
        ],
    )
    out = tmp_path / "converted"
    assert (
        builders_main(["agreement", "--source", str(source), "--out", str(out), "--seed", "0"]) == 0
    )
    data = datasets.load_dataset(
        str(out), "vp_coord", split="test", cache_dir=str(tmp_path / "cache")
    )
    assert data["sentence_good"] == [p.sentence_good for p in pairs]
    assert "vp_coord_all.jsonl" in (out / "README.md").read_text()
    assert "license: other" in (out / "README.md").read_text()


@pytest.mark.needs_shared_data
def test_build_converts_the_blimp_release(shared_data, tmp_path):
    dataset = agreement_builder.converted_dataset(
        shared_data / "blimp", 0, agreement_builder.verbs_config()
    )
    assert dataset.config_names()[:-1] == list(BLIMP_FAMILIES)
    assert any("dropped 1 pairs" in line for line in dataset.report)


@pytest.mark.parametrize("n_pairs", [1, 2, 3, 5, 7])
def test_small_requests_never_exceed_the_count(n_pairs):
    """A family with more cases than requested pairs leaves some cases at zero, not unlimited."""
    from poetic_eval.pairs import FAMILIES, generate_pairs

    for family in FAMILIES:
        pairs = generate_pairs(family, n_pairs=n_pairs, seed=0)
        assert 0 < len(pairs) <= n_pairs, family
