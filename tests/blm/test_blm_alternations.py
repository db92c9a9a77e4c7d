"""BLM-CausI and BLM-OdI items follow their templates, labels, agreement and splits.

Checks re-derive from the text and annotation with the hand-written reference
(``italian_reference.py``); every verb of both classes is generated at least 3 times.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import cache

import pytest
from italian_reference import FINITE_FORMS, VERBS, check_phrase, noun_index, tokens

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon, validate_blm_record

SIZES = BlmSizes(items_per_verb=3, few_shot_verbs=2)
LEXICON = load_lexicon()
NOUNS = noun_index(LEXICON)
CONFIGS = ["caus_ii", "caus_iii", "od_ii", "od_iii"]
SHARED_CONTEXT = [
    "Ag Akt Pat P-NP",
    "Ag Akt Pat da-NP",
    "Pat Pass da-Ag P-NP",
    "Pat Pass da-Ag da-NP",
    "Pat Pass P-NP",
    "Pat Pass da-NP",
]
SEVENTH = {"caus": "Pat Intr P-NP", "od": "Ag Intr P-NP"}
KEPT = {"caus": "Pat", "od": "Ag"}
OTHER = {"Ag": "Pat", "Pat": "Ag"}
#: the prepositions that name a cause after a si verb, fused with the article or not
CAUSE_PREPOSITIONS = (
    "per",
    "con",
    "sotto",
    "a",
    "al",
    "allo",
    "alla",
    "all'",
    "ai",
    "agli",
    "alle",
)
CAUSE_PREPOSITIONS += ("nel", "nello", "nella", "nell'", "nei", "negli", "nelle")
ALONE = ("da solo", "da sola", "da soli", "da sole")


@cache
def items(config: str) -> dict:
    return generate_config(config, seed=5, sizes=SIZES)


def all_items(config: str) -> list[dict]:
    return items(config)["train"] + items(config)["test"]


def label_from_pattern(task: str, pattern: str) -> str:
    """The label of an answer by the BLM-It letters: I (wrong subject role), R (two
    arguments), E (an argument in the da phrase); suffix: the structure."""
    tags = pattern.split()
    if tags[2:3] in (["P-Ag"], ["P-Pat"]):  # CausI: the other role named as the cause
        assert task == "caus" and tags[1] == "Intr" and tags[2] == f"P-{OTHER[tags[0]]}", pattern
        tags = tags[:2] + tags[3:]
    subject, verb, rest, *tail = tags
    # a two-argument answer may end with a non-argument "da" phrase (time or "da solo")
    assert tail in ([], ["da-NP"]) and (not tail or rest != "da-NP"), pattern
    structure = {
        ("Intr", "da-NP"): "Int",
        ("Akt", "Ag"): "trans",
        ("Akt", "Pat"): "trans",
        ("Pass", "da-Ag"): "pass",
        ("Pass", "da-Pat"): "pass",
        ("Intr", "da-Ag"): "WrBy",
        ("Intr", "da-Pat"): "WrBy",
    }[(verb, rest)]
    if rest != "da-NP":
        assert rest.removeprefix("da-") != subject, "the second role differs from the subject"
    wrong_role = subject != KEPT[task]
    letters = ("I" if wrong_role else "") + {"Int": "", "trans": "R", "pass": "ER", "WrBy": "E"}[
        structure
    ]
    return f"{letters}-{structure}" if letters else "Correct"


def frame_of(words: list[str]) -> str:
    """The tense/modal frame of a verb chunk, from its first finite word."""
    finite = next(w for w in words if w != "si")
    lemma, tense, _ = FINITE_FORMS[finite][0]
    if lemma in ("potere", "dovere"):
        if {"poter", "potersi"} & set(words):
            return "must_can"
        name = "can" if lemma == "potere" else "must"
        if tense == "conditional":
            return "could" if lemma == "potere" else "should"
        return {"present": name, "imperfect": f"{name}_past"}.get(tense, f"{name}_{tense}")
    if lemma == "avere" or (lemma == "essere" and tense == "present"):
        return "perfect"
    if lemma == "essere" and tense == "remote":
        return "remote"  # the passive's passato remoto: fu aperta
    return tense  # the verb's own tense, venire (passive) or essere future (passive)


def check_sentence(task: str, verb: str, sentence: str, annotation: dict) -> dict:
    """Assert agreement and form of one sentence; return its words by slot."""
    chunks = annotation["chunks"]
    assert sentence == " ".join(c["text"] for c in chunks)
    assert [c["tag"] for c in chunks] == annotation["pattern"].split()
    roles, genders, slots = {}, {}, {}
    for chunk in chunks:
        tag, text = chunk["tag"], chunk["text"]
        if tag in ("Ag", "Pat", "da-Ag", "da-Pat"):
            phrase = check_phrase(text, NOUNS)
            assert phrase.preposition == ("da" if tag.startswith("da-") else None), text
            role = tag.removeprefix("da-")
            allowed = getattr(LEXICON.verb(verb), "agents" if role == "Ag" else "patients")
            assert phrase.lemma in allowed, (verb, role, phrase.lemma)
            roles[role] = (phrase.lemma, phrase.number, phrase.kind)
            genders[role] = phrase.gender
        elif tag in ("P-Ag", "P-Pat"):  # *per il vento*, *al sole*; I-Int *per i rami*
            preposition = text.split()[0]
            if "'" in preposition:
                preposition = preposition[: preposition.index("'") + 1]
            assert preposition in CAUSE_PREPOSITIONS, text
            role = tag.removeprefix("P-")
            allowed = getattr(LEXICON.verb(verb), "agents" if role == "Ag" else "patients")
            lemmas = {noun.lemma for noun, _ in NOUNS[text.split()[-1].split("'")[-1]]}
            assert lemmas & set(allowed), (verb, role, text)
            slots[tag] = text
        elif tag in ("P-NP", "da-NP"):
            assert text.split()[0].startswith("da") == (tag == "da-NP"), text
            slots[tag] = text
    _, subject_number, _ = roles[chunks[0]["tag"]]
    subject_gender = genders[chunks[0]["tag"]]
    words = tokens(chunks[1]["text"])
    finite = next(w for w in words if w != "si")
    assert {number for _, _, number in FINITE_FORMS[finite]} == {subject_number}, sentence
    forms = VERBS[verb]
    # *ha rotto*, and the perfect infinitive of an inference: *deve aver rotto*
    after_avere = any(lemma == "avere" for lemma, _, _ in FINITE_FORMS[finite]) or "aver" in words
    agreement = ("m", "sg") if after_avere else (subject_gender, subject_number)
    participles = {forms.participle_form(g, n) for g in "mf" for n in ("sg", "pl")}
    for word in words[words.index(finite) + 1 :]:  # not the finite word: *chiuse* (remote)
        if word in participles:
            assert word == forms.participle_form(*agreement), (word, sentence)
    voice_tag = chunks[1]["tag"]
    has_si = "si" in words or any(w.endswith("rsi") for w in words)
    assert has_si == (voice_tag == "Intr" and task == "caus"), sentence
    if voice_tag == "Pass":
        assert set(words) & participles and not after_avere, sentence
    if slots.get("da-NP") in ALONE and voice_tag == "Intr" and task == "caus":
        assert frame_of(words) == "perfect", sentence  # *si è rotto da solo*
    elif "da-NP" in slots:  # a temporal da phrase: an ongoing or habitual event
        assert frame_of(words) in ("present", "imperfect"), sentence
    return {"Ag": roles.get("Ag"), "Pat": roles.get("Pat"), "frame": frame_of(words), **slots}


@pytest.mark.parametrize("config", CONFIGS)
def test_context_follows_the_alternation_template(config):
    task = config.split("_")[0]
    for item in all_items(config):
        patterns = [annotation["pattern"] for annotation in item["Context_annotation"]]
        assert patterns == SHARED_CONTEXT + [SEVENTH[task]]


@pytest.mark.parametrize("config", CONFIGS)
def test_every_answer_breaks_exactly_the_rule_of_its_label(config):
    task = config.split("_")[0]
    for item in all_items(config):
        validate_blm_record(item)
        labels = [entry["label"] for entry in item["Answer_set_annotation"]]
        assert sorted(labels) == sorted(
            ["Correct", "I-Int", "R-trans", "IR-trans", "ER-pass", "IER-pass", "E-WrBy", "IE-WrBy"]
        )
        for entry in item["Answer_set_annotation"]:
            assert label_from_pattern(task, entry["pattern"]) == entry["label"], entry
            assert entry["value"] == (entry["option"] == item["Correct_option"])
        correct = item["Answer_set_annotation"]["ABCDEFGH".index(item["Correct_option"])]
        cause = [" P-Ag"] if task == "caus" else []  # *i rami si piegano per il vento*
        assert correct["pattern"] in [f"{KEPT[task]} Intr{c} da-NP" for c in ["", *cause]]
        sentences = [s.split("\t", 1)[1] for s in item["Answer_set"]]
        assert len(set(sentences)) == 8
        assert not set(sentences) & {s.split("\t", 1)[1] for s in item["Context"]}


def item_sentences(item):
    for sentence, annotation in zip(item["Context"], item["Context_annotation"]):
        yield sentence.split("\t", 1)[1], annotation
    for sentence, annotation in zip(item["Answer_set"], item["Answer_set_annotation"]):
        yield sentence.split("\t", 1)[1], annotation


@pytest.mark.parametrize("config", CONFIGS)
def test_agreement_voice_and_tense_in_every_sentence(config):
    task = config.split("_")[0]
    for item in all_items(config):
        for index, (sentence, annotation) in enumerate(item_sentences(item)):
            # each sentence is checked against the forms of the verb its annotation names;
            # the answers all use the item's verb (type III contexts draw theirs from the class)
            if index >= 7:
                assert annotation["verb"] == item["Verb"], (item["ID"], sentence)
            words = check_sentence(task, annotation["verb"], sentence, annotation)
            # the answers share the correct answer's tenses: none tells it apart; a CausI si
            # verb with *da solo* is in the perfect in whichever answer has it
            alone = words.get("da-NP") in ALONE and annotation["pattern"].split()[1] == "Intr"
            if index >= 7 and not (alone and task == "caus"):
                assert words["frame"] in ("present", "imperfect"), (item["ID"], sentence)


def slot_distance(a: dict, b: dict) -> int:
    shared = [
        slot
        for slot in ("Ag", "Pat", "frame", "P-NP", "da-NP")
        if a.get(slot) is not None and b.get(slot) is not None
    ]
    changed = sum(a[slot] != b[slot] for slot in shared)
    # a CausI cause takes its patient's number in the answers (*il vento asciuga le tovaglie*
    # / *i venti asciugano le camicie*, :func:`.matched_agent`): that is no word of its own
    if "Ag" in shared and "Pat" in shared and a["Ag"] != b["Ag"]:
        same_noun = (a["Ag"][0], a["Ag"][2]) == (b["Ag"][0], b["Ag"][2])
        matched = any(x["Ag"][1] == x["Pat"][1] for x in (a, b))
        changed -= same_noun and matched
    # a CausI answer with *da solo* names one thing where the others say *molti* (*il vaso si
    # è rotto da solo*, :func:`.one_thing_alone`): the same noun, no word of its own
    if "Pat" in shared and a["Pat"] != b["Pat"] and a["Pat"][0] == b["Pat"][0]:
        changed -= "many" in (a["Pat"][2], b["Pat"][2])
    return changed


def test_type_ii_changes_one_word_per_sentence_and_type_iii_changes_more():
    for task in ("caus", "od"):
        distances = defaultdict(list)
        for lexical_type in ("ii", "iii"):
            for item in all_items(f"{task}_{lexical_type}"):
                words = [check_sentence(task, a["verb"], s, a) for s, a in item_sentences(item)][:8]
                distances[lexical_type] += [
                    slot_distance(*p) for p in itertools.combinations(words, 2)
                ]
        # one changed word per answer, and an answer's tail (a "da" phrase or none) on top
        assert max(distances["ii"]) <= 3
        assert sum(distances["iii"]) > 1.5 * sum(distances["ii"])


@pytest.mark.parametrize("config", CONFIGS)
def test_splits_share_no_verb_and_keep_every_item_of_a_verb_together(config):
    splits = items(config)
    verbs = {split: Counter(item["Verb"] for item in rows) for split, rows in splits.items()}
    assert not set(verbs["train"]) & set(verbs["test"])
    assert len(verbs["train"]) == SIZES.few_shot_verbs
    alternation = "causative" if config.startswith("caus") else "object_drop"
    lexicon_verbs = {verb.lemma for verb in LEXICON.alternation_verbs(alternation)}
    routine = {v.lemma for v in LEXICON.verbs.values() if v.routine or v.context_only}
    # a routine verb (aprire, ...) has no correct answer that reads well, a context_only one
    # (bruciare, sbucciare, ...) answers that give it away: no item verb
    assert set(verbs["train"]) | set(verbs["test"]) == lexicon_verbs - routine
    # the semantic filters of issue 21 took out the verbs whose every agent makes I-Int good
    # Italian (alzare, fermare, ...) or every patient E-WrBy (leggere, ...), and issue 40 the
    # CausI verbs whose answers name only causes (bruciare, riscaldare, ...) or whose correct
    # answer says that things break by themselves (rompere, incrinare, spezzare, spaccare,
    # scheggiare, frantumare, strappare, sgualcire), whose E-WrBy reads "come off from"
    # (staccare) or "at the cook's" (cuocere, scongelare), whose I-Int reads as a person
    # loosening up (sciogliere), whose every answer names the same few things (riempire,
    # svuotare) or whose every span is too long (allentare); the release has 27-30 CausI
    # verbs, this build 17 (the second round added eight changes that are gradual or come
    # undone by themselves: test_blm_causi_item_verbs; and 32 OdI item verbs: interrogare,
    # whose swapped roles read as natural Italian, cacciare, "drive away" in its reversed
    # answers, fumare, whose I-Int reads "it smoulders", disegnare, recitare and bere, whose
    # E-WrBy reads "draw from", "recite from" and "drink from", and infornare, whose named
    # patient takes no span (*le torte venivano infornate da cinque minuti*), are context_only)
    assert len(lexicon_verbs - routine) >= (17 if alternation == "causative" else 32)
    assert all(n == SIZES.items_per_verb for split in verbs.values() for n in split.values())
    for rows in splits.values():
        counts = Counter(item["Correct_option"] for item in rows)
        per_letter = [counts.get(letter, 0) for letter in "ABCDEFGH"]
        assert max(per_letter) - min(per_letter) <= 1, per_letter


def test_generation_is_deterministic_by_seed():
    small = BlmSizes(items_per_verb=2, max_verbs=3, agreement_items=12, agreement_few_shot=2)
    for config in ("caus_iii", "agr_ii"):
        first = generate_config(config, seed=11, sizes=small)
        assert generate_config(config, seed=11, sizes=small) == first
        assert generate_config(config, seed=12, sizes=small) != first
