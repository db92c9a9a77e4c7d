"""Reading real BLM-It release files: inconsistencies the reader judges (with a warning naming
the item) instead of stopping the whole file, and the errors it keeps."""

from __future__ import annotations

import json
import warnings

import pytest
from test_blm_records import ANSWERS, release_record
from tiny_language_models import tiny_causal_lm, word_tokenizer_over

from poetic_eval.blm import (
    BlmRecordError,
    BlmRecordWarning,
    as_items,
    evaluate_blm,
    generate_config,
    read_blm_items,
    validate_blm_record,
)
from poetic_eval.blm.evaluation import candidate_continuations, running_context
from poetic_eval.blm.generator.configs import BlmSizes
from poetic_eval.blm.item_sources import load_evaluation_sets


def read_quietly(record):
    """The item, asserting no warning is given."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return validate_blm_record(record)


def test_annotation_entries_without_value_carry_no_claim():
    annotation = release_record()["Answer_set_annotation"]
    for entry in annotation:
        del entry["value"]
    item = read_quietly(release_record(Answer_set_annotation=annotation))
    assert item.correct_option == "E"
    assert item.labels[0] == "IR-trans" and item.labels[4] == "Correct"
    annotation[2]["value"] = True  # an entry that does make a claim is still checked
    with pytest.raises(BlmRecordError, match="item ID 215.*marks option C true"):
        validate_blm_record(release_record(Answer_set_annotation=annotation))


@pytest.mark.parametrize(
    "stated", ["risposta E", "  Risposta  E ", "risposta E.", "RISPOSTA E!", "E\trisposta e"]
)
def test_correct_answer_differing_only_in_spacing_case_or_final_punctuation_is_accepted(stated):
    assert read_quietly(release_record(Correct_answer=stated)).correct_option == "E"


def test_correct_answer_naming_another_answer_warns_and_trusts_correct_option():
    with pytest.warns(BlmRecordWarning) as caught:
        item = validate_blm_record(release_record(Correct_answer="risposta B"))
    assert item.correct_option == "E" and item.correct_answer == "risposta E"
    message = str(caught[0].message)
    assert "item ID 215" in message and "it is answer B" in message
    assert "trusting Correct_option E" in message
    with pytest.warns(BlmRecordWarning, match="item ID 215.*none of the 8 answers"):
        validate_blm_record(release_record(Correct_answer="tutt'altra frase"))


def test_lowercase_correct_option_is_read_as_its_letter():
    record = release_record(Correct_option="c", Correct_answer=ANSWERS[2])
    del record["Answer_set_annotation"]
    assert read_quietly(record).correct_index == 2
    assert read_quietly(release_record(Correct_option=" e ")).correct_option == "E"


def test_real_errors_stay_errors_naming_the_item(tmp_path):
    path = tmp_path / "release.json"
    records = [release_record(ID=1), release_record(ID=2, Context=ANSWERS[:6])]
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(BlmRecordError, match="item ID 2: Context has 6 sentences, expected 7"):
        read_blm_items(path)
    records[1] = release_record(ID=2, Answer_set=ANSWERS + ["nona"])
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(BlmRecordError, match="item ID 2: Answer_set has 9 sentences, expected 8"):
        read_blm_items(path)
    records[1] = release_record(ID=2, Correct_option=0)
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(BlmRecordError, match="item ID 2: Correct_option must be one of A, B"):
        read_blm_items(path)


def test_a_file_of_inconsistent_but_readable_records_is_read_whole(tmp_path):
    annotation = release_record()["Answer_set_annotation"]
    for entry in annotation:
        entry.pop("value")
    records = [
        release_record(ID=1),
        release_record(ID=2, Correct_answer="Risposta E."),
        release_record(ID=3, Correct_option="e", Answer_set_annotation=annotation),
        release_record(ID=4, Correct_answer="risposta A"),
    ]
    path = tmp_path / "release.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.warns(BlmRecordWarning) as caught:
        items = read_blm_items(path)
    assert [item.id for item in items] == [1, 2, 3, 4]
    assert [item.correct_option for item in items] == ["E"] * 4
    assert [str(w.message).split(": ")[0] for w in caught] == [f"{path}, item ID 4"]


def test_identical_repeated_records_are_read_once_with_a_warning(tmp_path):
    path = tmp_path / "release.json"
    path.write_text(
        json.dumps([release_record(ID=1), release_record(ID=2)] + [release_record(ID=1)] * 2)
    )
    with pytest.warns(BlmRecordWarning, match=r"item ID 1: 2 identical repeat\(s\)"):
        items = read_blm_items(path)
    assert [item.id for item in items] == [1, 2]


def test_a_data_object_holding_the_records_is_read(tmp_path):
    path = tmp_path / "release.json"
    path.write_text(json.dumps({"data": [release_record(ID=1), release_record(ID=2)]}))
    assert [item.id for item in read_blm_items(path)] == [1, 2]
    path.write_text(json.dumps(release_record(ID=5)))  # a single record still reads
    assert [item.id for item in read_blm_items(path)] == [5]
    path.write_text(json.dumps({"data": "nothing"}))
    with pytest.raises(BlmRecordError, match="missing field 'ID'"):
        read_blm_items(path)


def test_configs_whose_ids_overlap_pool_as_items_and_read_per_config(tmp_path):
    sizes = BlmSizes(agreement_items=6, agreement_few_shot=1)
    pooled = []
    for config in ("agr_ii", "agr_iii"):
        rows = generate_config(config, seed=5, sizes=sizes)["test"]
        pooled += rows
        (tmp_path / f"{config}.json").write_text(json.dumps(rows), encoding="utf-8")
    items = as_items(pooled)
    assert len(items) == 10 and len({item.id for item in items}) == 5
    assert len({(item.id, item.context) for item in items}) == 10
    for config in ("agr_ii", "agr_iii"):
        (evaluation_set,) = load_evaluation_sets(tmp_path / f"{config}.json")
        assert [item.id for item in evaluation_set.items] == [2, 3, 4, 5, 6]
    (tmp_path / "pooled.json").write_text(json.dumps(pooled), encoding="utf-8")
    with pytest.raises(BlmRecordError, match="read each config's records separately"):
        read_blm_items(tmp_path / "pooled.json")


@pytest.mark.usefixtures("one_torch_thread")
def test_evaluating_configs_pooled_with_overlapping_ids_equals_evaluating_each():
    sizes = BlmSizes(agreement_items=5, agreement_few_shot=1)
    by_config = {
        config: as_items(generate_config(config, seed=5, sizes=sizes)["test"])
        for config in ("agr_ii", "agr_iii")
    }
    pooled = by_config["agr_ii"] + by_config["agr_iii"]
    texts = [running_context(item) for item in pooled]
    texts += [text for item in pooled for text in candidate_continuations(item)]
    lm = tiny_causal_lm(3, max_positions=512, tokenizer=word_tokenizer_over(texts))
    options = {"method": "candidates", "show_progress": False}
    together = evaluate_blm(pooled, lm, **options)
    apart = [evaluate_blm(items, lm, **options) for items in by_config.values()]
    assert together["n"] == 8 and [p["ID"] for p in together["predictions"]] == [2, 3, 4, 5] * 2
    assert together["predictions"] == apart[0]["predictions"] + apart[1]["predictions"]
