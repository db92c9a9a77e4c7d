"""Each CausI/OdI verb takes temporal "da" phrases of its own spans only (``da_spans``).

A native reading found punctual events iterated over years (*alcune corde si spezzano da alcuni
anni*) and quick processes given hours (*quelle torte si bruciavano da tre ore*): the spans are
per verb, the generator draws only from them, and the lexicon check refuses a verb without
spans, with an unknown one, or a punctual verb with a span it cannot iterate over.
"""

from __future__ import annotations

import random

import pytest
from lexicon_copies import edited_verb

from poetic_eval.blm import load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_sentences import ALONE, AlternationWords, with_cause
from poetic_eval.blm.generator.lexicon import LexiconError
from poetic_eval.blm.generator.matrices import LEXICAL_TYPES
from poetic_eval.blm.generator.noun_phrases import NounPhrase, phrase_text

LEXICON = load_lexicon()
SPAN_OF = {phrase_text(LEXICON, spec): spec.span for spec in LEXICON.da_phrases}
ALONE_PHRASES = {"da solo", "da sola", "da soli", "da sole"}


def da_chunks(matrix) -> list[tuple[str, str]]:
    """(verb lemma, da-NP text) of every sentence of ``matrix`` with a temporal "da"."""
    sentences = [*matrix.context, *(sentence for _, sentence in matrix.answers)]
    return [
        (sentence.verb, chunk.text)
        for sentence in sentences
        for chunk in sentence.chunks
        if chunk.tag == "da-NP" and chunk.text not in ALONE_PHRASES  # da solo: no span
    ]


@pytest.mark.parametrize("alternation", ["causative", "object_drop"])
def test_every_da_phrase_is_of_a_span_its_verb_takes(alternation):
    generator = AlternationGenerator(LEXICON, alternation)
    rng = random.Random(7)
    seen = 0
    for verb in generator.verbs:
        for lexical_type in LEXICAL_TYPES:
            for _ in range(3):
                for lemma, text in da_chunks(generator.matrix(verb, rng, lexical_type)):
                    assert SPAN_OF[text] in LEXICON.verbs[lemma].da_spans, (lemma, text)
                    seen += 1
    assert seen >= 2 * 6 * len(generator.verbs)  # two or more per matrix


def test_the_reader_s_odd_phrases_are_gone():
    for lemma, text in [("spezzare", "da alcuni anni"), ("bruciare", "da tre ore")]:
        verb = LEXICON.verbs[lemma]
        assert text not in AlternationGenerator(LEXICON, verb.alternation).da_phrases_for(verb)
    assert "fulmine" not in LEXICON.verbs["frantumare"].agents
    assert "fulmine" not in LEXICON.verbs["incrinare"].agents


@pytest.mark.parametrize(
    ("lemma", "da_spans", "message"),
    [
        ("bruciare", None, "needs da_spans"),
        ("bruciare", ["decades"], "decades"),
        ("rompere", ["hours"], "punctual"),
        ("mangiare", [], "needs da_spans"),
    ],
)
def test_the_lexicon_check_refuses_bad_spans(tmp_path, lemma, da_spans, message):
    with pytest.raises(LexiconError, match=message):
        load_lexicon(edited_verb(tmp_path, lemma, da_spans=da_spans))


def test_the_lexicon_check_names_a_di_pair_the_answers_cannot_use(tmp_path):
    """*il pescatore di trote* whose patients all give off a natural I-Int: the answers draw
    paired words only, so the generator had nothing to choose from; the check names it."""
    pescatore = LEXICON.verbs["pescare"].specialists["pescatore"]
    folder = edited_verb(
        tmp_path, "pescare", da_spans=["minutes", "hours"], acting_patients=list(pescatore)
    )
    with pytest.raises(LexiconError, match="specialists/owners 'pescatore': none of"):
        load_lexicon(folder)


#: a day or more: a punctual mishap over such a span is iterated over many things
DAYS_OR_MORE = {"weeks", "years"}
#: small chores on a few things: minutes, never hours (*lavano le loro tazze dal primo
#: pomeriggio*, *annaffiano alcune rose dal mattino presto*, *la pasta veniva impastata da tre
#: ore*)
CHORES = ("lavare", "annaffiare", "impastare", "spolverare")


def test_a_mishap_over_days_is_on_many_things_and_a_chore_lasts_minutes():
    """The reading of c823dd7 found *le cameriere rovesciavano le bottiglie dalla settimana
    scorsa* (the same bottles knocked over for a week) and chores lasting hours. A punctual
    mishap with a span of a day or more has *molti*/*molte* things (*le cameriere rompono
    molte tazze da un mese*), never a definite one; incrinare, whose only agent over such a
    span is the frost (*il gelo incrina i muri da due settimane*), is no iterated mishap."""
    for lemma in CHORES:
        assert LEXICON.verbs[lemma].da_spans == ("minutes",), lemma
    generator = AlternationGenerator(LEXICON, "causative")
    rng = random.Random(11)
    mishaps = [v for v in generator.verbs if v.punctual and v.mishap and v.habitual_agents != ()]
    assert {"rovesciare"} <= {v.lemma for v in mishaps}
    seen = 0
    for verb in mishaps:
        for _ in range(4):
            matrix = generator.matrix(verb, rng, "II")
            for sentence in [*matrix.context, *(s for _, s in matrix.answers)]:
                chunks = {chunk.tag: chunk.text for chunk in sentence.chunks}
                if SPAN_OF.get(chunks.get("da-NP")) not in DAYS_OR_MORE or "Pat" not in chunks:
                    continue
                assert chunks["Pat"].split()[0] in ("molti", "molte"), sentence.text
                seen += 1
    assert seen >= 2 * len(mishaps)


