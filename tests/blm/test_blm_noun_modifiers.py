"""The lasting modifiers of CausI/OdI noun phrases (``noun_modifiers.json``): how they agree,
elide and are drawn, where they never go, and what the lexicon refuses."""

from __future__ import annotations

import random
from functools import cache

import pytest
from lexicon_copies import edited_lexicon

from poetic_eval.blm import BlmSizes, generate_config
from poetic_eval.blm.generator import alternation_sentences
from poetic_eval.blm.generator.alternation_sentences import (
    MODIFIER_RATE,
    AlternationWords,
    modifier_word,
    possessed,
    with_modifiers,
)
from poetic_eval.blm.generator.lexicon import LexiconError, NounModifier
from poetic_eval.blm.generator.lexicon_loading import load_lexicon
from poetic_eval.blm.generator.noun_phrases import NounPhrase

LEXICON = load_lexicon()
NOUNS, ADJECTIVES = LEXICON.nouns, LEXICON.adjectives
SIZES = BlmSizes(items_per_verb=3, few_shot_verbs=2)


def phrase(lemma, number="sg", determiner="def", modifier=None, preposition=None) -> str:
    return NounPhrase(NOUNS[lemma], number, determiner, modifier=modifier).text(preposition)


def adjective(lemma: str, before: bool = False) -> NounModifier:
    return NounModifier(ADJECTIVES[lemma], before=before)


def of(lemma: str) -> NounModifier:
    """The noun's own "di" modifier naming ``lemma`` (della cucina, di vetro)."""
    return next(m for m in NOUNS_WITH_TAILS[lemma])


NOUNS_WITH_TAILS = {
    "vetro": [m for m in NOUNS["vaso"].modifiers if m.tail == "di vetro"],
    "cucina": [m for m in NOUNS["finestra"].modifiers if m.tail == "della cucina"],
    "mele": [m for m in NOUNS["torta"].modifiers if m.tail == "di mele"],
    "albergo": [m for m in NOUNS["portiere"].modifiers if m.tail == "dell'albergo"],
}


@pytest.mark.parametrize(
    ("lemma", "number", "determiner", "modifier", "preposition", "expected"),
    [
        ("vaso", "sg", "def", adjective("antico", True), None, "l'antico vaso"),
        ("vaso", "pl", "def", adjective("antico", True), None, "gli antichi vasi"),
        ("custode", "sg", "that", adjective("anziano", True), None, "quell'anziano custode"),
        ("custode", "pl", "that", adjective("anziano", True), None, "quegli anziani custodi"),
        # the adjective, not the noun, chooses the article: *lo specchio*, *il vecchio specchio*
        ("specchio", "sg", "def", adjective("vecchio", True), None, "il vecchio specchio"),
        ("specchio", "sg", "indef", adjective("vecchio", True), None, "un vecchio specchio"),
        ("specchio", "pl", "def", adjective("vecchio", True), "da", "dai vecchi specchi"),
        ("cameriera", "sg", "indef", adjective("anziano", True), None, "un'anziana cameriera"),
        ("chef", "sg", "def", adjective("francese"), None, "lo chef francese"),
        ("lenzuolo", "pl", "def", adjective("bianco"), None, "le lenzuola bianche"),
        ("maglione", "pl", "dem", adjective("grigio"), None, "questi maglioni grigi"),
        ("birra", "pl", "def", adjective("tedesco"), None, "le birre tedesche"),
        ("vaso", "pl", "some", of("vetro"), None, "alcuni vasi di vetro"),
        ("finestra", "sg", "def", of("cucina"), "da", "dalla finestra della cucina"),
        ("torta", "sg", "poss", of("mele"), None, "la sua torta di mele"),
        ("portiere", "sg", "def", of("albergo"), None, "il portiere dell'albergo"),
    ],
)
def test_a_modifier_agrees_elides_and_chooses_the_article(
    lemma, number, determiner, modifier, preposition, expected
):
    assert phrase(lemma, number, determiner, modifier, preposition) == expected


def test_a_replaced_noun_keeps_only_a_modifier_it_has_too():
    glass = NounPhrase(NOUNS["vaso"], "sg", modifier=of("vetro"))
    assert glass.with_noun(NOUNS["bottiglia"]).text() == "la bottiglia di vetro"
    assert glass.with_noun(NOUNS["tazza"]).text() == "la tazza"  # no *la tazza di vetro*
    chinese = NounPhrase(NOUNS["vaso"], "pl", "dem", modifier=adjective("cinese"))
    assert chinese.with_noun(NOUNS["piatto"]) == NounPhrase(NOUNS["piatto"], "pl", "dem")


def words_of(agent: NounPhrase, patient: NounPhrase) -> AlternationWords:
    return AlternationWords(agent, patient, "nel pomeriggio", "da un'ora", "present")


