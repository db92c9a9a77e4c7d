"""The semantic features of the second native reading (issue 21), each checked in generated
sentences and, where it is data, refused by the lexicon check when broken.

The reader found natural causes iterated over weeks (*il terremoto incrina le pareti dal mese
scorso*), times of day that do not fit the verb (*quest'ombra viene accorciata al tramonto*,
*il pane si brucerà per la prima volta*), named objects over habitual spans (*il turista beve
queste spremute dallo scorso inverno*), hunters of the wrong prey (*i cinghiali cacciati da
alcune aquile*), AgrI predicates that do not fit the subject (*le galline giocheranno*, *le
lettere si romperanno*, *aspetta alcuni treni*), coaches of grandparents and one bag of several
owners (*lo zaino delle zie*). The sentences are parsed back with the independent reference of
``italian_reference`` (forms typed in), not with the generator's morphology.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from italian_reference import VERBS as VERB_FORMS
from italian_reference import check_phrase, noun_index
from lexicon_copies import edited_lexicon

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.lexicon import LexiconError
from poetic_eval.blm.generator.matrices import LEXICAL_TYPES
from poetic_eval.blm.generator.noun_phrases import phrase_text

LEXICON = load_lexicon()
NOUNS = noun_index(LEXICON)
SPAN_OF = {phrase_text(LEXICON, spec): spec.span for spec in LEXICON.da_phrases}
P_NP = {phrase_text(LEXICON, spec): spec for spec in LEXICON.other_phrases}
HABITUAL = set(LEXICON.habitual_spans)
SIZES = BlmSizes(agreement_items=400, agreement_few_shot=4, items_per_verb=8)


@cache
def rows(config: str) -> dict:
    return generate_config(config, seed=3, sizes=SIZES)


def alternation_sentences(configs=("caus_ii", "caus_iii", "od_ii", "od_iii")):
    for config in configs:
        for split in rows(config).values():
            for item in split:
                yield from item["Context_annotation"]
                for annotation in item["Answer_set_annotation"]:
                    if annotation["value"]:  # the correct answer; the others break a rule
                        yield annotation


ALONE_PHRASES = {"da solo", "da sola", "da soli", "da sole"}


def chunks_of(annotation) -> dict[str, str]:
    """Text by tag; a "da solo" phrase (tagged da-NP, no time) is left out, so that "da-NP"
    means a temporal "da" phrase here."""
    return {
        chunk["tag"]: chunk["text"]
        for chunk in annotation["chunks"]
        if not (chunk["tag"] == "da-NP" and chunk["text"] in ALONE_PHRASES)
    }


def agent_of(chunks: dict[str, str]) -> str | None:
    """The agent's text, as subject (Ag) or in a by-phrase (da-Ag)."""
    return chunks.get("Ag") or chunks.get("da-Ag")


def patient_of(chunks: dict[str, str]) -> str | None:
    """The patient's text, as subject or object (Pat) or in a by-phrase (da-Pat)."""
    return chunks.get("Pat") or chunks.get("da-Pat")


def present_or_imperfect(verb_chunk: str, lemma: str) -> bool:
    """Whether a verb group is in the present or imperfect (*incrina*, *viene incrinata*)."""
    first = verb_chunk.split()[0] if not verb_chunk.startswith("si ") else verb_chunk.split()[1]
    forms = {
        VERB_FORMS[verb].finite[(tense, number)]
        for verb in (lemma, "venire")
        for tense in ("present", "imperfect")
        for number in ("sg", "pl")
    }
    return first in forms


def test_a_cause_acts_only_over_the_spans_and_in_the_frames_of_its_kind():
    seen = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        chunks = chunks_of(annotation)
        agent_text = agent_of(chunks)
        if agent_text is None or "Intr" in chunks:
            continue
        noun = LEXICON.nouns[check_phrase(agent_text, NOUNS).lemma]
        if noun.cause_kind is None:
            continue
        kind = LEXICON.cause_kinds[noun.cause_kind]
        seen += 1
        if "da-NP" in chunks:  # no *il terremoto incrina le pareti dal mese scorso*
            assert SPAN_OF[chunks["da-NP"]] in kind.spans, annotation
        else:  # no *il terremoto incrina le pareti nel pomeriggio* (a habit of an event)
            verb = "Akt" if "Akt" in chunks else "Pass"
            if present_or_imperfect(chunks[verb], annotation["verb"]):
                assert {"present", "imperfect"} <= set(kind.frames), annotation
            if P_NP[chunks["P-NP"]].schedule:  # no *il vento chiude i cancelli dopo cena*
                assert kind.keeps_time, annotation
    assert seen > 20
    assert LEXICON.cause_kinds[LEXICON.nouns["terremoto"].cause_kind].spans == ()
    assert "weeks" not in LEXICON.cause_kinds[LEXICON.nouns["pioggia"].cause_kind].spans


