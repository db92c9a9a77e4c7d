"""The OdI verbs' P-NPs of place and manner (issue 40: contexts as varied as BLM-It's, whose
P-NPs include *nel salone espositivo*, *con pochi mezzi economici*): 'setting' phrases (*in
cucina*, *con cura*, *a mano*) that each OdI verb takes only where they read well for every
doer and patient, never an instrument that is itself a doer (*il trattore ara*: no *arare con
il trattore*), and never in an answer.
"""

from __future__ import annotations

from functools import cache

import pytest
from lexicon_copies import edited_lexicon, edited_verb

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.lexicon import Lexicon, LexiconError
from poetic_eval.blm.generator.noun_phrases import phrase_text

LEXICON = load_lexicon()
SIZES = BlmSizes(items_per_verb=6, few_shot_verbs=1)
#: some of the setting phrases the OdI verbs take, with the text they render to
EXPECTED = {
    "in_kitchen": "in cucina",
    "in_study": "nello studio",
    "in_stable": "nella stalla",
    "by_hand": "a mano",
    "at_loom": "al telaio",
    "with_care": "con cura",
    "with_patience": "con pazienza",
    "in_silence": "in silenzio",
    "without_mercy": "senza pietà",
}
#: the OdI verbs whose doers include a machine or an animal, which take no setting phrase yet
NO_SETTING = {"arare", "mietere", "lavare", "pescare", "annaffiare"}


def setting_ids(lexicon: Lexicon) -> set[str]:
    return {spec.id for spec in lexicon.other_phrases if spec.setting}


@cache
def od_ii() -> list[dict]:
    return generate_config("od_ii", seed=3, sizes=SIZES)["test"]


def test_setting_phrases_exist_and_render():
    rendered = {spec.id: phrase_text(LEXICON, spec) for spec in LEXICON.other_phrases}
    assert setting_ids(LEXICON) >= set(EXPECTED)
    for phrase, text in EXPECTED.items():
        assert rendered[phrase] == text
    assert len(setting_ids(LEXICON)) >= 25


def test_odi_verbs_take_three_to_six_setting_phrases():
    settings = setting_ids(LEXICON)
    for verb in LEXICON.alternation_verbs("object_drop"):
        taken = set(verb.p_phrases) & settings
        if verb.lemma in NO_SETTING:
            continue
        if not verb.context_only:
            assert 3 <= len(taken) <= 6, (verb.lemma, taken)
        assert len(taken) <= 6, verb.lemma


def test_the_loader_refuses_a_setting_phrase_that_names_a_doer(tmp_path):
    """Were *il telaio* a doer of tessere, its *al telaio* would be refused (as *arare con il
    trattore* would, *il trattore* being a doer of arare): the bundled lexicon loads."""
    tessere = LEXICON.verb("tessere")
    assert "at_loom" in tessere.p_phrases
    folder = edited_verb(tmp_path, "tessere", agents=[*tessere.agents, "telaio"])
    with pytest.raises(LexiconError, match=r"'tessere': the P-NPs \['at_loom'\] name one"):
        load_lexicon(folder)


def test_setting_phrases_reach_contexts_but_no_answer():
    texts = {phrase_text(LEXICON, s) for s in LEXICON.other_phrases if s.setting}
    rows = od_ii()
    contexts = [s.split("\t", 1)[1] for row in rows for s in row["Context"]]
    answers = [a.split("\t", 1)[1] for row in rows for a in row["Answer_set"]]
    used = {t for t in texts for s in contexts if s.endswith(" " + t)}
    assert len(used) >= 15, sorted(used)
    assert not [a for a in answers for t in texts if a.endswith(" " + t)]


def test_a_symphony_is_composed_at_no_time_of_day():
    """*i concerti potranno essere composti nel pomeriggio* (the reading of seed 2946): works
    that take weeks are made in a study, with passion or method, not in an afternoon."""
    clock = {spec.id for spec in LEXICON.other_phrases if spec.clock}
    comporre = LEXICON.verbs["comporre"]
    assert comporre.p_phrases and not set(comporre.p_phrases) & clock


def test_the_loader_refuses_a_manner_that_is_a_feeling(tmp_path):
    """*con metodo* as a feeling would take neither *potere* nor *dovere*: no modal at all."""

    def as_feeling(raw: dict) -> None:
        entry = next(e for e in raw["other_phrases"] if e.get("id") == "with_method")
        entry["feeling"] = True

    folder = edited_lexicon(tmp_path, "alternation_phrases.json", as_feeling)
    with pytest.raises(LexiconError, match=r"'with_method': a manner is a setting and no feeling"):
        load_lexicon(folder)
