"""OdI type II answers draw an agent and a patient of one gender (:mod:`.alternation_answers`),
so a verb whose nouns are all of one gender on one side uses few nouns: each object-drop item
verb has same-gender answer pairs in both genders (mungere excepted: no male animal is milked)."""

from __future__ import annotations

import pytest

from poetic_eval.blm import load_lexicon

LEXICON = load_lexicon()
ONE_GENDER = {"mungere"}  # *la mucca*, *la capra*: its male agents take no patient of theirs


def _pairs(lemma: str, gender: str) -> list[tuple[str, str]]:
    verb = LEXICON.verbs[lemma]
    nouns = LEXICON.nouns
    return [
        (a, p)
        for a in verb.answer_agents()
        for p in verb.answer_patients()
        if nouns[a].gender == nouns[p].gender == gender and verb.can_act_on(a, p)
    ]


ITEM_VERBS = sorted(
    v.lemma
    for v in LEXICON.verbs.values()
    if v.alternation == "object_drop" and not v.context_only and v.lemma not in ONE_GENDER
)


@pytest.mark.parametrize("lemma", ITEM_VERBS)
def test_object_drop_answers_pair_in_both_genders(lemma):
    for gender in ("m", "f"):
        agents = {a for a, _ in _pairs(lemma, gender)}
        assert len(_pairs(lemma, gender)) >= 2 and agents, (lemma, gender)


def test_new_kinds_of_doer_pair_in_both_genders():
    """*le pescatrici di trote*, *le coltivatrici di carote*, *gli autori di inni*."""
    for lemma, agent, patient in [
        ("pescare", "pescatrice", "trota"),
        ("seminare", "coltivatrice", "carota"),
        ("comporre", "autore", "inno"),
        ("annaffiare", "coltivatrice", "ortensia"),
    ]:
        assert patient in LEXICON.verbs[lemma].specialists[agent]
