"""BLM-AgrI items follow their rules: the counter, the labels, agreement, lexical variation.

Every check re-derives what it tests from the sentence text and its annotation with the
hand-written reference in ``italian_reference.py``, not with the generator's own code.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cache

import pytest
from italian_reference import ADJECTIVES, FINITE_FORMS, VERBS, check_phrase, noun_index, tokens

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon, validate_blm_record
from poetic_eval.blm.generator import AGREEMENT_RULES, label_inventory

SIZES = BlmSizes(agreement_items=40, agreement_few_shot=3)
NOUNS = noun_index(load_lexicon())
DI_CUI_VERBS = load_lexicon().di_cui_verbs
ATTACHMENT_PREPOSITIONS = {a.preposition for a in load_lexicon().attachments}
#: non-finite word form -> lemmas it can be a form of (participles and adjectives)
AGREEING_FORMS: dict[str, set[str]] = {}
for _verb in VERBS.values():
    for _gender, _number in itertools.product("mf", ("sg", "pl")):
        AGREEING_FORMS.setdefault(_verb.participle_form(_gender, _number), set()).add(_verb.lemma)
for _lemma, _forms in ADJECTIVES.items():
    for _form in _forms.values():
        AGREEING_FORMS.setdefault(_form, set()).add(_lemma)


@cache
def items(config: str) -> dict:
    return generate_config(config, seed=3, sizes=SIZES)


def all_items(config: str) -> list[dict]:
    splits = items(config)
    return splits["train"] + splits["test"]


def parse_pattern(pattern: str) -> dict[str, str]:
    """``"Prefix Subj_pl P1_sg P2_sg V_pl"`` -> {"Prefix": "", "Subj": "pl", ...}."""
    parsed = {}
    for tag in pattern.split():
        name, _, number = tag.partition("_")
        parsed[name] = number
    return parsed


def flip(number: str) -> str:
    return {"sg": "pl", "pl": "sg"}[number]


def expected_answer(item: dict) -> tuple[str, str, str]:
    """The 8th step's subject, N1 and N2 numbers, read off the 7th context sentence: the subject
    flips every sentence, N1 every 2 (steps 7 and 8 share it), N2 every 4 (steps 5-8 share it)."""
    last = parse_pattern(item["Context_annotation"][6]["pattern"])
    return flip(last["Subj"]), last["P1"], last["P2"]


def label_from_pattern(pattern: str, correct: tuple[str, str, str]) -> str:
    """The label an answer's numbers call for, from the rules (independent of the generator)."""
    numbers = parse_pattern(pattern)
    subject, verb, n1 = numbers["Subj"], numbers["V"], numbers["P1"]
    n2 = numbers.get("P2") or numbers.get("Coord")
    want_subject, want_n1, want_n2 = correct
    assert subject == want_subject, "every answer has the 8th step's subject"
    if "Coord" in numbers:
        assert (n1, n2, verb) == (want_n1, want_n2, "pl"), "a coordinated subject is plural"
        return "Coord"
    if verb != subject:
        agrees = [name for name, number in (("N1", n1), ("N2", n2)) if number == verb]
        assert len(agrees) <= 1, f"{pattern}: the wrong verb agrees with both attractors"
        return f"AE{agrees[0]}" if agrees else "AEV"
    if n2 is None:
        assert n1 == want_n1
        return "WNA"
    wrong = [name for name, got, want in (("N1", n1, want_n1), ("N2", n2, want_n2)) if got != want]
    assert len(wrong) <= 1, f"{pattern}: more than one attractor number wrong"
    return f"W{wrong[0]}" if wrong else "Correct"


