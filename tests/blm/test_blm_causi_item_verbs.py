"""The CausI item verbs of issue 40's second round: gradual changes and things that come undone
by themselves (*le porte si deformano per l'umidità da anni*, *il filo del bambino si è
annodato da solo*), with wrong answers that stay wrong.

Each verb keeps an answer agent whose "da" reads as no cause, so that E-WrBy has one (*la
cantina si allaga dal bambino*, not *dal nubifragio*: "from the storm", natural Italian); the
season P-NPs (*durante l'inverno*) go only with changes that take weeks or more.
"""

from __future__ import annotations

import random
from collections import Counter

from poetic_eval.blm import load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_sentences import CAUSAL_DA, AlternationWords
from poetic_eval.blm.generator.alternation_templates import (
    ONLY_ALONE_TWO_ARGUMENT_TAILS,
    TWO_ARGUMENT_TAILS,
    answer_template,
    draw_tail,
)
from poetic_eval.blm.generator.noun_phrases import NounPhrase, phrase_text

LEXICON = load_lexicon()
CAUSATIVE = AlternationGenerator(LEXICON, "causative")
HABITUAL = set(LEXICON.habitual_spans)
#: the item verbs this round added (issue 40), and the BLM-It release's count of CausI verbs
NEW_ITEM_VERBS = (
    "scolorire",
    "deformare",
    "logorare",
    "aggrovigliare",
    "scucire",
    "annodare",
    "smagliare",
    "spuntare",
)
#: the item verbs of issue 40's third round: things that felt in the wash, stretch out with
#: wear or get punctured (*il maglione si è infeltrito al primo lavaggio*, *le tasche si
#: slabbrano da anni*, *il pallone del cane si è bucato*); *sbriciolare*, tried with them, was
#: out (*quella bambina sbriciolava le sue torte da pochi giorni*) until the fourth round
THIRD_ROUND_VERBS = ("infeltrire", "slabbrare", "bucare")
#: the item verbs of issue 40's fourth round: changes people make on purpose, so that root
#: modals read naturally (*l'operaio deve svitare i bulloni*, *la cuoca può addensare la
#: salsa*), each with a si form of itself (*il pedale si è svitato da solo*, *le trecce si
#: disfano da un mese*, *i biscotti si sbriciolano*, *il sugo si addensa da pochi minuti*);
#: *scollare* was left out: *scollarsi da* is "come unstuck from" (E-WrBy *le etichette si
#: scollano dal bambino*), as *staccarsi da* made staccare context_only
FOURTH_ROUND_VERBS = ("svitare", "disfare", "sbriciolare", "addensare")
#: the fifth round's, which bring CausI to the spec's 27-30 item verbs: Levin's crumple verbs
#: (*i fogli si accartocciano*, *le camicie si spiegazzano da sole*, *le magliette si
#: stropicciano da sole*), all three mishaps: the reading of seed 2946 found a root modal of
#: accartocciare odd (*il bambino poté accartocciare i suoi fogli*, *i fogli dovettero essere
#: accartocciati*), and its si form odd with a span (*le lettere delle studentesse si
#: accartocciano da tre settimane*), so it says *da solo*
FIFTH_ROUND_VERBS = ("accartocciare", "spiegazzare", "stropicciare")
#: tried in the fifth round and kept to type III contexts: their answers gave the correct one
#: away (a context-blind baseline scored 1.00 on each in caus_ii): rigare's agents (vandals,
#: dogs) own nothing, so its correct answer and I-Int shared no noun; ammaccare's people read
#: as reflexive (*il bambino si ammacca*), which left one answer agent, *il sasso*
FIFTH_ROUND_CONTEXT_ONLY = ("rigare", "ammaccare")
#: verbs of this round kept to type III contexts: allagare's and scrostare's answers name no
#: owner, so I-Int named a person alone where the correct answer named a thing (*il bambino si
#: allagava*, *l'operaio si scrosta*; *il cortile si allagava per il nubifragio*, *il muro si
#: scrosta*), and the baseline with no shared verb learnt the people (seed-0 caus_ii: 0.518,
#: 0.486 without scrostare); intiepidire's E-WrBy can read "at the waiter's" (*il tè si
#: intiepidisce dal cameriere*), as cuocere's did "at the cook's"; srotolare says what
#: aggrovigliare says of the same things (*il gomitolo si è srotolato da solo*), and with both
#: *da solo* was in 51-52 % of the correct answers, above the release's 25-50 %
CONTEXT_ONLY = ("allagare", "intiepidire", "scrostare", "srotolare")
SEASONS = {"summer", "winter", "autumn"}
SEASON_TEXTS = ("durante l'estate", "durante l'inverno", "durante l'autunno")
#: the beginnings of the root modals' forms (*può*, *deve*, *poterono*, *dovettero*)
MODAL_STEMS = ("può", "deve", "pot", "dov")
E_WRBY = answer_template("causative", "E-WrBy")