def test_only_a_habitual_agent_repeats_an_iterated_event():
    seen = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        chunks = chunks_of(annotation)
        agent_text = agent_of(chunks)
        if verb.habitual_agents is None or agent_text is None or "Intr" in chunks:
            continue
        noun = LEXICON.nouns[check_phrase(agent_text, NOUNS).lemma]
        if "da-NP" in chunks and noun.cause_kind is None:
            seen += 1  # *il gatto rompe i vasi da un mese*, not *l'operaio incrina i muri*
            assert noun.lemma in verb.habitual_agents, annotation
    assert seen > 5
    assert LEXICON.verbs["incrinare"].habitual_agents == ()


def test_every_p_np_is_one_its_verb_takes():
    for annotation in alternation_sentences():
        chunks = chunks_of(annotation)
        if "P-NP" in chunks:
            verb = LEXICON.verbs[annotation["verb"]]
            assert P_NP[chunks["P-NP"]].id in verb.p_phrases, annotation
    verbs = LEXICON.verbs  # the reader's cases
    # accorciare is gone: *questa candela poteva essere accorciata dal fuoco* (the reading of
    # 3e64c4e), and shadows alone shorten (no two agents)
    assert "accorciare" not in verbs
    assert "first_time" not in verbs["bruciare"].p_phrases
    assert "dawn" not in verbs["piegare"].p_phrases
    # *il biscotto veniva sbriciolato da dieci minuti*; iterated over weeks, *quella bambina
    # sbriciolava le sue torte da pochi giorni*, it read no better: it is back as a habit of
    # children over weeks (*il bambino sbriciola i biscotti da un mese*), of no cake, and on
    # nothing of their own
    sbriciolare = verbs["sbriciolare"]
    assert sbriciolare.punctual and sbriciolare.da_spans == ("weeks",)
    assert set(sbriciolare.habitual_agents) == {"bambino", "bambina"}
    assert "torta" not in sbriciolare.agent_patients["bambina"]
    assert "bambina" not in sbriciolare.owners


def test_a_named_object_drop_patient_takes_no_habitual_span():
    seen = 0
    for annotation in alternation_sentences(("od_ii", "od_iii")):
        chunks = chunks_of(annotation)
        verb = LEXICON.verbs[annotation["verb"]]
        named = "Pat" in chunks or "da-Pat" in chunks
        if "da-NP" in chunks and named and not verb.habitual_objects:
            seen += 1  # *il turista beve queste spremute dallo scorso inverno*
            assert SPAN_OF[chunks["da-NP"]] not in HABITUAL, annotation
    assert seen > 50
    habitual_answers = [
        a
        for a in alternation_sentences(("od_ii",))
        if a.get("value") and SPAN_OF.get(chunks_of(a).get("da-NP")) in HABITUAL
    ]
    assert habitual_answers  # *le pittrici disegnano da anni* stays


def test_an_iterated_event_s_patient_is_generic():
    """Over a span, a repeated mishap is on things in general (*i camerieri rovesciano molti
    bicchieri da una settimana*, never *quei bicchieri* or *i loro bicchieri*); a habit or a
    wear may be on one's own things (*il ragazzo deforma le sue scarpe da anni*)."""
    owned = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        if not set(verb.da_spans) <= HABITUAL:
            continue
        chunks = chunks_of(annotation)
        many = verb.mishap and verb.habitual_agents != ()  # *rompono molte tazze da un mese*
        # but one thing that changed by itself: *il vaso si è rotto da solo*
        alone = {c["text"] for c in annotation["chunks"] if c["tag"] == "da-NP"} & ALONE_PHRASES
        many = many and not alone
        for tag in ("Pat", "da-Pat"):
            if tag in chunks:  # *i vasi si rompono da un mese*, not *quei vasi*
                phrase = check_phrase(chunks[tag], NOUNS)
                if "da-NP" not in annotation["pattern"]:
                    continue  # at a time, one's own: *ha spuntato le sue matite nel pomeriggio*
                # a habit or a wear may be on one's own: *il ragazzo deforma le sue scarpe*
                kinds = ("many" if many else "def",) + ("poss", "poss-pl") * (not verb.mishap)
                assert phrase.kind in kinds, annotation
                owned += phrase.kind in ("poss", "poss-pl")
    assert owned > 5