def test_modifiers_are_drawn_at_the_rate_for_agent_and_patient_alike():
    words = words_of(NounPhrase(NOUNS["portiere"], "sg"), NounPhrase(NOUNS["cancello"], "sg"))
    rng = random.Random(3)
    drawn = []
    for _ in range(2000):
        rng.random()  # a new state per draw, as each sentence's words are drawn
        drawn.append(with_modifiers(words, rng))
    for role in ("agent", "patient"):
        share = sum(getattr(w, role).modifier is not None for w in drawn) / len(drawn)
        assert abs(share - MODIFIER_RATE) < 0.04, (role, share)
    # every modifier of the noun is drawn, and only those
    patients = {w.patient.modifier for w in drawn} - {None}
    assert patients == set(NOUNS["cancello"].modifiers)


def test_with_modifiers_draws_nothing_from_the_generator_it_is_given():
    rng = random.Random(7)
    state = rng.getstate()
    words = words_of(NounPhrase(NOUNS["portiere"], "sg"), NounPhrase(NOUNS["cancello"], "sg"))
    with_modifiers(words, rng)
    assert rng.getstate() == state


def test_no_place_on_several_things_or_an_owned_one():
    rng = random.Random(5)
    keeper = NounPhrase(NOUNS["custode"], "sg")
    places = []
    for windows in (
        NounPhrase(NOUNS["finestra"], "pl"),
        NounPhrase(NOUNS["finestra"], "sg", "indef"),
    ):
        for _ in range(300):
            rng.random()
            words = with_modifiers(words_of(keeper, windows), rng)
            places.append(words.patient.modifier is not None and words.patient.modifier.definite)
    assert not any(places)  # not *le finestre della cucina*, *una finestra della cucina*
    # a possessive drops a place (*la sua vasca del bagno*), keeps a material
    bath = NounPhrase(NOUNS["vasca"], "sg", modifier=NOUNS["vasca"].modifiers[0])
    assert bath.modifier.definite
    template = ("Ag", "Akt", "Pat", "P-NP")
    owned = possessed(words_of(keeper, bath), template, LEXICON.verb("svuotare"), False, rng)
    assert owned.patient.determiner == "poss" and owned.patient.modifier is None


@cache
def built(config: str) -> dict:
    return generate_config(config, seed=3, sizes=SIZES)


def _without_modifier(noun, number: str, text: str) -> tuple[list[str], bool]:
    """The words of ``text`` without the one modifier of ``noun`` (in ``number``) it has, and
    whether it had one."""
    words = text.replace("'", "' ").split()
    for modifier in noun.modifiers:
        if modifier.adjective is not None:
            form = modifier.adjective.form(noun.gender_in(number), number)
            if form in words and form != noun.form(number):
                return [w for w in words if w != form], True
        elif text.endswith(" " + modifier.tail):
            return text[: -len(modifier.tail) - 1].replace("'", "' ").split(), True
    return words, False


def test_built_contexts_carry_fitting_modifiers_at_the_rate_and_answers_none():
    heads: dict[str, list] = {}  # form -> readings (*cameriere*: one waiter, waitresses)
    for noun in NOUNS.values():
        for number in noun.numbers:
            heads.setdefault(noun.form(number), []).append((noun, number))
    counts = {"Ag": [0, 0], "Pat": [0, 0]}  # role: [phrases of a modifiable noun, modified]
    configs = ("caus_ii", "caus_iii", "od_ii", "od_iii")
    for split in (split for config in configs for split in built(config).values()):
        for row in split:
            for annotation in row["Context_annotation"]:
                for chunk in annotation["chunks"]:
                    role = chunk["tag"].removeprefix("da-")
                    if role not in counts:
                        continue
                    words = chunk["text"].replace("'", "' ").split()
                    readings = heads[next(w for w in words if w in heads)]
                    # without its own modifier, the phrase is bare: no other one, none of
                    # another noun (*la tazza di vetro*), none on a cause (*il vento*)
                    fitting = [
                        (noun, modified)
                        for noun, number in readings
                        for rest, modified in [_without_modifier(noun, number, chunk["text"])]
                        if rest[-1] == noun.form(number)
                        and not (set(rest) - set(heads)) & MODIFIER_ADJECTIVES
                    ]
                    assert fitting, chunk["text"]
                    noun, modified = fitting[0]
                    if noun.modifiers and noun.cause_kind is None:
                        counts[role][0] += 1
                        counts[role][1] += modified
            for annotation in row["Answer_set_annotation"]:
                for chunk in annotation["chunks"]:
                    words = chunk["text"].replace("'", "' ").split()
                    assert not (set(words) - set(heads)) & MODIFIER_ADJECTIVES, chunk["text"]
    for role, (total, modified) in counts.items():
        assert total > 200, role
        # the rate, less the places a plural or owned phrase cannot take (every OdI sentence
        # that may own its patient does, and a plural owned one drops its modifier: patients
        # 0.445 on this build) and type II's replaced nouns that lack the matrix's modifier
        assert MODIFIER_RATE - 0.2 < modified / total <= MODIFIER_RATE + 0.08, (role, counts)


