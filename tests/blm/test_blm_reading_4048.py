"""What all three readings of sample seed 4048 (commit 8edde4e) found odd, taken out: the sun
drying the washing since last night (*il sole asciuga quel bucato da ieri sera*, its passive,
and the correct answer *quel costume si asciugava al sole da ieri sera*), and an AgrI relative
clause with the predicate's own verb (*questi allenatori ... di cui le cugine parlano
parlano*). Each test fails if its rule is taken out."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from poetic_eval.blm import generate_config, load_lexicon
from poetic_eval.blm.generator.agreement_counter import AgreementFrame
from poetic_eval.blm.generator.agreement_matrices import AgreementGenerator
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_sentences import AlternationWords
from poetic_eval.blm.generator.configs import BlmSizes
from poetic_eval.blm.generator.noun_phrases import NounPhrase

LEXICON = load_lexicon()
CAUSATIVE = AlternationGenerator(LEXICON, "causative")
SIZES = BlmSizes(agreement_items=600, agreement_few_shot=4, items_per_verb=16)
ACTIVE_SINCE = ("Ag", "Akt", "Pat", "da-NP")
PASSIVE_BY_SINCE = ("Pat", "Pass", "da-Ag", "da-NP")


def since(agent: str, phrase: str) -> AlternationWords:
    return AlternationWords(
        NounPhrase(LEXICON.nouns[agent], "sg", "def"),
        NounPhrase(LEXICON.nouns["bucato"], "sg", "def"),
        "",
        phrase,
        "present",
    )


def test_the_sun_acts_over_no_night():
    assert LEXICON.cause_kinds["sun"].daylight and not LEXICON.cause_kinds["force"].daylight
    assert {"da ieri sera", "da ieri"} <= CAUSATIVE.night
    asciugare = LEXICON.verb("asciugare")
    for template in (ACTIVE_SINCE, PASSIVE_BY_SINCE):
        assert not CAUSATIVE.reads_well(asciugare, since("sole", "da ieri sera"), template)
        assert CAUSATIVE.reads_well(asciugare, since("sole", "da un'ora"), template)
    # the thing alone names no cause: *il bucato si asciuga da ieri sera* reads
    alone = replace(since("sole", "da ieri sera"), frame="present")
    assert CAUSATIVE.reads_well(asciugare, alone, ("Pat", "Intr", "da-NP"), answer=True)


def test_no_built_sentence_has_the_sun_over_a_night():
    for config in ("caus_ii", "caus_iii"):
        for row in generate_config(config, seed=0, sizes=SIZES)["test"]:
            for text in [*row["Context"], *row["Answer_set"]]:
                assert not re.search(r"\bsole\b.*\bda ieri\b|\bda ieri\b.*\bsole\b", text), text


def test_no_relative_clause_has_the_predicate_s_verb():
    """Fresh words and every one-word change of them: the relative clause's verb is never the
    predicate's (the lexicon has *parlare* both as a *di cui* verb and as a predicate)."""
    generator = AgreementGenerator(LEXICON)
    frame = AgreementFrame(relative="pl")
    rng = random.Random(4048)
    predicates = {p.verb for p in LEXICON.predicates}
    relatives = {*LEXICON.relative_verbs, *(verb for verb, _ in LEXICON.di_cui_verbs)}
    assert predicates & relatives  # else the rule has nothing to keep apart
    for _ in range(3000):
        words = generator.fresh_words(rng, frame)
        changed = generator.vary_one(words, ("predicate",), rng)
        for drawn in (words, changed):
            assert drawn.relative_verb != drawn.predicate.verb, drawn


def test_no_built_sentence_repeats_a_verb():
    for config in ("agr_ii", "agr_iii"):
        for row in generate_config(config, seed=0, sizes=SIZES)["test"]:
            for text in [*row["Context"], *row["Answer_set"]]:
                assert not re.search(r"\b(\w+) \1\b", text), text
