"""How a CausI/OdI matrix's answer words are kept from giving the correct answer away.

A bag of words over each answer alone (:mod:`.shortcut_baseline`) learns any form that only
the correct answer has. The correct answer and I-Int differ by their subject's role only, so
their words are drawn alike: an agent with a patient of its own gender (:func:`gender_matched`,
*la contadina ara* / *la terra ara*), in the number a mass patient allows
(:func:`in_number_of_mass`, *il contadino miete* / *il grano miete*), and a pair that names
each other stays a pair when one word of an answer changes (:func:`replacements`, no *gli
operai dei piatti* where the correct answer says *i piatti dei camerieri*).
"""

from __future__ import annotations

from dataclasses import replace

from .alternation_sentences import AlternationWords, fits_slot, named_pairs
from .alternation_templates import agentless_passive
from .lexicon import Lexicon, Verb
from .noun_phrases import NounPhrase

#: the noun class of machines (*il trattore*, *la lavastoviglie*), which do nothing *da soli*
MACHINE = "machine"


def gender_matched(lexicon: Lexicon, verb: Verb, agents: list[str], patients: list[str]):
    """The ``agents`` that act on some of ``patients`` of their own gender."""
    gender = {lemma: lexicon.nouns[lemma].gender for lemma in (*agents, *patients)}
    return [
        a for a in agents if any(gender[p] == gender[a] and verb.can_act_on(a, p) for p in patients)
    ]


def same_gender(lexicon: Lexicon, patients: list[str], agent: NounPhrase) -> list[str]:
    """The ``patients`` of ``agent``'s gender, or all when none is."""
    same = [p for p in patients if lexicon.nouns[p].gender == agent.noun.gender]
    return same or patients


def in_number_of_mass(alternation: str, agent: NounPhrase, patient: NounPhrase) -> NounPhrase:
    """OdI answers' ``agent`` in the singular where ``patient`` is a mass noun, which I-Int
    cannot make plural (*il contadino miete*, *il grano miete*): else the verb's number told
    the two apart."""
    if alternation != "object_drop" or not patient.noun.mass or agent.number == "sg":
        return agent
    determiner = "def" if agent.determiner == "some" else agent.determiner
    return replace(agent, number="sg", determiner=determiner)


def one_thing_alone(alternation: str, words: AlternationWords) -> AlternationWords:
    """CausI answer ``words`` with *da solo* whose patient is one thing, not *molti*/*molte*
    (drawn so for a mishap over days, :func:`.draw_noun_phrase`): *il vaso si è rotto da
    solo*, not *molti piatti si sono rotti da soli*."""
    patient = words.patient
    if alternation != "causative" or patient.determiner != "many":
        return words
    return replace(words, patient=replace(patient, number="sg", determiner="def"))


def replacements(
    lexicon: Lexicon,
    verb: Verb,
    words: AlternationWords,
    slot: str,
    for_answers: bool,
    template: tuple[str, ...] = (),
) -> list[str]:
    """The lemmas that can replace the agent or patient (``slot``) of ``words``; in a passive
    without agent any patient (*l'elastico viene allungato* in a matrix of *il sole* and
    *l'ombra*, whose cause patient takes no such passive: :attr:`.Verb.cause_patients`); in
    an answer whose agent and patient name each other, only one that keeps them a pair."""
    agent, patient = words.agent.noun.lemma, words.patient.noun.lemma
    agentless = agentless_passive(template)
    if slot == "agent":
        lemmas = verb.answer_agents() if for_answers else verb.agents
        fits = [a for a in lemmas if verb.can_act_on(a, patient)]
    else:
        lemmas = verb.answer_patients() if for_answers else verb.patients
        fits = [p for p in lemmas if agentless or verb.can_act_on(agent, p)]
    pairs = named_pairs(verb)
    if for_answers and patient in pairs.get(agent, ()):
        if slot == "agent":
            fits = [a for a in fits if patient in pairs.get(a, ())]
        else:
            fits = [p for p in fits if p in pairs[agent]]
    current = getattr(words, slot)
    singular_only = slot == "patient" and verb.plural_patients and current.number == "sg"
    fitting = [
        lemma
        for lemma in fits
        if lemma not in (agent, patient)
        and fits_slot(lexicon.nouns[lemma], current, slot)
        and not (singular_only and not lexicon.nouns[lemma].mass)
    ]
    if not for_answers:
        return fitting
    # an answer keeps the gender of the word it changes, as its agent and patient share one
    return [lemma for lemma in fitting if lexicon.nouns[lemma].gender == current.noun.gender]
