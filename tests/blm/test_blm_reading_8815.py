"""The causes of what two readers of sample seed 8815 found odd in BLM-CausI/OdI: modals with
*per la prima volta* or with a cause at a time of day, *infornare* over a span, modifiers that
clash with the verb, several cooks on one potato, possessives on other people's work,
*correttore* (correction fluid) and *smagliare* of jumpers. Each test fails if its rule (in
the generator or the lexicon's data) is taken out."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from lexicon_copies import edited_verb

from poetic_eval.blm import load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_sentences import (
    AlternationWords,
    possessed,
    with_modifiers,
)
from poetic_eval.blm.generator.lexicon import LexiconError
from poetic_eval.blm.generator.noun_phrases import NounPhrase

LEXICON = load_lexicon()
CAUSATIVE = AlternationGenerator(LEXICON, "causative")
OBJECT_DROP = AlternationGenerator(LEXICON, "object_drop")
ACTIVE_P = ("Ag", "Akt", "Pat", "P-NP")
PASSIVE_BY_P = ("Pat", "Pass", "da-Ag", "P-NP")


def words_of(agent, patient, other_phrase, frame, agent_number="sg", patient_number="sg"):
    return AlternationWords(
        NounPhrase(LEXICON.nouns[agent], agent_number, "def"),
        NounPhrase(LEXICON.nouns[patient], patient_number, "def"),
        other_phrase,
        "",
        frame,
    )


def test_no_modal_with_per_la_prima_volta():
    """*alcuni canotti potevano essere gonfiati per la prima volta*, *questo vecchio maestro
    può insegnare per la prima volta*."""
    first = OBJECT_DROP.other_phrases["first_time"]
    insegnare = LEXICON.verbs["insegnare"]
    assert OBJECT_DROP.reads_well(
        insegnare, words_of("maestro", "storia", first, "perfect"), ACTIVE_P
    )
    for frame in ("can", "can_past", "must"):
        words = words_of("maestro", "storia", first, frame)
        assert not OBJECT_DROP.reads_well(insegnare, words, ACTIVE_P), frame
    gonfiare = LEXICON.verbs["gonfiare"]
    canotto = words_of("marinaio", "canotto", first, "can_past", patient_number="pl")
    assert not CAUSATIVE.reads_well(gonfiare, canotto, PASSIVE_BY_P)
    assert CAUSATIVE.reads_well(gonfiare, replace(canotto, frame="remote"), PASSIVE_BY_P)


def test_no_modal_with_a_cause():
    """*questo cemento poteva essere indurito dal calore nel pomeriggio*: no cause kind is
    told in a modal frame."""
    afternoon = CAUSATIVE.other_phrases["afternoon"]
    indurire = LEXICON.verbs["indurire"]
    words = words_of("calore", "cemento", afternoon, "can_past")
    assert not CAUSATIVE.reads_well(indurire, words, PASSIVE_BY_P)
    assert CAUSATIVE.reads_well(indurire, replace(words, frame="perfect"), PASSIVE_BY_P)
    for name, kind in LEXICON.cause_kinds.items():
        assert not {"can", "can_past", "must", "must_can"} & set(kind.frames), name


def test_no_old_agent_does_a_thing_for_the_first_time():
    first = OBJECT_DROP.other_phrases["first_time"]
    insegnare = LEXICON.verbs["insegnare"]
    words = words_of("maestro", "storia", first, "perfect")
    old = next(m for m in LEXICON.nouns["maestro"].modifiers if m.adjective.lemma == "vecchio")
    young = next(m for m in LEXICON.nouns["maestro"].modifiers if m.adjective.lemma == "giovane")
    aged = replace(words, agent=replace(words.agent, modifier=old))
    assert not OBJECT_DROP.reads_well(insegnare, aged, ACTIVE_P)
    young_one = replace(words, agent=replace(words.agent, modifier=young))
    assert OBJECT_DROP.reads_well(insegnare, young_one, ACTIVE_P)
    morning = replace(aged, other_phrase=OBJECT_DROP.other_phrases["morning"])
    assert OBJECT_DROP.reads_well(insegnare, morning, ACTIVE_P)


def test_a_baked_thing_takes_no_span():
    """*le torte venivano infornate da cinque minuti*, *infornavano le torte da dieci minuti*:
    a named patient of infornare takes no temporal "da"; the baker alone, batch after batch,
    does (*il fornaio inforna dall'alba*)."""
    infornare = LEXICON.verbs["infornare"]
    fornaio = LEXICON.nouns["fornaio"]
    for template in [("Ag", "Akt", "Pat", "da-NP"), ("Pat", "Pass", "da-Ag", "da-NP")]:
        assert OBJECT_DROP.spans_for(infornare, template, fornaio) == (), template
    assert OBJECT_DROP.spans_for(infornare, ("Ag", "Intr", "da-NP"), fornaio)
    # so no type II context can be told: a verb of type III contexts only
    assert infornare in OBJECT_DROP.context_only


def modifiers_drawn(verb, agent, patient) -> set[str]:
    words = words_of(agent, patient, "", "perfect")
    drawn = set()
    for seed in range(300):
        modifier = with_modifiers(words, random.Random(seed), verb).patient.modifier
        if modifier is not None:
            drawn.add(modifier.adjective.lemma if modifier.adjective else modifier.tail)
    return drawn


@pytest.mark.parametrize(
    ("lemma", "agent", "patient", "refused"),
    [
        ("comporre", "compositore", "melodia", "vecchio"),
        ("comporre", "compositore", "canzone", "vecchio"),
        ("piegare", "bambino", "cucchiaio", "di legno"),
        ("infeltrire", "ragazzo", "sciarpa", "di seta"),
        ("verniciare", "operaio", "tavolo", "di marmo"),
        ("infeltrire", "ragazzo", "coperta", "di cotone"),
        ("addestrare", "addestratore", "cane", "vecchio"),
    ],
)
def test_no_modifier_that_clashes_with_the_verb(lemma, agent, patient, refused):
    """*alcune vecchie melodie potevano essere composte*, *i cucchiai di legno sono stati
    piegati*: the verb's patient_refuses keeps them off; without it they are drawn."""
    verb = LEXICON.verbs[lemma]
    assert refused not in modifiers_drawn(verb, agent, patient)
    assert refused in modifiers_drawn(replace(verb, patient_refuses=()), agent, patient)


def test_creation_verbs_refuse_age_on_what_they_create():
    creation = ("comporre", "scrivere", "dipingere", "scolpire", "cucinare", "impastare")
    for lemma in (*creation, "infornare", "ricamare", "tessere", "cucire", "disegnare"):
        assert {"vecchio", "antico"} <= set(LEXICON.verbs[lemma].patient_refuses), lemma


def test_several_cooks_cook_no_single_potato():
    """*questa patata viene cotta da alcuni cuochi napoletani*."""
    cuocere = LEXICON.verbs["cuocere"]
    words = words_of("cuoco", "patata", CAUSATIVE.other_phrases["afternoon"], "perfect", "pl")
    assert not CAUSATIVE.reads_well(cuocere, words, PASSIVE_BY_P)
    assert CAUSATIVE.reads_well(
        cuocere, replace(words, agent=replace(words.agent, number="sg")), PASSIVE_BY_P
    )


def test_no_one_owns_the_work_they_correct():
    """*alcuni giovani maestri correggevano i loro errori*: correggere's patients are other
    people's (:attr:`.Verb.others_things`); a painter's pictures stay the painter's."""
    correggere = LEXICON.verbs["correggere"]
    words = words_of("maestro", "compito", OBJECT_DROP.other_phrases["morning"], "perfect")

    def owned(verb) -> int:
        return sum(
            possessed(words, ACTIVE_P, verb, False, random.Random(seed)) is not words
            for seed in range(50)
        )

    assert owned(correggere) == 0
    assert owned(replace(correggere, others_things=False)) > 10
    cleaners = ("pulire", "spolverare", "spazzare", "stirare")
    for lemma in ("correggere", "riparare", "verniciare", "fotografare", *cleaners):
        assert LEXICON.verbs[lemma].others_things, lemma
    assert not LEXICON.verbs["dipingere"].others_things


def test_no_correttore_and_smagliare_is_of_stockings():
    """*questo correttore* reads as correction fluid; *ha smagliato molti maglioni*: smagliare
    is of stockings and tights only (*la calzamaglia*). The feminine names no product: *la
    correttrice* is a proofreader, of proofs and texts only."""
    correggere = LEXICON.verbs["correggere"]
    assert "correttore" not in correggere.agents
    assert set(correggere.agent_patients["correttrice"]) == {"bozza", "testo"}
    assert set(LEXICON.verbs["smagliare"].patients) == {"calza", "collant", "calzamaglia"}


@pytest.mark.parametrize(
    ("lemma", "fields", "message"),
    [
        ("comporre", {"patient_refuses": ["vecchissimo"]}, "name no adjective or noun"),
        ("gonfiare", {"others_things": True}, "object-drop verbs"),
    ],
)
def test_the_lexicon_check_refuses_bad_fields(tmp_path, lemma, fields, message):
    with pytest.raises(LexiconError, match=message):
        load_lexicon(edited_verb(tmp_path, lemma, **fields))


def test_an_iterated_event_at_a_time_of_day_may_be_on_one_s_own():
    """CausI's possessives: an iterated verb's patient is generic over a span (*le matite
    vengono spuntate da settimane*), not at a time of day, so a type III context may name the
    agent's own (*la bambina ha spuntato le sue matite nel pomeriggio*)."""
    spuntare = LEXICON.verbs["spuntare"]
    assert CAUSATIVE.iterated(spuntare)
    assert CAUSATIVE.iterated(spuntare, (("Ag", "Akt", "Pat", "da-NP"),))
    assert not CAUSATIVE.iterated(spuntare, (ACTIVE_P,))
    rng = random.Random(3)
    owned = 0
    for _ in range(60):
        words = CAUSATIVE.fresh_words(spuntare, rng, ("perfect",), templates=(ACTIVE_P,))
        generic = CAUSATIVE.iterated(spuntare, (ACTIVE_P,))  # as the generator asks it
        owned += possessed(words, ACTIVE_P, spuntare, generic, rng) is not words
    assert owned > 10