FRAME_TAGS = ("Prefix", "ROC", "Obj")


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_context_follows_the_three_bit_counter(config):
    for item in all_items(config):
        steps = [parse_pattern(a["pattern"]) for a in item["Context_annotation"]]
        late_n2 = "P2" not in steps[0]
        for step, numbers in enumerate(steps):
            assert numbers["Subj"] == (flip(steps[0]["Subj"]) if step & 1 else steps[0]["Subj"])
            assert numbers["P1"] == (flip(steps[0]["P1"]) if step & 2 else steps[0]["P1"])
            if late_n2:
                assert ("P2" in numbers) == bool(step & 4), numbers
                assert numbers.get("P2") == (steps[4]["P2"] if step & 4 else None)
            else:
                assert numbers["P2"] == (flip(steps[0]["P2"]) if step & 4 else steps[0]["P2"])
            assert numbers["V"] == numbers["Subj"], numbers
        patterns = steps + [parse_pattern(a["pattern"]) for a in item["Answer_set_annotation"]]
        for tag in FRAME_TAGS:  # the frame is the item's: in every sentence or in none
            assert len({tag in numbers for numbers in patterns}) == 1, (tag, item["ID"])
        assert len({numbers.get("ROC") for numbers in patterns}) == 1


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_every_answer_breaks_exactly_the_rule_of_its_label(config):
    for item in all_items(config):
        validate_blm_record(item)
        labels = [entry["label"] for entry in item["Answer_set_annotation"]]
        assert sorted(labels) == sorted(
            ["Correct", "Coord", "WNA", "WN1", "WN2", "AEV", "AEN1", "AEN2"]
        )
        correct = expected_answer(item)
        for entry in item["Answer_set_annotation"]:
            assert label_from_pattern(entry["pattern"], correct) == entry["label"], entry
            assert entry["value"] == (entry["option"] == item["Correct_option"])
        correct = labels.index("Correct")
        assert item["Correct_option"] == "ABCDEFGH"[correct]
        assert item["Correct_answer"] == item["Answer_set"][correct].split("\t", 1)[1]
        sentences = [s.split("\t", 1)[1] for s in item["Answer_set"]]
        assert len(set(sentences)) == 8, "all 8 answers differ"


def sentence_annotations(item: dict):
    for sentence, annotation in zip(item["Context"], item["Context_annotation"]):
        yield sentence.split("\t", 1)[1], annotation
    for sentence, annotation in zip(item["Answer_set"], item["Answer_set_annotation"]):
        yield sentence.split("\t", 1)[1], annotation


def coordination_gender(*conjuncts: str) -> str:
    """Italian gender resolution: a coordination is masculine unless every conjunct is feminine."""
    return "f" if all(gender == "f" for gender in conjuncts) else "m"


def check_relative_clause(chunk: dict, number: str) -> None:
    """*che* / *di cui* + a noun phrase of ``number`` + a present verb agreeing with it (*di cui*
    with a verb that takes "di": *di cui i nonni parlano*, *di cui le zie si ricordano*)."""
    pronoun = "di cui" if chunk["text"].startswith("di cui ") else "che"
    assert tokens(chunk["text"])[0] in ("che", "di"), chunk
    phrase, verb = chunk["text"].removeprefix(pronoun + " ").rsplit(" ", 1)
    if phrase.endswith(" si"):
        phrase = phrase.removesuffix(" si")
        assert pronoun == "di cui", chunk
    check_phrase(phrase, NOUNS, expected_number=number)
    assert {n for _, tense, n in FINITE_FORMS[verb] if tense == "present"} == {number}, chunk
    if pronoun == "di cui":
        assert {lemma for lemma, _, _ in FINITE_FORMS[verb]} & {v for v, _ in DI_CUI_VERBS}, chunk


