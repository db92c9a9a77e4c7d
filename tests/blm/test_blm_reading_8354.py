"""What the two readings of sample seed 8354 (commit f8371c9) found odd, taken out: a
washing machine felting blankets *after* the wash (*la lavatrice ha infeltrito molte coperte
rosse dopo il lavaggio*), and a student owning several cars (*la studentessa straniera può
guidare le sue macchine*). Each test fails if its rule (in verbs.json) is taken out."""

from __future__ import annotations

from poetic_eval.blm import load_lexicon

LEXICON = load_lexicon()


def test_felting_happens_in_the_wash_not_after_it():
    assert "after_wash" not in LEXICON.verb("infeltrire").p_phrases
    assert "first_wash" in LEXICON.verb("infeltrire").p_phrases


def test_a_driver_drives_vehicles_that_are_not_his_own():
    assert LEXICON.verb("guidare").others_things