def test_no_possessive_without_a_possessor_in_causi_and_odi():
    seen = 0
    for annotation in alternation_sentences():
        chunks = chunks_of(annotation)
        for tag, text in chunks.items():
            if tag in ("Ag", "Pat", "da-Ag", "da-Pat"):  # *le sue vasche*, *il suo ramo*
                if check_phrase(text, NOUNS).kind != "poss":
                    continue
                seen += 1  # only one person's own patient: *la pittrice disegna i suoi ritratti*
                assert annotation["pattern"].startswith("Ag Akt Pat") and tag == "Pat"
                agent = LEXICON.nouns[check_phrase(chunks["Ag"], NOUNS).lemma]
                assert agent.animacy == "animate" and agent.cause_kind is None, annotation
                assert check_phrase(chunks["Ag"], NOUNS).number == "sg", annotation
    assert seen > 20


def test_hunters_and_fishers_take_their_own_prey():
    cacciare, pescare = LEXICON.verbs["cacciare"], LEXICON.verbs["pescare"]
    assert not cacciare.can_act_on("aquila", "cinghiale")
    assert not pescare.can_act_on("orso", "sardina")
    generator = AlternationGenerator(LEXICON, "object_drop")
    rng = random.Random(4)
    for verb in (cacciare, pescare):
        for lexical_type in LEXICAL_TYPES:
            for _ in range(20):
                matrix = generator.matrix(verb, rng, lexical_type, [verb])
                for sentence in (*matrix.context, *(s for _, s in matrix.answers)):
                    found = {
                        c.tag.removeprefix("da-"): check_phrase(c.text, NOUNS).lemma
                        for c in sentence.chunks
                        if c.tag in ("Ag", "Pat", "da-Ag", "da-Pat")
                    }
                    if {"Ag", "Pat"} <= set(found):
                        assert verb.can_act_on(found["Ag"], found["Pat"]), sentence.text


def agri_sentences():
    for config in ("agr_ii", "agr_iii"):
        for split in rows(config).values():
            for item in split:
                yield from zip(item["Context"], item["Context_annotation"])
                yield from zip(item["Answer_set"], item["Answer_set_annotation"])


def test_agri_predicates_fit_their_subject_and_no_personal_noun_has_several_owners():
    fitting = {}
    for predicate in LEXICON.predicates:
        fitting.setdefault(predicate.lemma, set()).update(predicate.subjects)
    seen_objects = 0
    for text, annotation in agri_sentences():
        chunks = chunks_of(annotation)
        subject = LEXICON.nouns[check_phrase(chunks["Subj"], NOUNS).lemma]
        lemma = annotation["verb"]
        if lemma in ("giocare", "saltare", "correre", "cadere", "sparire"):
            assert set(subject.classes) & fitting[lemma], text  # *le galline giocheranno*
        if "si" in chunks["V"].split():  # *le lettere si romperanno*
            assert "breakable" in subject.classes, text
        if lemma == "aspettare":  # *aspetta alcuni treni*
            seen_objects += 1
            assert check_phrase(chunks["Obj"], NOUNS).number == "sg", text
        heads = [chunks["Subj"], chunks["P1"]] if "P2" in chunks else [chunks["Subj"]]
        for head in heads:  # *lo zaino delle zie*, *la figlia di quelle cameriere*
            assert not LEXICON.nouns[check_phrase(head, NOUNS).lemma].personal, text
        first_phrase = check_phrase(chunks["P1"], NOUNS)
        first = LEXICON.nouns[first_phrase.lemma]
        if "coach" in subject.classes and first_phrase.preposition == "di":
            assert "trainee" in first.classes, text  # *le allenatrici di un nonno*
    assert seen_objects > 0
    # the reader's cases, in the data
    assert "playful" not in LEXICON.nouns["gallina"].classes
    assert "breakable" not in LEXICON.nouns["lettera"].classes
    assert LEXICON.nouns["zaino"].personal and LEXICON.nouns["valigia"].personal
    assert "employer" in LEXICON.nouns["nonno"].classes
    assert "service_worker" not in LEXICON.nouns["allenatrice"].classes