def e_wrby_words(verb: str, agent: str, patient: str) -> AlternationWords:
    """Words of an E-WrBy answer of ``verb`` (*la cantina si allaga dal nubifragio*)."""
    agent_phrase = NounPhrase(LEXICON.nouns[agent], "sg", "def")
    patient_phrase = NounPhrase(LEXICON.nouns[patient], "sg", "def")
    p_np = phrase_text(LEXICON, LEXICON.other_phrases[0])
    return AlternationWords(agent_phrase, patient_phrase, p_np, "", "present")


def test_the_new_verbs_are_item_verbs_and_the_others_only_in_contexts():
    items = {verb.lemma for verb in CAUSATIVE.verbs}
    assert set(NEW_ITEM_VERBS) | set(THIRD_ROUND_VERBS) <= items
    # 9 before the second round, 17 after it, 20 after the third; the spec: 27-30
    assert 27 <= len(items) <= 30
    assert set(FOURTH_ROUND_VERBS) | set(FIFTH_ROUND_VERBS) <= items
    assert not set(FIFTH_ROUND_CONTEXT_ONLY) & items
    for lemma in NEW_ITEM_VERBS + THIRD_ROUND_VERBS:
        verb = LEXICON.verbs[lemma]
        assert not (verb.context_only or verb.routine), lemma
    assert set(CONTEXT_ONLY + FIFTH_ROUND_CONTEXT_ONLY) <= {
        verb.lemma for verb in CAUSATIVE.context_only
    }


def test_every_item_verb_keeps_an_e_wrby_agent_whose_da_reads_as_no_cause():
    """*le scarpe si logorano dall'uso*, *le camicie si scoloriscono dalla candeggina*, *la
    cantina si allaga dal nubifragio* read as causes ("from"): a verb whose answer agents were
    all such causes would have no E-WrBy that stays wrong."""
    for verb in CAUSATIVE.verbs:
        agents = [a for a in verb.answer_agents() if a not in CAUSAL_DA]
        assert agents, verb.lemma


def test_the_new_causes_whose_da_reads_as_a_cause_take_no_e_wrby():
    for verb, cause, person, patient in [
        ("logorare", "uso", "cane", "tappeto"),
        ("scolorire", "candeggina", "domestica", "camicia"),
        ("allagare", "nubifragio", "bambino", "cortile"),
    ]:
        assert cause in CAUSAL_DA
        entry = LEXICON.verbs[verb]
        assert not CAUSATIVE.reads_well(entry, e_wrby_words(verb, cause, patient), E_WRBY, True)
        assert CAUSATIVE.reads_well(entry, e_wrby_words(verb, person, patient), E_WRBY, True)


