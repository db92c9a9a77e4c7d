"""The OdI verbs' P-NPs of place and manner (issue 40: contexts as varied as BLM-It's, whose
P-NPs include *nel salone espositivo*, *con pochi mezzi economici*): 'setting' phrases (*in
cucina*, *con cura*, *a mano*) that each OdI verb takes only where they read well for every
doer and patient, never an instrument that is itself a doer (*il trattore ara*: no *arare con
il trattore*), and never in an answer.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.lexicon import Lexicon, Verb
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


def instrument_clashes(lexicon: Lexicon, verbs: list[Verb]) -> list[tuple[str, str]]:
    """(verb, phrase) where a verb's setting phrase names one of its own doers."""
    nouns = {spec.id: spec.noun for spec in lexicon.other_phrases if spec.setting}
    return [
        (verb.lemma, phrase)
        for verb in verbs
        for phrase in verb.p_phrases
        if phrase in nouns and nouns[phrase] in verb.agents
    ]


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


def test_no_setting_phrase_names_a_doer_of_its_verb():
    verbs = list(LEXICON.verbs.values())
    assert instrument_clashes(LEXICON, verbs) == []
    # the check bites: were *il telaio* a doer of tessere, *al telaio* would be refused
    tessere = LEXICON.verb("tessere")
    with_loom = replace(tessere, agents=(*tessere.agents, "telaio"))
    assert instrument_clashes(LEXICON, [with_loom]) == [("tessere", "at_loom")]


def test_setting_phrases_reach_contexts_but_no_answer():
    texts = {phrase_text(LEXICON, s) for s in LEXICON.other_phrases if s.setting}
    rows = od_ii()
    contexts = [s.split("\t", 1)[1] for row in rows for s in row["Context"]]
    answers = [a.split("\t", 1)[1] for row in rows for a in row["Answer_set"]]
    used = {t for t in texts for s in contexts if s.endswith(" " + t)}
    assert len(used) >= 15, sorted(used)
    assert not [a for a in answers for t in texts if a.endswith(" " + t)]
