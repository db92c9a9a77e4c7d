"""The OdI verbs' wider vocabulary (issue 40: a vocabulary as varied as BLM-It's, with the
semantic filters extended per agent and patient): more kinds of doer (*il bidello*, *il
liutaio*, *il poliziotto*) and more natural patients (*le ortensie*, *i calamari*, *il
latino*) per item verb, each kept to the doers that act on it (agent_patients) and to the
filters that keep the distractors wrong.
"""

from __future__ import annotations

from functools import cache

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon

LEXICON = load_lexicon()
SIZES = BlmSizes(items_per_verb=6, few_shot_verbs=1)
#: per OdI verb, some of the doers and patients this change gave it
ADDED = {
    "arare": (("bue", "mezzadro"), ("vigna", "podere", "uliveto", "frutteto")),
    "cantare": (("cantante", "baritono", "corista"), ("serenata", "romanza", "stornello")),
    "multare": (("poliziotto", "carabiniere"), ("automobilista", "ciclista", "pedone")),
    "insegnare": (("docente",), ("musica", "fisica", "latino", "filosofia")),
    "pescare": (("gabbiano",), ("orata", "spigola", "acciuga", "polpo", "calamaro")),
    "pulire": (("bidello", "bidella", "inserviente"), ("camera", "cantina")),
    "accordare": (("liutaio", "violinista"), ("violoncello", "mandolino", "liuto")),
    "mungere": (("mungitore", "mandriano"), ("vacca", "asina")),
    "scolpire": (("scalpellino", "intagliatore"), ("capitello", "lapide", "statuetta")),
    "correggere": (("docente", "insegnante"), ("tema", "verifica", "dettato")),
}
#: the noun classes the AgrI templates use: a new OdI noun has none, so AgrI stays as it was
AGREEMENT_CLASSES = {"person", "animal", "kin_anchor", "relative", "owner", "employer", "small"}


@cache
def od_ii() -> list[dict]:
    return generate_config("od_ii", seed=3, sizes=SIZES)["test"]


def test_item_verbs_have_many_doers_and_patients():
    for lemma, (agents, patients) in ADDED.items():
        verb = LEXICON.verb(lemma)
        assert set(agents) <= set(verb.agents), lemma
        assert set(patients) <= set(verb.patients), lemma
        assert len(verb.agents) >= 5 and len(verb.patients) >= 5, lemma
        for patient in patients:  # every new patient has a doer that acts on it
            assert any(verb.can_act_on(agent, patient) for agent in verb.answer_agents())


def test_no_patient_could_do_it_to_its_doer():
    """ER-pass and IR-trans stay wrong: no patient of a verb is also a doer of it (*i
    pescatori venivano pescati dai gabbiani*), and the new animal patients are no doer."""
    for verb in LEXICON.alternation_verbs("object_drop"):
        assert not set(verb.agents) & set(verb.patients), verb.lemma


def test_new_doers_act_only_on_their_things():
    pairs = {
        ("riparare", "orologiaio"): {"orologio"},
        ("lucidare", "calzolaio"): {"scarpa", "stivale"},
        ("addestrare", "sergente"): {"recluta"},
        ("annaffiare", "fioraio"): {"pianta", "fiore", "rosa", "geranio", "ortensia"},
    }
    for (lemma, agent), allowed in pairs.items():
        verb = LEXICON.verb(lemma)
        assert {p for p in verb.patients if verb.can_act_on(agent, p)} == allowed, lemma


def test_new_nouns_stay_out_of_agreement():
    new = ("bue", "mezzadro", "vigna", "cantante", "poliziotto", "automobilista", "docente")
    new += ("musica", "gabbiano", "calamaro", "bidello", "liutaio", "vacca", "capitello")
    for lemma in new:
        assert not AGREEMENT_CLASSES & set(LEXICON.nouns[lemma].classes), lemma


def test_new_nouns_reach_the_built_items():
    words = {w for row in od_ii() for s in row["Context"] for w in s.lower().split()}
    new = {LEXICON.nouns[n].plural for _, (a, p) in ADDED.items() for n in (*a, *p)}
    new |= {n for _, (a, p) in ADDED.items() for n in (*a, *p)}
    assert len(words & new) >= 15, sorted(words & new)