def test_a_season_is_the_time_only_of_a_change_over_weeks_or_years():
    """*la porta si è deformata durante l'inverno*; no vase breaks over a summer."""
    seasonal = [verb for verb in LEXICON.verbs.values() if SEASONS & set(verb.p_phrases)]
    assert {"deformare", "logorare", "scrostare"} <= {verb.lemma for verb in seasonal}
    for verb in seasonal:
        assert HABITUAL & set(verb.da_spans), verb.lemma
        assert not verb.punctual, verb.lemma
    rng = random.Random(9)
    seen = 0
    for lemma in ("deformare", "logorare", "scrostare"):
        for _ in range(4):
            matrix = CAUSATIVE.matrix(LEXICON.verbs[lemma], rng, "II")
            for sentence in matrix.context:
                p_np = [chunk.text for chunk in sentence.chunks if chunk.tag == "P-NP"]
                if p_np:
                    assert p_np[0] in SEASON_TEXTS, sentence.text
                    seen += 1
    assert seen >= 3 * 4 * 3  # sentences 1, 3, 5 and 7 of each matrix have a P-NP


def test_an_alone_only_verb_s_active_two_argument_answers_say_da_solo_most_often():
    """The correct answer and I-Int of a verb whose si form takes "da solo" only (*il filo
    si è annodato da solo*) always say it: its actives say it at
    :data:`ONLY_ALONE_TWO_ARGUMENT_TAILS` (a passive with its agent never), the other verbs'
    at :data:`TWO_ARGUMENT_TAILS`, so that "da solo" marks no answer."""
    rng = random.Random(2)
    draws = 4000
    for only_alone, shares in [
        (True, ONLY_ALONE_TWO_ARGUMENT_TAILS),
        (False, TWO_ARGUMENT_TAILS),
    ]:
        for label in ("R-trans", "IR-trans", "ER-pass", "IER-pass"):
            tails = Counter(draw_tail(label, rng, True, only_alone) for _ in range(draws))
            alone = tails["alone"] / draws
            expected = shares["alone"] if label.endswith("trans") else 0.0
            assert abs(alone - expected) < 0.03, (label, only_alone, tails)
            assert abs(tails["time"] / draws - shares["time"]) < 0.03, (label, only_alone, tails)
        for label in ("Correct", "I-Int"):
            assert draw_tail(label, rng, True, only_alone) == "alone" or not only_alone


def test_the_third_round_verbs_keep_a_natural_e_wrby_agent_and_owners():
    """Each new verb keeps a person or animal answer agent whose "da" reads as no cause and
    that owns what it acts on, so that the correct answer and I-Int name both roles (*il
    maglione del ragazzo si è infeltrito da solo*; I-Int *il ragazzo dei maglioni si
    infeltrisce*): allagare's answers named no owner, I-Int a person alone, and the baseline
    learnt the people."""
    for lemma, person, patient in [
        ("infeltrire", "ragazzo", "maglione"),
        ("slabbrare", "ragazza", "tasca"),
        ("bucare", "cane", "pallone"),
    ]:
        verb = LEXICON.verbs[lemma]
        assert person in verb.answer_agents() and person not in CAUSAL_DA, lemma
        assert patient in verb.owners[person], lemma
        words = e_wrby_words(lemma, person, patient)
        assert CAUSATIVE.reads_well(verb, words, E_WRBY, True), lemma


def test_the_third_round_verbs_keep_out_the_readings_that_were_natural():
    """*il ragazzo si buca* reads as drugs, so bucare's people are reflexive (no answer names
    them); *dalla nonna* reads "at grandma's", so no grandmother felts a sweater; no sock
    (*la sua calza*, one of a pair) or silk felts; no dog punctures a dinghy; and each verb's
    si form takes "si" (*il maglione si infeltrisce*)."""
    bucare = LEXICON.verbs["bucare"]
    assert {"bambino", "ragazzo"} <= set(bucare.reflexive_agents)
    assert not {"bambino", "ragazzo"} & set(bucare.answer_agents())
    assert "canotto" not in bucare.patients
    infeltrire = LEXICON.verbs["infeltrire"]
    assert "nonna" not in infeltrire.agents and "calza" not in infeltrire.patients
    assert "seta" in infeltrire.patient_refuses
    assert "calza" not in LEXICON.verbs["slabbrare"].patients
    rng = random.Random(4)
    for lemma in THIRD_ROUND_VERBS:
        matrix = CAUSATIVE.matrix(LEXICON.verbs[lemma], rng, "II")
        si_sentences = [  # *si infeltrisce*, *potrebbe infeltrirsi*
            s for s in matrix.context
            if " si " in f" {s.text} " or any(w.endswith("rsi") for w in s.text.split())
        ]  # fmt: skip
        assert si_sentences, lemma
        for sentence in matrix.context:
            assert "calz" not in sentence.text, sentence.text  # silk: test_blm_reading_8815