def test_the_reader_s_natural_wrong_answers_and_odd_doers_are_gone():
    """c823dd7's reading: *quel cacciatore veniva cacciato da quei cinghiali* (cacciare as
    "drive away") and *i muri si incrinavano dal gelo* ("from the frost", a cause) read as
    natural wrong answers; *cantautori di canzoni* and *la ricamatrice di tovaglie* as odd
    doers."""
    od_generator = AlternationGenerator(LEXICON, "object_drop")
    assert "cacciare" not in {verb.lemma for verb in od_generator.verbs}
    assert "cacciare" in {verb.lemma for verb in od_generator.context_only}
    assert "cantautore" not in LEXICON.verbs["cantare"].specialists
    assert "ricamatrice" not in LEXICON.verbs["ricamare"].specialists
    generator = AlternationGenerator(LEXICON, "causative")
    rng = random.Random(5)
    causes = 0
    for lemma in ("indurire", "staccare", "sporcare"):
        verb = LEXICON.verbs[lemma]
        for _ in range(6):
            answer = dict(generator.matrix(verb, rng, "II").answers)["E-WrBy"]
            agent = next(chunk.text for chunk in answer.chunks if chunk.tag == "da-Ag")
            causes += any(word in agent for word in ("gelo", "calore", "umidità", "fumo"))
    assert causes == 0


#: the verbs of things smashed, snapped or crumpled, which no one does as a habit (the frost
#: cracks walls for weeks: *incrinare* keeps that span)
SMASHED = ("frantumare", "spezzare", "spaccare", "scheggiare", "sgualcire")


def test_the_reading_of_a854362_odd_sentences_are_gone():
    """The two readings of a854362 found things smashed over days as an ongoing activity (*quel
    bambino frantumava molti vasi dall'inizio della settimana*, *molti vasi venivano frantumati
    da pochi giorni*), things breaking or tearing by themselves in correct answers (*il vaso
    del bambino si è frantumato da solo*), a bucket emptied for ten minutes and E-WrBy
    *recitavano dai monologhi* ("recite from"). None of these is drawn now."""
    causative = AlternationGenerator(LEXICON, "causative")
    items = {verb.lemma for verb in causative.verbs}
    assert not items & {*SMASHED, "strappare", "rompere", "incrinare"}
    assert "recitare" not in {v.lemma for v in AlternationGenerator(LEXICON, "object_drop").verbs}
    assert not {"secchio", "bottiglia"} & set(LEXICON.verbs["svuotare"].patients)
    rng = random.Random(5)
    pool = [*causative.verbs, *causative.context_only]
    smashed_seen, alone_answers = 0, []
    for _ in range(40):
        matrix = causative.matrix(rng.choice(causative.verbs), rng, "III", pool)
        for verb, text in da_chunks(matrix):
            assert verb not in SMASHED, text
        smashed_seen += sum(sentence.verb in SMASHED for sentence in matrix.context)
        alone_answers += [
            answer.text
            for _, answer in matrix.answers
            if any(c.tag == "da-NP" and c.text in ALONE_PHRASES for c in answer.chunks)
        ]
    # the smashing verbs still come in contexts (with a time of day), and da solo in answers,
    # always of one thing: *la bottiglia si è rovesciata da sola*, not *molte bottiglie*
    assert smashed_seen > 0 and len(alone_answers) > 20
    assert not [text for text in alone_answers if text.split()[0] in ("molti", "molte")]


def test_no_machine_acts_alone():
    """*il trattore ara da solo* (a driverless tractor), from the reading of 3e64c4e: machines
    are the subject of OdI answers, but never with *da solo*."""
    generator = AlternationGenerator(LEXICON, "object_drop")
    rng = random.Random(8)
    machine_subjects, alone_subjects = 0, 0
    for lemma in ("arare", "mietere"):
        for _ in range(30):
            for _, answer in generator.matrix(LEXICON.verbs[lemma], rng, "II").answers:
                chunks = {chunk.tag: chunk.text for chunk in answer.chunks}
                if answer.chunks[0].tag != "Ag":
                    continue
                machine = bool({"trattore", "mietitrebbia"} & set(chunks["Ag"].split()))
                alone = chunks.get("da-NP") in ALONE_PHRASES
                machine_subjects += machine
                alone_subjects += alone
                assert not (machine and alone), answer.text
    assert machine_subjects > 0 and alone_subjects > 0


def test_a_cause_is_named_only_beside_a_span_it_acts_over():
    """*i vetri si incrinano per il terremoto dal mese scorso* (an earthquake does not last a
    month), from the reading of 3e64c4e, and *il cemento si induriva per il gelo da cinque
    minuti*: :func:`.with_cause` names the cause only beside a span its kind acts over."""
    verb = LEXICON.verbs["indurire"]
    cemento, gelo, sole, terremoto = (
        LEXICON.nouns[n] for n in ("cemento", "gelo", "sole", "terremoto")
    )
    correct = ("Pat", "Intr", "da-NP")
    cases = [(gelo, "minutes", False), (gelo, "weeks", True), (sole, "minutes", True)]
    for cause, span, named in [*cases, (terremoto, "weeks", False)]:
        words = AlternationWords(
            NounPhrase(cause, "sg", "def"), NounPhrase(cemento, "sg", "def"), "", "x", "present"
        )
        phrase = with_cause(LEXICON, verb, words, correct, span).cause
        assert bool(phrase) == named, (cause.lemma, span, phrase)
        if named:
            assert phrase.endswith(cause.lemma), phrase
    alone = AlternationWords(
        NounPhrase(sole, "sg", "def"), NounPhrase(cemento, "sg", "def"), "", ALONE, "present"
    )
    assert with_cause(LEXICON, verb, alone, correct, None).cause == ""  # *da solo*: no cause
