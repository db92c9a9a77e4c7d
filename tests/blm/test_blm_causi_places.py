"""CausI P-NPs of place (issue 40): the BLM-It release's contexts name places (*nel salone
espositivo*), so the CausI verbs take, beside times of day, the places where the change happens
(*il burro si è scongelato in cucina*, *il cane ha bucato il pallone in giardino*); a place never
names one of the verb's agents (not *in lavatrice* where la lavatrice scolorisce: the loader
refuses it, test_blm_odi_setting_phrases)."""

from __future__ import annotations

import re

from poetic_eval.blm import generate_config, load_lexicon
from poetic_eval.blm.generator.noun_phrases import phrase_text

LEXICON = load_lexicon()
SETTINGS = {spec.id: spec for spec in LEXICON.other_phrases if spec.setting}
#: the places this round gave the CausI verbs
PLACES = {
    "in_kitchen",
    "in_garden",
    "in_courtyard",
    "in_living_room",
    "in_laundry",
    "on_balcony",
    "on_terrace",
    "at_sea",
    "on_beach",
    "at_port",
    "on_boat",
}


def _causative_verbs():
    return LEXICON.alternation_verbs("causative")


def test_the_places_are_settings_that_item_verbs_take():
    assert PLACES <= set(SETTINGS)
    items = [v for v in _causative_verbs() if not (v.routine or v.context_only)]
    placed = [v.lemma for v in items if PLACES.intersection(v.p_phrases)]
    assert len(placed) >= 8, placed


def test_places_reach_the_contexts_but_no_foreseen_change_of_itself():
    texts = [phrase_text(LEXICON, SETTINGS[name]) for name in PLACES]
    pattern = re.compile(r"\b(" + "|".join(texts) + r")$")
    found = 0
    for row in generate_config("caus_iii", seed=0)["test"]:
        for sentence in row["Context"]:
            if pattern.search(sentence.strip().rstrip(".")):
                found += 1
                # *i palloni dovrebbero sgonfiarsi in giardino*: a place foresees nothing
                assert not re.search(r"\b(potrebbe|dovrebbe)(ro)? \w+(si|rsi)\b", sentence)
    assert found > 0