def test_the_fourth_round_verbs_are_deliberate_item_verbs_whose_answers_name_both_roles():
    """No mishap nor wear, so their contexts take root modals; a person answer agent that owns
    what it acts on (*il sugo del cuoco si addensa*; I-Int *il cuoco del sugo si addensa*),
    whose "da" reads as no cause and no source (E-WrBy *il pedale si svita dal ragazzo*); the
    shops whose "da" reads "at the X's" (*dal meccanico*, *dalla parrucchiera*, *dal
    pasticciere*) are no agents of theirs."""
    items = {verb.lemma for verb in CAUSATIVE.verbs}
    for lemma, person, patient in [
        ("svitare", "ragazzo", "pedale"),
        ("disfare", "ragazza", "treccia"),
        ("sbriciolare", "cuoca", "meringa"),
        ("addensare", "cuoco", "sugo"),
    ]:
        verb = LEXICON.verbs[lemma]
        assert lemma in items and not (verb.mishap or verb.wear), lemma
        assert person in verb.answer_agents() and person not in CAUSAL_DA, lemma
        assert patient in verb.owners[person], lemma
        assert not {"meccanico", "parrucchiera", "pasticciere"} & set(verb.agents), lemma
        assert CAUSATIVE.reads_well(verb, e_wrby_words(lemma, person, patient), E_WRBY, True)


def test_the_fourth_round_verbs_read_as_a_native_reads_them():
    """*svitare* says "da solo" of itself (*il pedale si è svitato da solo*, not *si svita da
    pochi minuti*); no child crumbles cakes nor, over weeks, its own things (*quella bambina
    sbriciolava le sue torte da pochi giorni*); disfare's forms are fare's (*disfaceva*,
    *disfece*, *disfatto*); and a modal is told in their type II contexts."""
    assert LEXICON.verbs["svitare"].alone_only
    sbriciolare = LEXICON.verbs["sbriciolare"]
    for child in ("bambino", "bambina"):
        assert "torta" not in sbriciolare.agent_patients[child]
        assert child not in sbriciolare.owners
    rng = random.Random(24)
    modal = 0
    for lemma in FOURTH_ROUND_VERBS:
        for _ in range(3):
            matrix = CAUSATIVE.matrix(LEXICON.verbs[lemma], rng, "II")
            texts = [sentence.text for sentence in matrix.context]
            modal += sum(any(f" {m}" in f" {t}" for m in MODAL_STEMS) for t in texts)
            if lemma == "disfare":
                assert not any("disfav" in t or "disfato" in t or "disfò" in t for t in texts)
            if lemma == "sbriciolare":
                timed = [t for t in texts if " da " in t or " dal" in t]
                assert not any(f" {p} " in t for t in timed for p in ("suoi", "sue", "loro"))
    assert modal >= 4 * 3  # several per matrix, as the deliberate verbs allow


def test_the_fifth_round_verbs_happen_of_themselves_and_say_da_solo():
    for lemma in FIFTH_ROUND_VERBS:
        verb = LEXICON.verbs[lemma]
        assert verb.mishap and verb.alone_only, lemma
    # a dog owns no double-bed blanket (*alcuni cani sfilacciano le loro coperte matrimoniali*)
    assert "coperta" not in LEXICON.verbs["sfilacciare"].owners["cane"]