def test_no_indefinite_plural_of_a_relative_of_a_known_small_count():
    # the fourth reading: *il cassetto di alcune nonne di quell'infermiere*
    few = {lemma for lemma, noun in LEXICON.nouns.items() if noun.few}
    assert {"nonna", "nonno"} <= few
    seen = 0
    for _, annotation in agri_sentences():
        for tag, text in chunks_of(annotation).items():
            if tag in ("Subj", "P1", "P2", "Coord"):
                phrase = check_phrase(text.removeprefix("e "), NOUNS)
                if phrase.lemma in few and phrase.number == "pl":
                    seen += 1
                    assert phrase.kind != "some", annotation
    assert seen > 20


ROUTINE = {lemma for lemma, verb in LEXICON.verbs.items() if verb.routine}


def test_a_routine_event_repeats_only_as_a_named_habitual_agent_s_habit():
    # the third reading: *le porte si chiudono da un mese*, *i cancelli venivano chiusi da due
    # settimane*, *le candele venivano accese dal mese scorso*
    assert {"aprire", "chiudere", "accendere", "spegnere", "svegliare"} <= ROUTINE
    seen, habits = 0, 0
    for config in ("caus_ii", "caus_iii"):
        for split in rows(config).values():
            for item in split:
                assert item["Verb"] not in ROUTINE, item["ID"]  # no span fits its answer
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        if not verb.routine:
            continue
        seen += 1
        chunks = chunks_of(annotation)
        if "da-NP" in chunks and SPAN_OF[chunks["da-NP"]] in HABITUAL:
            habits += 1
            agent = agent_of(chunks)
            assert agent is not None, annotation
            noun = LEXICON.nouns[check_phrase(agent, NOUNS).lemma]
            if noun.cause_kind is not None:  # a cause repeating by its kind: la sveglia
                assert SPAN_OF[chunks["da-NP"]] in LEXICON.cause_kinds[noun.cause_kind].spans
            else:
                assert noun.lemma in verb.habitual_agents, annotation
    assert seen > 10 and habits > 0  # the routine verbs stay in type III contexts


def test_a_cause_patient_takes_no_passive_without_agent():
    # the third reading: *le ombre venivano allungate da dieci minuti* (allungare is gone since
    # the readings of c6e3bb6: *l'elastico veniva allungato da tre ore*)
    assert "allungare" not in LEXICON.verbs
    assert "arrosto" in LEXICON.verbs["bruciare"].cause_patients
    agentless = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        chunks = chunks_of(annotation)
        if "Pass" in chunks and "da-Ag" not in chunks and verb.cause_patients:
            agentless += 1
            patient = check_phrase(chunks["Pat"], NOUNS).lemma
            assert patient not in verb.cause_patients, annotation
    assert agentless > 10


def test_no_unknown_single_thing_in_an_ongoing_event_and_no_indefinite_shadow():
    # the third reading: *un'ombra*, *una camicia si asciuga da pochi minuti*
    assert LEXICON.nouns["ombra"].definite
    assert not LEXICON.verbs["incrinare"].can_act_on("bambino", "parete")
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        chunks = chunks_of(annotation)
        for tag in ("Ag", "Pat", "da-Ag", "da-Pat"):
            if tag in chunks:
                phrase = check_phrase(chunks[tag], NOUNS)
                if LEXICON.nouns[phrase.lemma].definite:
                    assert phrase.kind not in ("indef", "some"), annotation
        if "da-NP" in chunks and annotation["chunks"][0]["tag"] == "Pat":
            assert check_phrase(chunks["Pat"], NOUNS).kind != "indef", annotation


