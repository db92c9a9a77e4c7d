"""What the two readings of sample seed 9875 (commit ac61031) found odd, taken out: marble
tables painted (*gli anziani operai verniciano quei tavoli di marmo*, both readers), and
electricians switching lights on or off as a habit for a month (*gli elettricisti spegnevano
le luci da due settimane*): a routine verb's habit is a caretaker's or a waiter's. Each test
fails if its rule (in verbs.json) is taken out."""

from __future__ import annotations

from poetic_eval.blm import load_lexicon

LEXICON = load_lexicon()


def test_nothing_of_marble_is_painted():
    assert "marmo" in LEXICON.verb("verniciare").patient_refuses


def test_no_electrician_makes_a_habit_of_the_lights():
    for lemma in ("accendere", "spegnere"):
        habitual = LEXICON.verb(lemma).habitual_agents
        assert "elettricista" not in habitual and "custode" in habitual, lemma