#: every form of the modifiers' adjectives
MODIFIER_ADJECTIVES = {
    m.adjective.form(g, k)
    for n in NOUNS.values()
    for m in n.modifiers
    if m.adjective is not None
    for g in "mf"
    for k in ("sg", "pl")
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m["vaso"].append({"after": "cinesse"}), r"'vaso'.*adjective 'cinesse'.*cinese"),
        (lambda m: m["vaso"].append({"of": "vetrro"}), r"'vaso'.*noun 'vetrro'.*vetro"),
        (lambda m: m.update({"vasso": [{"of": "vetro"}]}), r"noun 'vasso'.*vaso"),
        (lambda m: m.update({"vento": [{"after": "freddo"}]}), r"'vento': a cause"),
        (lambda m: m["vaso"].append({"of": "legno", "number": "pl"}), r"'di legno' takes"),
        (lambda m: m["vaso"].append({"colour": "rosso"}), r"'vaso'.*needs one of"),
        (lambda m: m["pane"].append({"after": "rotto"}), r"'pane'.*'rotto' is no lasting"),
    ],
)
def test_lexicon_errors_name_the_modifier(tmp_path, change, message):
    folder = edited_lexicon(tmp_path, "noun_modifiers.json", lambda raw: change(raw["modifiers"]))
    with pytest.raises(LexiconError, match=message):
        load_lexicon(folder)


def test_no_modifier_names_the_other_role():
    # *il nonno annaffia l'orto del nonno*: the grandfather's garden only under another agent
    rng = random.Random(11)
    garden = NounPhrase(NOUNS["orto"], "sg")
    by_grandfather, by_gardener = [], []
    for _ in range(200):
        rng.random()
        grandfather = words_of(NounPhrase(NOUNS["nonno"], "sg"), garden)
        by_grandfather.append(with_modifiers(grandfather, rng).patient.text())
        gardener = words_of(NounPhrase(NOUNS["giardiniere"], "sg"), garden)
        by_gardener.append(with_modifiers(gardener, rng).patient.text())
    assert "l'orto del nonno" not in by_grandfather
    assert "l'orto del nonno" in by_gardener


@pytest.mark.parametrize("config", ["caus_ii", "od_iii"])
def test_modifiers_change_the_contexts_only(config, monkeypatch):
    # the items and their answers are those drawn without modifiers, so the context-blind
    # baseline (a bag of words over each answer alone) sees what it saw before them
    with_them = generate_config(config, seed=4, sizes=SIZES)
    monkeypatch.setattr(alternation_sentences, "MODIFIER_RATE", 0.0)
    without = generate_config(config, seed=4, sizes=SIZES)
    rows = with_them["train"] + with_them["test"]
    plain = without["train"] + without["test"]
    assert [r["Answer_set"] for r in rows] == [r["Answer_set"] for r in plain]
    changed = sum(r["Context"] != p["Context"] for r, p in zip(rows, plain))
    assert changed > len(rows) // 3, (changed, len(rows))


def test_a_possessive_only_of_what_its_owner_owns_and_several_things_for_several_owners():
    template = ("Ag", "Akt", "Pat", "P-NP")
    rng = random.Random(0)

    def owner_of(agent: str, number: str, patient: str, verb: str) -> str:
        words = words_of(NounPhrase(NOUNS[agent], number), NounPhrase(NOUNS[patient], "sg"))
        owned = possessed(words, template, LEXICON.verb(verb), False, rng).patient
        return f"{owned.determiner} {owned.number}"

    # CausI: the verb's owners say who owns what (not *la bambina appanna la sua finestra*)
    assert "finestra" not in LEXICON.verb("appannare").owners.get("bambina", ())
    assert owner_of("bambina", "sg", "finestra", "appannare") == "def sg"
    assert owner_of("custode", "sg", "vasca", "svuotare") == "poss sg"
    # an animal only what the verb gives it (not *i gatti smagliarono le loro calze*)
    assert owner_of("gatto", "sg", "calza", "smagliare") == "def sg"
    assert owner_of("cane", "sg", "corda", "sfilacciare") == "poss sg"
    assert owner_of("capra", "sg", "mela", "mangiare") == "def sg"  # not *la sua mela*
    # OdI: a person owns what they make (*la pittrice dipinge il suo quadro*)
    assert owner_of("pittrice", "sg", "quadro", "dipingere") == "poss sg"
    # several owners own several things (*i cuochi cuociono le loro torte*, not *la loro*)
    assert owner_of("custode", "pl", "vasca", "svuotare") == "poss_pl pl"


