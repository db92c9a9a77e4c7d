"""The CausI verbs' wider choice of patients and agents (issue 40: a vocabulary at least as
varied as the BLM-It release's): each verb's new things, each paired only with the agents
that act on it (*il vento piega l'antenna*, not *il vento piega la forchetta*), owned where
a person owns it (*il guinzaglio del cane*), and drawn into the built contexts.
"""

from __future__ import annotations

import random
import re

from poetic_eval.blm import load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_templates import context_templates, frames_for

LEXICON = load_lexicon()
CAUSATIVE = AlternationGenerator(LEXICON, "causative")
#: per CausI verb, the patients issue 40's fourth round gave it
NEW_PATIENTS = {
    "asciugare": ("accappatoio", "federa", "costume", "bucato", "gonna", "calza"),
    "bagnare": ("quaderno", "lettera", "giacca", "cappello", "zaino", "telo"),
    "piegare": ("albero", "palo", "antenna", "cartello", "spiga", "ombrello", "forchetta", "tubo"),
    "gonfiare": ("gommone", "salvagente", "pneumatico", "tenda", "bandiera"),
    "sgonfiare": ("gommone", "salvagente", "pneumatico"),
    "rovesciare": ("caraffa", "ciotola", "cestino", "canoa", "lattina"),
    "appannare": ("finestrino", "parabrezza", "lente", "vetrina"),
    "sfilacciare": ("cuscino", "coperta", "divano", "poltrona", "sciarpa", "guinzaglio"),
    "indurire": ("terreno", "fango", "argilla", "stucco"),
    "scolorire": ("lenzuolo", "tenda", "sciarpa", "federa", "costume", "maglietta", "felpa"),
    "deformare": ("maglione", "cassetto", "mobile", "anta", "parquet", "finestra"),
    "logorare": ("guinzaglio", "poltrona", "coperta", "giacca", "pneumatico", "stivale"),
    "aggrovigliare": ("cavo", "lenza", "collana", "guinzaglio", "laccio"),
    "scucire": ("fodera", "cucitura", "orsacchiotto"),
    "annodare": ("cavo", "lenza", "laccio", "collana"),
    "smagliare": ("calzamaglia",),
    "spuntare": ("pennarello", "gessetto", "carboncino"),
    "infeltrire": ("berretto", "guanto"),
    "slabbrare": ("colletto", "maglietta", "felpa"),
    "bucare": ("pneumatico", "salvagente"),
    "spezzare": ("bastone", "matita"),
    "rompere": ("caraffa", "ciotola"),
    "strappare": ("lettera", "quaderno"),
    "sporcare": ("tappeto", "divano", "grembiule", "quaderno"),
}
#: the agents it gave some verbs, none of them read as reflexive in the si form
NEW_AGENTS = {
    "appannare": ("ragazzo", "ragazza"),
    "sfilacciare": ("uso",),
    "aggrovigliare": ("cane",),
    "scucire": ("cane", "ragazzo"),
    "smagliare": ("studentessa",),
    "spuntare": ("maestra", "pittrice"),
    "infeltrire": ("asciugatrice",),
}


def test_each_causative_verb_has_its_new_patients_and_item_verbs_at_least_five():
    for lemma, patients in NEW_PATIENTS.items():
        verb = LEXICON.verbs[lemma]
        assert verb.alternation == "causative", lemma
        assert set(patients) <= set(verb.patients), (lemma, set(patients) - set(verb.patients))
        for patient in patients:  # some agent acts on it
            assert any(verb.can_act_on(agent, patient) for agent in verb.agents), (lemma, patient)
    for verb in CAUSATIVE.verbs:  # smagliare is of stockings and tights only
        assert len(verb.patients) >= (3 if verb.lemma == "smagliare" else 5), verb.lemma
    for lemma, agents in NEW_AGENTS.items():
        verb = LEXICON.verbs[lemma]
        assert set(agents) <= set(verb.answer_agents()), lemma


def test_the_new_things_keep_each_filter():
    """Causes' things take no agentless passive (*la tenda veniva gonfiata*); one person handles
    a small one (not *i ragazzi infeltrivano il berretto*); no leather frays nor felts; owners
    own their things (*il guinzaglio del cane*, *il gessetto della maestra*); no dog punctures
    a dinghy or a float, no single sock or glove of one's own (*la sua calza*)."""
    verbs = LEXICON.verbs
    assert {"tenda", "bandiera"} <= set(verbs["gonfiare"].cause_patients)
    assert {"spiga", "albero"} <= set(verbs["piegare"].cause_patients)
    assert {"fango", "terreno"} <= set(verbs["indurire"].cause_patients)
    assert {"anta", "parquet", "cassetto"} <= set(verbs["deformare"].cause_patients)
    assert {"berretto", "guanto"} <= set(verbs["infeltrire"].small_patients)
    assert {"forchetta", "ombrello"} <= set(verbs["piegare"].small_patients)
    assert {"pelle", "cuoio"} <= set(verbs["sfilacciare"].patient_refuses)
    assert "pelle" in verbs["infeltrire"].patient_refuses
    assert "guinzaglio" in verbs["sfilacciare"].owners["cane"]
    assert "gessetto" in verbs["spuntare"].owners["maestra"]
    assert "ciotola" in verbs["rovesciare"].owners["cane"]
    assert not verbs["bucare"].can_act_on("cane", "salvagente")
    assert "canotto" not in verbs["bucare"].patients
    for verb in verbs.values():
        for things in verb.owners.values():
            assert not {"calza", "guanto"} & set(things) or verb.lemma in ("smagliare", "bagnare")
    for agent, things in verbs["piegare"].agent_patients.items():
        if LEXICON.nouns[agent].cause_kind is not None:
            assert not {"forchetta", "cucchiaio", "tubo"} & set(things), agent


def _patients_drawn(lemma: str, draws: int, rng: random.Random) -> set[str]:
    """The patients of ``draws`` type II matrices' contexts of ``lemma`` (an item verb) and of
    ``draws`` type III context sentences of it per context template it takes (where an item
    verb's answers keep the gender of its causes, *la pioggia* and *la giacca*, its other things
    come in these), drawn as the generator draws them."""
    verb = LEXICON.verbs[lemma]
    forms = {LEXICON.nouns[p].lemma: p for p in verb.patients}
    forms |= {LEXICON.nouns[p].plural: p for p in verb.patients}
    seen: set[str] = set()
    for template in context_templates("causative"):
        if CAUSATIVE.takes(verb, template):
            frames = frames_for(template, "causative")
            for _ in range(draws):
                words = CAUSATIVE.fresh_words(verb, rng, frames, templates=(template,))
                seen.add(words.patient.noun.lemma)
    if verb not in CAUSATIVE.verbs:
        return seen
    for _ in range(draws):
        for sentence in CAUSATIVE.matrix(verb, rng, "II").context:
            for chunk in sentence.chunks:
                if chunk.tag == "Pat":
                    words = re.findall(r"[\wàèéìòù]+", chunk.text)
                    seen |= {forms[w] for w in words if w in forms}
    return seen


def test_the_built_contexts_draw_the_new_patients():
    """Every verb's contexts name most of its new things: removed, or refused by a filter
    (agent_patients, a span, a frame), they would be missing."""
    rng = random.Random(40)
    for lemma, patients in NEW_PATIENTS.items():
        seen = _patients_drawn(lemma, 30, rng)
        missing = set(patients) - seen
        assert len(missing) <= len(patients) // 3, (lemma, sorted(missing))
