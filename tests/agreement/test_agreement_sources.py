"""Conversion of published agreement formats (refining-tse JSON lines, Marvin & Linzen pickles,
BLiMP) into pair tables; the releases themselves when the shared corpora are there."""

from __future__ import annotations

import pickle
import pickletools
from collections import Counter

import pytest
from agreement_cases import NOUN_VARIES, write_jsonl

from poetic_eval.agreement import MARVIN_LINZEN_FAMILIES, convert_source
from poetic_eval.agreement.agreement_pairs import pair_tokens, single_token_difference, tse_label
from poetic_eval.agreement.grammatical_number import verb_pair_number


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
    write_jsonl(tmp_path / "obj_rel_within_anim_all.jsonl", records)
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
    write_jsonl(bad, [{"good": "A b.", "bad": "A c."}])
    with pytest.raises(ValueError, match="line 1 has fields \\['bad', 'good'\\]"):
        convert_source(bad)
    write_jsonl(bad, [{"sentence_good": "A b.", "sentence_bad": "A c.", "label": 3}])
    with pytest.raises(ValueError, match="line 1: a refining-tse label must be -1"):
        convert_source(bad)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="not a .jsonl or .pickle"):
        convert_source(tmp_path / "notes.txt")
    twice = tmp_path / "twice"
    for folder in ("a", "b"):
        (twice / folder).mkdir(parents=True)
        write_jsonl(
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
