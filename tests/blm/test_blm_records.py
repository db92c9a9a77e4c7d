"""Reading and validating BLM records in the BLM-It release format."""

from __future__ import annotations

import json

import pytest

from poetic_eval.blm import BlmRecordError, read_blm_items, validate_blm_record
from poetic_eval.blm.records import make_blm_record

CONTEXT = [f"frase di contesto numero {n}" for n in range(1, 8)]
ANSWERS = [f"risposta {letter}" for letter in "ABCDEFGH"]
LABELS = ["IR-trans", "IER-pass", "ER-pass", "R-trans", "Correct", "I-Int", "E-WrBy", "IE-WrBy"]


def release_record(**changes):
    """A record as the release writes it: sentences without prefixes, annotation by letter."""
    record = {
        "ID": 215,
        "Context": list(CONTEXT),
        "Context_concatenated": "\n".join(f"{i}\t{s}" for i, s in enumerate(CONTEXT, 1)),
        "Answer_set": list(ANSWERS),
        # the release repeats a letter here; the reader must not rely on this field
        "Answer_concatenated": "\n".join(f"{l}\t{s}" for l, s in zip("ABCDEFGE", ANSWERS)),
        "Correct_option": "E",
        "Correct_answer": "risposta E",
        "Answer_set_annotation": [
            {"label": label, "value": label == "Correct", "option": letter}
            for label, letter in zip(LABELS, "ABCDEFGH")
        ],
        "Verb": "disegnare",
    }
    record.update(changes)
    return record


def test_release_record_without_prefixes_is_read():
    item = validate_blm_record(release_record())
    assert item.id == 215
    assert item.context == tuple(CONTEXT)
    assert item.answers == tuple(ANSWERS)
    assert (item.correct_option, item.correct_index, item.correct_answer) == ("E", 4, "risposta E")
    assert item.labels == tuple(LABELS)
    assert item.verb == "disegnare"


def test_prefixed_sentences_are_stripped_and_match_the_unprefixed_reading():
    made = make_blm_record(
        7,
        CONTEXT,
        ANSWERS,
        4,
        LABELS,
        verb="aprire",
        context_annotation=[{"pattern": "x", "chunks": []}] * 7,
        answer_annotation=[{"pattern": "y", "chunks": []}] * 8,
    )
    assert made["Context"][2] == f"3\t{CONTEXT[2]}"
    assert made["Answer_set"][7] == f"H\t{ANSWERS[7]}"
    assert made["Answer_concatenated"].split("\n")[4] == "E\trisposta E"
    item = validate_blm_record(made)
    assert item.context == tuple(CONTEXT) and item.answers == tuple(ANSWERS)
    assert item.labels == tuple(LABELS)
    assert made["Answer_set_annotation"][4] == {
        "label": "Correct",
        "value": True,
        "option": "E",
        "pattern": "y",
        "chunks": [],
    }


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"Answer_set": ANSWERS[:7]}, "Answer_set has 7 sentences, expected 8"),
        ({"Context": CONTEXT + ["troppe"]}, "Context has 8 sentences, expected 7"),
        ({"Correct_option": "I"}, "Correct_option must be one of A, B"),
        ({"Correct_option": None}, "Correct_option must be one of"),
        ({"Correct_option": 4}, "got the number 4; a number is not read"),
        ({"Correct_option": "5"}, "0-7 and 1-8 counting cannot be told apart"),
        ({"Correct_option": "EE"}, "Correct_option must be one of"),
        ({"Answer_set": ["B\tx"] + ANSWERS[1:]}, "Answer_set[0] is prefixed 'B', expected 'A'"),
        ({"Context": ["2\tx"] + CONTEXT[1:]}, "Context[0] is prefixed '2', expected '1'"),
        ({"Answer_set": ["A\t  "] + ANSWERS[1:]}, "Answer_set[0] is empty"),
        ({"Answer_set_annotation": []}, "Answer_set_annotation must have 8 entries"),
    ],
)
def test_bad_records_name_the_item_and_the_problem(changes, message):
    with pytest.raises(BlmRecordError, match="item ID 215") as error:
        validate_blm_record(release_record(**changes))
    assert message in str(error.value)


def test_annotation_disagreeing_with_the_correct_option_is_an_error():
    annotation = release_record()["Answer_set_annotation"]
    annotation[0]["value"] = True
    with pytest.raises(BlmRecordError, match="marks option A true, but Correct_option is E"):
        validate_blm_record(release_record(Answer_set_annotation=annotation))


def test_wrong_answer_labelled_correct_is_refused_by_the_reader(tmp_path):
    annotation = release_record()["Answer_set_annotation"]
    annotation[1]["label"] = "correct"  # B, a wrong answer; no value to contradict
    del annotation[1]["value"]
    record = release_record(Answer_set_annotation=annotation)
    message = "item ID 215: answer B is labelled 'correct' but the correct option is E"
    with pytest.raises(BlmRecordError, match=message):
        validate_blm_record(record)
    path = tmp_path / "items.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    with pytest.raises(BlmRecordError, match=f"items.json, {message}"):
        read_blm_items(path)


def test_annotation_option_must_be_one_letter():
    annotation = release_record()["Answer_set_annotation"]
    annotation[0]["option"] = ""
    with pytest.raises(BlmRecordError, match=r"Answer_set_annotation\[0\] has option ''"):
        validate_blm_record(release_record(Answer_set_annotation=annotation))


def test_record_without_id_is_named_by_position():
    record = release_record()
    del record["ID"]
    with pytest.raises(BlmRecordError, match="position 3"):
        validate_blm_record(record, position=3)


def test_read_blm_items_reads_a_json_list_and_json_lines(tmp_path):
    records = [release_record(ID=1), release_record(ID=2, Correct_option="e")]
    listed = tmp_path / "items.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    lines = tmp_path / "items.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    for path in (listed, lines):
        items = read_blm_items(path)
        assert [item.id for item in items] == [1, 2]
        assert items[1].correct_option == "E"


def test_read_blm_items_names_the_file_and_the_bad_item(tmp_path):
    path = tmp_path / "items.json"
    path.write_text(json.dumps([release_record(ID=1), release_record(ID=9, Answer_set=[])]))
    with pytest.raises(BlmRecordError, match=r"items.json, item ID 9: Answer_set has 0"):
        read_blm_items(path)
    path.write_text(json.dumps([release_record(ID=1), release_record(ID=1, Verb="aprire")]))
    with pytest.raises(BlmRecordError, match="ID 1 occurs more than once with different records"):
        read_blm_items(path)
    with pytest.raises(FileNotFoundError):
        read_blm_items(tmp_path / "missing.json")