def check_sentence(sentence: str, annotation: dict) -> dict:
    """Assert the sentence's agreement; return its words (nouns and predicate)."""
    chunks = annotation["chunks"]
    joined = " ".join(chunk["text"] for chunk in chunks)
    assert sentence == joined[:1].upper() + joined[1:] + ".", sentence
    numbers = parse_pattern(annotation["pattern"])
    assert [c["tag"] for c in chunks] == list(numbers), annotation
    phrases = {}
    for chunk in chunks:
        tag = chunk["tag"]
        if tag in ("Subj", "P1", "P2", "Coord"):
            phrase = check_phrase(chunk["text"], NOUNS, expected_number=numbers[tag])
            expected = {"Subj": {None}, "Coord": {"e"}}.get(tag, ATTACHMENT_PREPOSITIONS)
            assert phrase.preposition in expected, (tag, chunk["text"])
            phrases[tag] = phrase
    verb_chunk = next(c["text"] for c in chunks if c["tag"] == "V")
    verb_words = [w for w in tokens(verb_chunk) if w != "si"]
    for chunk in chunks:
        if chunk["tag"] == "Obj":
            check_phrase(chunk["text"], NOUNS, expected_number=numbers["Obj"])
        if chunk["tag"] == "ROC":
            check_relative_clause(chunk, numbers["ROC"])
    finite = FINITE_FORMS[verb_words[0]]
    assert {number for _, _, number in finite} == {numbers["V"]}, (sentence, verb_words)
    controller = next(
        (
            phrases[t]
            for t in ("Subj", "P1", "P2", "Coord")
            if t in phrases and phrases[t].number == numbers["V"]
        ),
        phrases["Subj"],
    )
    # participles and adjectives take the verb's number and the gender of what it agrees with;
    # a coordinated subject ([Subj P1] e N2) is masculine if either conjunct is
    gender = controller.gender
    if "Coord" in phrases and numbers["V"] == "pl":
        gender = coordination_gender(phrases["Subj"].gender, phrases["Coord"].gender)
    agreement = (gender, numbers["V"])
    if {lemma for lemma, _, _ in finite} == {"avere"}:
        agreement = ("m", "sg")  # a participle after avere does not agree (ha lavorato)
    for word in verb_words[1:]:
        lemmas = AGREEING_FORMS[word]
        assert any(
            ADJECTIVES.get(lemma, {}).get(agreement) == word
            or (lemma in VERBS and VERBS[lemma].participle_form(*agreement) == word)
            for lemma in lemmas
        ), f"{word!r} does not agree with {controller} in {sentence!r}"
    content = verb_words[-1]
    predicate = frozenset(AGREEING_FORMS.get(content) or {f[0] for f in FINITE_FORMS[content]})
    return {
        "Prefix": chunks[0]["text"] if chunks[0]["tag"] == "Prefix" else "",
        "Subj": phrases["Subj"].lemma,
        "N1": phrases["P1"].lemma,
        "N2": (phrases.get("P2") or phrases.get("Coord")).lemma
        if ("P2" in phrases or "Coord" in phrases)
        else None,
        "V": (predicate, "si" in tokens(verb_chunk)),
    }


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_articles_prepositions_and_the_verb_agree_in_every_sentence(config):
    for item in all_items(config):
        for sentence, annotation in sentence_annotations(item):
            check_sentence(sentence, annotation)


def differing_slots(a: dict, b: dict) -> int:
    shared = [slot for slot in ("Subj", "N1", "N2", "V") if a[slot] and b[slot]]
    return sum(a[slot] != b[slot] for slot in shared)


def test_type_ii_changes_one_word_per_sentence_and_type_iii_changes_more():
    distances = {}
    for config in ("agr_ii", "agr_iii"):
        distances[config] = []
        for item in all_items(config):
            words = [check_sentence(s, a) for s, a in sentence_annotations(item)]
            context, answers = words[:7], words[7:]
            for pair in itertools.combinations(context + answers, 2):
                distances[config].append(differing_slots(*pair))
            if config == "agr_ii":
                assert len({w["Prefix"] for w in words}) == 1
    # type II: each sentence is the matrix's words with one changed, so two differ in <= 2
    assert max(distances["agr_ii"]) <= 2
    assert sum(distances["agr_iii"]) > 1.5 * sum(distances["agr_ii"])


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_splits_sizes_ids_and_balanced_correct_options(config):
    splits = items(config)
    assert [len(splits["train"]), len(splits["test"])] == [3, 37]
    ids = [item["ID"] for split in ("train", "test") for item in splits[split]]
    assert ids == list(range(1, 41))
    contexts = [item["Context_concatenated"] for split in splits.values() for item in split]
    assert len(set(contexts)) == len(contexts)
    for rows in splits.values():
        counts = Counter(item["Correct_option"] for item in rows)
        per_letter = [counts.get(letter, 0) for letter in "ABCDEFGH"]
        assert max(per_letter) - min(per_letter) <= 1, per_letter


def test_the_card_s_label_rules_hold_for_all_eight_number_patterns():
    """Issue 40: the Labels table told `Correct` as one number pattern (plural subject, plural
    N1, singular N2) while the data's correct answers take all eight; the rules are now told
    relative to the correct answer's numbers, and the data takes every pattern."""
    for label, rule in AGREEMENT_RULES.items():
        assert not re.search(r"\((singular|plural)\b|plural subject|singular verb", rule), label
    correct = Counter(
        tuple(parse_pattern(a["pattern"])[tag] for tag in ("Subj", "P1", "P2"))
        for item in all_items("agr_iii")
        for a in item["Answer_set_annotation"]
        if a["value"]
    )
    assert len(correct) == 8 and max(correct.values()) <= 2 * min(correct.values()), correct
    inventory = label_inventory({"agr_iii": items("agr_iii")["test"]})
    assert "about an eighth of the items" in inventory