def test_one_consumer_takes_no_plural_portions_over_a_span():
    # the third reading: *il ragazzo mangiava i panini da qualche minuto*
    assert LEXICON.verbs["mangiare"].portions and LEXICON.verbs["bere"].portions
    assert LEXICON.verbs["guidare"].portions  # *le moto vengono guidate da questo ragazzo*
    seen = 0
    for annotation in alternation_sentences(("od_ii", "od_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        chunks = chunks_of(annotation)
        agent = agent_of(chunks)
        patient = patient_of(chunks)
        if verb.portions and "da-NP" in chunks and agent and patient:
            seen += 1
            one = check_phrase(agent, NOUNS).number == "sg"
            assert not (one and check_phrase(patient, NOUNS).number == "pl"), annotation
    assert seen > 5


def test_every_agent_acts_only_on_the_patients_it_can_and_the_fourth_reading_s_pairs_stay_out():
    seen = 0
    for annotation in alternation_sentences():
        chunks = chunks_of(annotation)
        agent = agent_of(chunks)
        patient = patient_of(chunks)
        if agent and patient and "Intr" not in chunks:
            seen += 1
            verb = LEXICON.verbs[annotation["verb"]]
            pair = (check_phrase(agent, NOUNS).lemma, check_phrase(patient, NOUNS).lemma)
            assert verb.can_act_on(*pair), annotation
    assert seen > 100
    verbs = LEXICON.verbs  # the fourth reading's cases, in the data
    assert not verbs["svegliare"].can_act_on("madre", "gatto")  # *la madre svegliava i gatti*
    assert not verbs["svegliare"].can_act_on("padre", "gatto")
    assert not verbs["bagnare"].can_act_on("giardiniere", "camicia")
    assert not verbs["svuotare"].can_act_on("idraulico", "bottiglia")
    assert "sarta" not in verbs["tessere"].agents  # *alcune sarte tessono alcuni tappeti*
    assert not {"lingua", "materia"} & set(verbs["insegnare"].patients)
    # spans: *il marinaio sgonfia il pallone da tre ore*, *insegnava le materie da tre ore*,
    # *la pasta viene cucinata dall'alba*
    assert verbs["sgonfiare"].da_spans == ("minutes",)
    assert set(verbs["insegnare"].da_spans) <= HABITUAL and verbs["insegnare"].habitual_objects
    assert "morning" not in verbs["cucinare"].da_spans


def test_a_mishap_is_no_one_s_purpose_and_no_one_s_plan():
    # the fourth reading: *il biscotto veniva bruciato da un cuoco da cinque minuti*, *il fuoco
    # brucerà i biscotti nel pomeriggio*, *i chiodi si piegheranno nel pomeriggio*
    # it happened: the perfect or the passato remoto (ha bruciato, bruciò, fu bruciata), it
    # might happen (potrebbe bruciare), or it must, may or might have happened (deve aver
    # bruciato, dovette bruciarsi: an inference, with a perfect infinitive or of no duty)
    inferred = {"deve", "devono", "doveva", "dovevano", "può", "possono", "dovette", "dovettero"}
    perfect = (
        {"ha", "hanno", "è", "sono", "fu", "furono", "potrebbe", "potrebbero"}
        | inferred
        | {
            VERB_FORMS[verb.lemma].finite[("remote", number)]
            for verb in LEXICON.verbs.values()
            if verb.mishap
            for number in ("sg", "pl")
        }
    )
    timed = spanned = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        if not verb.mishap:
            continue
        chunks = chunks_of(annotation)
        group = (chunks.get("Akt") or chunks.get("Pass") or chunks["Intr"]).split()
        if "P-NP" in chunks:
            timed += 1
            assert group[group[0] == "si"] in perfect, annotation
            if group[group[0] == "si"] in inferred - {"dovette", "dovettero"}:
                assert {"aver", "essersi", "stato", "stata", "stati", "state"} & set(group), (
                    annotation
                )
        agent = agent_of(chunks)
        if "da-NP" in chunks and agent and "Intr" not in chunks:
            noun = LEXICON.nouns[check_phrase(agent, NOUNS).lemma]
            if noun.cause_kind is None:
                spanned += 1
                assert SPAN_OF[chunks["da-NP"]] in HABITUAL, annotation
                assert verb.habitual_agents is None or noun.lemma in verb.habitual_agents
    assert timed > 20 and spanned > 0
    assert {"bruciare", "bagnare", "piegare", "incrinare"} <= {
        lemma for lemma, verb in LEXICON.verbs.items() if verb.mishap
    }


def test_several_agents_act_on_no_single_small_patient():
    # the fourth reading: *gli idraulici svuotavano la bottiglia* (since the reading of a854362
    # *svuotare* empties no bottle or bucket at all: *svuota il suo secchio da dieci minuti*)
    assert "bottiglia" not in LEXICON.verbs["svuotare"].patients
    assert "bullone" in LEXICON.verbs["allentare"].small_patients
    assert "vite" in LEXICON.verbs["allentare"].small_patients
    seen = 0
    for annotation in alternation_sentences(("caus_ii", "caus_iii")):
        verb = LEXICON.verbs[annotation["verb"]]
        chunks = chunks_of(annotation)
        agent = agent_of(chunks)
        patient = patient_of(chunks)
        if verb.small_patients and agent and patient and "Intr" not in chunks:
            agent, patient = check_phrase(agent, NOUNS), check_phrase(patient, NOUNS)
            if patient.lemma in verb.small_patients:
                seen += 1
                assert not (agent.number == "pl" and patient.number == "sg"), annotation
    assert seen > 10


def _entry_edit(section: str, lemma: str, change):
    """An edit of lexicon JSON that applies ``change`` to the entry of ``lemma`` in ``section``
    (a lemma that is not there fails the test)."""

    def edit(raw):
        change(next(entry for entry in raw[section] if entry["lemma"] == lemma))

    return edit


def _unknown_kind_span(raw):
    raw["cause_kinds"]["event"]["spans"] = ["decades"]


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        (
            "nouns.json",
            _entry_edit("nouns", "terremoto", lambda noun: noun.pop("cause_kind")),
            "needs a cause_kind",
        ),
        (
            "verbs.json",
            _entry_edit(
                "verbs", "bruciare", lambda v: v.update(p_phrases=["afternoon", "at_midnight"])
            ),
            "at_midnight",
        ),
        (
            "verbs.json",
            _entry_edit("verbs", "bruciare", lambda v: v.update(p_phrases=["afternoon"])),
            "p_phrases",
        ),
        ("alternation_phrases.json", _unknown_kind_span, "decades"),
        (
            "verbs.json",
            _entry_edit("verbs", "chiudere", lambda verb: verb.pop("habitual_agents")),
            "routine verb names its habitual_agents",
        ),
        (
            "verbs.json",
            _entry_edit("verbs", "bruciare", lambda v: v.update(cause_patients=v["patients"])),
            "every patient is a cause_patient",
        ),
    ],
)
def test_the_lexicon_check_refuses_broken_features(tmp_path, name, edit, message):
    with pytest.raises(LexiconError, match=message):
        load_lexicon(edited_lexicon(tmp_path, name, edit))


