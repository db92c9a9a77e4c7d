"""A CausI/OdI sentence made from its words (:class:`AlternationWords`) and its template.

The template (:mod:`.alternation_templates`) gives the chunks in order: the subject's role, the
verb's voice tag (``Akt`` active, ``Pass`` passive, ``Intr`` the si form for CausI or the verb
without object for OdI), then roles, ``P-NP``, ``da-NP`` or "da" + a role (``da-Ag``,
``da-Pat``). A ``da-NP`` is the words' temporal phrase, or *da solo* agreeing with the subject
when the words say :data:`ALONE`; a CausI si verb with *da solo* is told as done, in the
passato prossimo (*il vaso si è rotto da solo*, not the odd *si rompeva da solo*).

Three changes of the words make the noun phrases richer, as the BLM-It release's are:
:func:`possessed` makes a person's patient their own (*il cuoco brucia la sua torta*),
:func:`with_specialist` names, in a one-argument answer, the other role after the subject (OdI
*i pescatori di trote pescano dall'alba*, CausI *i piatti del cameriere si rompono da soli*;
I-Int *le trote di pescatori pescano*, *il cameriere dei piatti si rompe*), and
:func:`with_cause` names a CausI cause after the verb (*i rami si piegano per il vento*; I-Int
*il vento si piega per i rami*), so that the correct answer names both roles as the other
answers do. :func:`with_modifiers` gives a context sentence's agent and patient one of their
nouns' lasting modifiers (*il vecchio portiere*, *il vaso di vetro*); the answers take none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .lexicon import Lexicon, Noun, NounModifier, Verb, adjective_form
from .matrices import Chunk, Sentence, pick
from .noun_phrases import NounPhrase
from .verb_groups import verb_group

#: the ``da_phrase`` of words whose "da" phrase says the subject is alone (*da solo*, *da
#: sole*, agreeing with it when the sentence is made)
ALONE = "<alone>"
#: the chance, per alternation, that a context sentence where one person acts on a patient
#: makes it the person's own (*il cuoco brucia la sua torta*): the release's contexts have
#: possessives in 7-25 % of their sentences; CausI's agents are mostly causes, which own
#: nothing, so an agent's patient is made its own whenever its verb's owners say it owns it;
#: OdI's too (at 0.8 od_ii fell to 6.7 % once *seminare*'s doers sowed grain, which no one owns)
POSSESSIVE_RATE = {"causative": 1.0, "object_drop": 1.0}
#: the chance that a correct answer or I-Int whose agent and patient make a kind of doer (OdI,
#: :attr:`.Verb.specialists`: *il pescatore di trote*) or an owner and a thing (CausI,
#: :attr:`.Verb.owners`: *i piatti del cameriere*) names the other role so
SPECIALIST_RATE = 1.0
#: the chance that a matrix's answers draw their agent and patient from the pairs that name
#: each other (:func:`named_pairs`: CausI owners, *i piatti del
#: cameriere*; OdI kinds of doer, *i pescatori di trote*), so that the correct answer and I-Int
#: name both roles (:func:`.with_specialist`) as the other answers do. Drawn as the context's
#: words, CausI's answers named a recurring agent (*il vento*, *il bambino*) in every answer
#: but the correct one, and a bag of words over the answers alone learnt it. Below 1.0 some
#: answers name one role only (*lo scrittore di saggi* / *quella commedia*), which the design
#: rules out (tests/blm/test_blm_odi_paired_answers.py)
PAIRED_ANSWERS = {"causative": 1.0, "object_drop": 1.0}
#: the determiners of CausI/OdI noun phrases (possessives only by :func:`possessed`)
DETERMINER_FAMILIES = ("def", "def", "def", "indefinite", "dem", "that")
#: the determiners a ``definite`` noun never takes (*un'ombra*, *alcune ombre*, *quella
#: matematica*): it is spoken of as known
KNOWN_ONLY_REFUSES = ("indef", "some", "dem", "that")
#: the determiner family of a generic patient (*i vasi*; not *quei vasi*, *alcuni vasi*)
GENERIC_FAMILIES = ("def",)
#: causes whose "da" reads as a cause with a change of itself (*i muri si incrinavano dal
#: gelo*, *le piastrelle si staccano dall'umidità*, *lo specchio si appanna dal vapore*, *le
#: scarpe si logorano dall'uso*, *le camicie si scoloriscono dalla candeggina*, *la cantina
#: si allaga dal nubifragio*, *le foglie si accartocciano dalla siccità*, *le macchine si
#: ammaccano dalla grandine*): no E-WrBy answer has them, so every CausI item verb keeps an
#: answer agent outside them
CAUSAL_DA = frozenset(
    {"gelo", "calore", "umidità", "fumo", "rumore", "tuono", "vapore"}
    | {"uso", "candeggina", "nubifragio", "siccità", "grandine"}
)
#: the chance that a context sentence's agent or patient whose noun has lasting modifiers
#: (:attr:`.Noun.modifiers`: *il vecchio portiere*, *il vaso di vetro*) takes one: the
#: release's noun phrases carry adjectives and "di" phrases often; one rate for every role and
#: every item, and none on the answers, so that the context-blind baseline (a bag of words
#: over each answer alone) learns nothing from them. 1.0 since issue 40's last round (0.9
#: before): od_ii's contexts hold 351-353 distinct words and 278-279 lemmas per 100 sentences
#: on seeds 0-3 (347 / 274 at 0.9 on seed 0), caus_iii's 406-413 / 315-321 (the release:
#: 332-339 / 269-275 and 374 / 308, in issue 40's measure: :data:`.LEMMA_OFFSET`)
MODIFIER_RATE = 1.0
#: the modifiers that make a person or thing old: nothing old does a thing for the first time
AGE_ADJECTIVES = frozenset({"vecchio", "anziano", "antico"})
#: the determiners of a phrase that may name its place or owner (*il portiere dell'albergo*,
#: *quel gatto del vicino*)
PLACED_DETERMINERS = ("def", "dem", "that")


@dataclass(frozen=True)
class AlternationWords:
    agent: NounPhrase
    patient: NounPhrase
    other_phrase: str
    da_phrase: str
    frame: str
    #: the "di" phrase after the subject that names the other role (*i pescatori di trote*,
    #: *i piatti del cameriere*), or ""
    specialist: str = ""
    #: the phrase after a CausI si verb that names the other role as the cause (*i rami si
    #: piegano per il vento*; I-Int *il vento si piega per i rami*), or ""
    cause: str = ""


def alternation_sentence(
    lexicon: Lexicon,
    alternation: str,
    verb: Verb,
    words: AlternationWords,
    template: tuple[str, ...],
) -> Sentence:
    """The sentence of ``words`` in ``template`` for ``verb`` of ``alternation``."""
    roles = {"Ag": words.agent, "Pat": words.patient}
    subject = roles[template[0]]
    voice = {
        "Akt": "active",
        "Pass": "passive",
        "Intr": "si" if alternation == "causative" else "active",
    }[template[1]]
    of = f" {words.specialist}" if words.specialist else ""
    frame = words.frame
    if voice == "si" and words.da_phrase == ALONE and "da-NP" in template:
        frame = "perfect"  # a thing that changed by itself: *si è rotto da solo*
    chunks = [
        Chunk(template[0], subject.text() + of),
        Chunk(
            template[1],
            verb_group(lexicon, verb, frame, voice, subject.number, subject.gender),
        ),
    ]
    if words.cause:  # P-Ag: the agent named as the cause; P-Pat: I-Int's patient so named
        chunks.append(Chunk("P-Ag" if template[0] == "Pat" else "P-Pat", words.cause))
    for tag in template[2:]:
        if tag in roles:
            chunks.append(Chunk(tag, roles[tag].text()))
        elif tag == "P-NP":
            chunks.append(Chunk(tag, words.other_phrase))
        elif tag == "da-NP" and words.da_phrase == ALONE:
            alone = adjective_form("solo", subject.gender, subject.number)
            chunks.append(Chunk(tag, f"da {alone}"))
        elif tag == "da-NP":
            chunks.append(Chunk(tag, words.da_phrase))
        else:  # da-Ag, da-Pat
            chunks.append(Chunk(tag, roles[tag[3:]].text("da")))
    text = " ".join(c.text for c in chunks)
    return Sentence(" ".join(c.tag for c in chunks), tuple(chunks), text, verb.lemma)


def with_modifiers(
    words: AlternationWords, rng: random.Random, verb: Verb | None = None
) -> AlternationWords:
    """Context ``words`` whose agent and patient each take, at :data:`MODIFIER_RATE`, one of
    their noun's lasting modifiers (a cause has none), the patient none ``verb``, if given, refuses
    (:attr:`.Verb.patient_refuses`: not *le vecchie melodie venivano composte*, *i cucchiai
    di legno sono stati piegati*) nor the agent's own. Drawn by a generator seeded with
    ``rng``'s state, not from ``rng``: every other word, and every answer, is drawn as it would
    be without modifiers."""
    own = random.Random(hash(rng.getstate()[1]))  # a tuple of ints: the same hash every run
    agent = _modified(words.agent, words.patient, own)
    refused = verb.patient_refuses if verb else ()
    if agent.modifier is not None:  # not *della scuola* twice in one sentence
        refused = (*refused, modifier_word(agent.modifier))
    return replace(words, agent=agent, patient=_modified(words.patient, agent, own, refused))


def without_modifiers(words: AlternationWords) -> AlternationWords:
    """``words`` with no modifier on the agent or patient."""
    return replace(
        words,
        agent=replace(words.agent, modifier=None),
        patient=replace(words.patient, modifier=None),
    )


def modifier_word(modifier: NounModifier) -> str:
    """The lemma that names ``modifier``: its adjective's, or its "di" phrase's noun's
    (*legno* of *di legno*, *cucina* of *della cucina*)."""
    return modifier.adjective.lemma if modifier.adjective else modifier.noun


def aged(phrase: NounPhrase) -> bool:
    """Whether ``phrase`` is old (*il vecchio maestro*): no first time for it (not *questo
    vecchio maestro insegna per la prima volta*)."""
    return phrase.modifier is not None and modifier_word(phrase.modifier) in AGE_ADJECTIVES


def _modified(
    phrase: NounPhrase, other: NounPhrase, rng: random.Random, refused: tuple[str, ...] = ()
) -> NounPhrase:
    # drawn whatever the phrase: the rng moves alike for every noun
    draw, choice = rng.random(), rng.random()
    # a place or owner (*della cucina*, *del vicino*) only of one known thing not owned: not
    # *i motori del trattore*, *molti francobolli della lettera*, *la sua vasca del bagno*,
    # *un forno del ristorante*
    one_of_its_own = phrase.number == "sg" and phrase.determiner in PLACED_DETERMINERS
    # nor the other role's noun (not *il nonno annaffia l'orto del nonno*)
    modifiers = [
        m
        for m in phrase.noun.modifiers
        if (one_of_its_own or not m.definite)
        and m.noun != other.noun.lemma
        and modifier_word(m) not in refused
    ]
    if not modifiers or phrase.noun.cause_kind is not None or draw >= MODIFIER_RATE:
        return phrase
    return replace(phrase, modifier=modifiers[int(choice * len(modifiers))])


def possessed(
    words: AlternationWords,
    template: tuple[str, ...],
    verb: Verb,
    iterated: bool,
    rng: random.Random,
) -> AlternationWords:
    """``words`` whose patient is the subject's own (*la pittrice disegna i suoi ritratti*, *i
    pittori disegnano i loro ritratti*), at ``verb``'s :data:`POSSESSIVE_RATE`, where a person
    acts on it (``Ag Akt Pat``) and the patient is no generic one of a mishap ``iterated``
    over a span (*i camerieri rovesciano molti bicchieri da una settimana*; a habit or a wear
    may be on one's own, *il ragazzo deforma le sue scarpe da anni*), and no mass or animal
    but one the verb's owners name (not *i suoi pesci*; *la cuoca scalda la sua minestra*, *la
    madre sveglia il suo bambino*). A CausI agent, or an animal, owns only what the verb says
    it owns (:attr:`.Verb.owners`: *il cane sfilaccia la sua corda*, not *i gatti smagliarono
    le loro calze*, *la bambina ha appannato le sue finestre*), and several owners own several
    things (*i cuochi cuociono le loro patate*, not *la loro patata*), but one mass (*i cuochi
    scaldano la loro minestra*)."""
    agent, patient = words.agent.noun, words.patient.noun
    listed = patient.lemma in verb.owners.get(agent.lemma, ())
    # what one paints or cooks is one's own, not what one corrects
    doer_owns = verb.alternation == "object_drop" and not verb.others_things and agent.person
    owns = listed or doer_owns
    if (
        template[:3] != ("Ag", "Akt", "Pat")
        or not owns
        or (iterated and verb.mishap)
        or patient.definite
        or ((patient.mass or patient.animacy == "animate") and not listed)
        or rng.random() >= POSSESSIVE_RATE[verb.alternation]
    ):
        return words
    several = words.agent.number == "pl"
    number = "pl" if several and not patient.mass else words.patient.number
    determiner = "poss_pl" if several else "poss"
    modifier = words.patient.modifier
    if modifier is not None and (modifier.definite or number == "pl"):
        modifier = None  # not *i loro asciugamani del bagno*; a place is of one thing
    owned = replace(words.patient, number=number, determiner=determiner, modifier=modifier)
    return replace(words, patient=owned)


def with_specialist(
    lexicon: Lexicon,
    verb: Verb,
    words: AlternationWords,
    template: tuple[str, ...],
    rng: random.Random,
) -> AlternationWords:
    """A one-argument answer's words naming the other role after the subject, at
    :data:`SPECIALIST_RATE`, so that the answer names both roles as the other answers do. OdI,
    where the agent and patient make a kind of doer (:attr:`.Verb.specialists`): the correct
    answer's agent by the patient (*i pescatori di trote*), I-Int's patient by the agent (*le
    trote di pescatori*), as a bare noun (plural, or the mass noun and its singular doer: *lo
    studente di storia*, *la storia di studente*).
    CausI, where the agent owns the patient (:attr:`.Verb.owners`): the correct answer's
    patient by its owner (*i piatti del cameriere*), I-Int's agent by the patient (*il
    cameriere dei piatti*), as the other noun phrase after "di"."""
    agent, patient = words.agent.noun, words.patient.noun
    pairs = named_pairs(verb)
    if patient.lemma not in pairs.get(agent.lemma, ()) or rng.random() >= SPECIALIST_RATE:
        return words
    if verb.alternation == "causative":
        other = words.agent if template[0] == "Pat" else words.patient
        if template[0] == "Pat" and words.patient.number in other.noun.numbers:
            # the owner in the thing's number (*i piatti dei camerieri*), as I-Int's owner
            # takes its things' (*i camerieri dei piatti*): "del" told the correct answer
            other = replace(other, number=words.patient.number)
        # with the definite article, as one names an owner (*i piatti del cameriere*, not *di
        # un cameriere*) and in both answers alike: a bare "di" was the correct answer's
        return replace(words, specialist=replace(other, determiner="def").text("di"))
    other = patient if template[0] == "Ag" else agent
    # I-Int's doer in its number: a mass noun's singular doer as a bare singular (*il grano di
    # mietitore*), so that its words are the correct answer's (*il mietitore di grano*)
    single = other.mass or (template[0] == "Pat" and words.agent.number == "sg")
    return replace(words, specialist="di " + (other.lemma if single else other.plural))


def with_cause(
    lexicon: Lexicon,
    verb: Verb,
    words: AlternationWords,
    template: tuple[str, ...],
    span: str | None = None,
) -> AlternationWords:
    """CausI one-argument answer ``words`` whose agent is a cause, naming the other role after
    the verb with the cause's preposition (:attr:`.Noun.cause_preposition`): the correct
    answer's cause (*i rami si piegano per il vento*, *la neve si scioglie al sole*), I-Int's
    patient (*il vento si piega per i rami*, *il sole si scioglie alla neve*), so that both
    name both roles as the other answers do (an owner, :func:`with_specialist`, is never a
    cause, so no answer names both); not with *da solo*, which says there was no
    cause, nor beside a span the cause does not act over (an ``event`` acts over none, *il
    terremoto*: not *si incrinano per il terremoto dal mese scorso*; the frost over weeks: not
    *si induriva per il gelo da cinque minuti*). Other words unchanged."""
    cause = words.agent.noun
    if verb.alternation != "causative" or cause.cause_kind is None or words.da_phrase == ALONE:
        return words
    if span not in lexicon.cause_kinds[cause.cause_kind].spans:
        return words  # *il cemento si induriva per il gelo da cinque minuti*
    # the cause one (*per il vento*, not *per i venti*); I-Int's patient in its number
    other = replace(words.agent, number="sg") if template[0] == "Pat" else words.patient
    phrase = replace(other, determiner="def").text(cause.cause_preposition)
    return replace(words, cause=phrase)


def fits_slot(noun: Noun, phrase: NounPhrase, slot: str) -> bool:
    """Whether ``noun`` can take the place of ``phrase``'s noun in ``slot`` (agent, patient)
    with its number and determiner."""
    # a cause is singular with the definite article (il vento): it replaces only a cause,
    # and any noun can take its place (il portiere)
    if slot == "agent" and noun.cause_kind is not None and phrase.noun.cause_kind is None:
        return False
    if noun.definite and phrase.determiner in KNOWN_ONLY_REFUSES:  # *un'ombra*, *quella matematica*
        return False
    return phrase.number in noun.numbers and not (noun.mass and phrase.determiner == "indef")


def matched_agent(words: AlternationWords, model: NounPhrase, subject: bool) -> AlternationWords:
    """CausI answer ``words`` whose agent takes the number of ``model`` (its patient, the
    correct answer's subject) where its noun has that number: a cause in every answer (*i
    venti piegano i rami*, *le piogge bagnano i giornali*; :attr:`.Noun.numbers` keeps *il
    sole* singular), a person only as I-Int's ``subject``; that subject also takes the
    determiner where it fits (:func:`fits_slot`; a cause only a definite or demonstrative
    one). Drawn as the other nouns, with every cause singular, I-Int's subject was singular
    twice as often as the correct answer's, and the verb's number, *da solo* / *da soli* and
    the articles told the two one-argument answers apart."""
    agent = words.agent
    cause = agent.noun.cause_kind is not None
    if (not subject and not cause) or model.number not in agent.noun.numbers:
        return words
    determiner = model.determiner
    if cause and not (subject and model.determiner in ("def", "dem", "that")):
        determiner = "def"  # *quel vento si rompe*, but no *un vento*, *il suo vento*
    matched = replace(agent, number=model.number, determiner=determiner)
    if not cause and not fits_slot(agent.noun, matched, "patient"):
        return words
    return replace(words, agent=matched)


def matched_subject(alternation: str, words: AlternationWords, subject: bool) -> AlternationWords:
    """Answer ``words`` whose subject takes the number of the correct answer's: CausI by
    :func:`matched_agent`; OdI's I-Int (``subject``) by its patient taking the agent's number
    and, where it fits (:func:`fits_slot`), its determiner (else the definite article). Drawn
    apart, I-Int's subject was plural in 80 % of the ``od_ii`` items and the correct answer's in
    55 %, so the articles told the two apart (*il custode spazza*, *i cortili spazzano*). A
    singular I-Int is as wrong as a plural one: :attr:`.Verb.plural_patients` is for the
    sentences that name a patient with a temporal "da" (*lava i piatti da un'ora*)."""
    if alternation == "causative":
        return matched_agent(words, words.patient, subject)
    model, patient = words.agent, words.patient
    if not subject or model.number not in patient.noun.numbers:
        return words
    matched = replace(patient, number=model.number, determiner=model.determiner)
    if not fits_slot(patient.noun, matched, "patient"):
        matched = replace(matched, determiner="def")
    return replace(words, patient=matched)


def named_pairs(verb: Verb):
    """The agents of ``verb`` with the patients they name and are named by in a one-argument
    answer (:func:`with_specialist`): OdI :attr:`.Verb.specialists`, CausI :attr:`.Verb.owners`."""
    return verb.specialists if verb.alternation == "object_drop" else verb.owners


def draw_noun_phrase(
    lexicon: Lexicon,
    lemmas,
    rng: random.Random,
    avoid: list[str],
    plural: bool = False,
    singular: bool = False,
    agent: bool = False,
    generic: bool = False,
    many: bool = False,
) -> NounPhrase:
    """A noun phrase of one of ``lemmas`` (not ``avoid``): a cause agent *il vento*, a
    ``generic`` one with the definite article, ``plural`` where the noun counts,
    ``singular`` else (an answer's patient of a cause, which is one, *il vento*, *il sole*:
    else the verb's number told I-Int's subject, the cause, apart); ``many``
    (the patient of a mishap iterated over weeks): *molti bicchieri*, since *le cameriere
    rovesciavano le bottiglie dalla settimana scorsa* reads as the same bottles for a week."""
    noun = lexicon.nouns[pick(rng, lemmas, avoid=avoid)]
    if agent and noun.cause_kind is not None:  # il vento, not *un vento*, *i suoi terremoti*
        return NounPhrase(noun, "sg", "def")
    if many and not noun.mass:
        return NounPhrase(noun, "pl", "many")
    number = "pl" if plural and not noun.mass else pick(rng, noun.numbers)
    if singular and not plural:
        number = "sg"
    families = GENERIC_FAMILIES if generic else DETERMINER_FAMILIES
    # a known thing only with the definite article (*l'ombra*), a mass noun with no indefinite
    families = [
        f
        for f in families
        if not (noun.definite and f != "def") and not (noun.mass and f == "indefinite")
    ]
    family = pick(rng, families)
    kind = ("indef" if number == "sg" else "some") if family == "indefinite" else family
    return NounPhrase(noun, number, kind)