def test_a_modifier_is_named_by_its_lemma_whatever_its_form():
    """A verb's ``patient_refuses`` and the other role's noun are lemmas, so a "di" phrase is
    named by its noun's lemma, with an article (*della cucina*) or in the plural (*di mele*)."""
    assert [modifier_word(m) for m in NOUNS_WITH_TAILS["cucina"]] == ["cucina"]
    assert [modifier_word(m) for m in NOUNS_WITH_TAILS["mele"]] == ["mela"]
    assert [modifier_word(m) for m in NOUNS_WITH_TAILS["vetro"]] == ["vetro"]


#: every CausI/OdI agent and patient that may take a modifier (no cause)
ALTERNATION_NOUNS = sorted(
    {
        lemma
        for verb in LEXICON.verbs.values()
        if verb.alternation in ("causative", "object_drop")
        for lemma in (*verb.agents, *verb.patients)
        if NOUNS[lemma].cause_kind is None
    }
)
#: the colour adjectives: none on what a verb paints (*la porta rossa veniva verniciata*)
COLOURS = {"bianco", "nero", "rosso", "giallo", "verde", "blu", "azzurro", "grigio"} | {
    "marrone",
    "arancione",
    "viola",
    "dorato",
}


def test_most_alternation_nouns_have_several_lasting_modifiers():
    """Issue 40: a context vocabulary as varied as the release's. Many nouns have three or more
    modifiers (55 of 366 before the richer lists, 277 after; 296 of 573 once CausI and OdI had
    more patients and doers, most of them new without modifiers), of about 285 distinct words
    (97 before): origins, ages and workplaces of people, colours, materials, sizes and places
    of things."""
    counts = [len(NOUNS[lemma].modifiers) for lemma in ALTERNATION_NOUNS]
    assert sum(count >= 3 for count in counts) >= 290, sorted(counts)
    words = {modifier_word(m) for lemma in ALTERNATION_NOUNS for m in NOUNS[lemma].modifiers}
    assert len(words) >= 250, len(words)


def test_no_colour_on_what_a_verb_paints():
    for lemma in ("dipingere", "verniciare"):
        for patient in LEXICON.verbs[lemma].patients:
            colours = {modifier_word(m) for m in NOUNS[patient].modifiers} & COLOURS
            assert not colours, (lemma, patient, colours)


def test_the_patient_never_repeats_the_agents_modifier():
    """Not *il custode della scuola pulisce il corridoio della scuola*; either alone is drawn."""
    words = words_of(NounPhrase(NOUNS["custode"], "sg"), NounPhrase(NOUNS["corridoio"], "sg"))
    rng = random.Random(2)
    drawn = []
    for _ in range(2000):
        rng.random()
        modified = with_modifiers(words, rng)
        drawn.append((modified.agent.modifier, modified.patient.modifier))
    named = [(a and modifier_word(a), p and modifier_word(p)) for a, p in drawn]
    assert not [pair for pair in named if pair[0] is not None and pair[0] == pair[1]]
    assert any(a == "scuola" for a, _ in named) and any(p == "scuola" for _, p in named)


def _modifier_of(noun, number: str, text: str) -> str | None:
    """The lemma of ``noun``'s modifier that ``text`` (its phrase, ``number``) carries."""
    words = text.replace("'", "' ").split()
    for modifier in noun.modifiers:
        if modifier.adjective is not None:
            form = modifier.adjective.form(noun.gender_in(number), number)
            if form in words and form != noun.form(number):
                return modifier_word(modifier)
        elif text.endswith(" " + modifier.tail):
            return modifier_word(modifier)
    return None


def test_built_contexts_carry_many_different_modifiers():
    """The richer lists reach the contexts: the small seed-3 builds of the four CausI/OdI
    configs carry 184 different modifier words (72 before the richer lists)."""
    heads = {noun.form(n): (noun, n) for noun in NOUNS.values() for n in noun.numbers}
    seen = set()
    for config in ("caus_ii", "caus_iii", "od_ii", "od_iii"):
        for row in (row for split in built(config).values() for row in split):
            for chunk in (c for a in row["Context_annotation"] for c in a["chunks"]):
                if chunk["tag"].removeprefix("da-") in ("Ag", "Pat"):
                    words = chunk["text"].replace("'", "' ").split()
                    noun, number = heads[next(w for w in words if w in heads)]
                    seen.add(_modifier_of(noun, number, chunk["text"]))
    assert len(seen - {None}) >= 140, len(seen)