def test_the_reading_dump_shows_every_sentence_and_stars_the_correct_answer():
    from poetic_eval.blm.generator.reading import reading_text

    small = BlmSizes(agreement_items=40, agreement_few_shot=2, items_per_verb=2)
    text = reading_text("od_ii", seed=1, items=3, sample_seed=0, sizes=small)
    blocks = text.split("## ")[1:]
    assert len(blocks) == 3
    test = {row["ID"]: row for row in generate_config("od_ii", seed=1, sizes=small)["test"]}
    for block in blocks:
        head, *lines = block.splitlines()
        item = test[int(head.split()[2])]
        assert len(lines) == 15  # 7 context sentences and 8 answers
        starred = [line for line in lines if line.startswith("*")]
        assert len(starred) == 1 and item["Correct_answer"] in starred[0]
        assert all(sentence.split("\t")[1] in block for sentence in item["Context"])


def test_agri_prefixes_are_hearsay_a_private_fact_can_follow():
    """AgrI's facts are private (a neighbour's dog runs): a prefix that names a publication
    made them odd news (*il giornale scrive che il cane di questi zii corre*, 7 sentences of
    one reading); every prefix is hearsay or common knowledge, and takes the indicative."""
    for prefix in LEXICON.prefixes:
        words = prefix.lower().split()
        assert not {"giornale", "scrive", "letto", "legge"} & set(words), prefix
        assert words[-1] == "che", prefix
