"""What the two readings of seed 5414 (b78c06e) found odd, taken out of the lexicon: a
housemaid sweeping the streets, wear over a few days, several mothers drying one towel,
monuments carved in a morning, a farm girl clipping dogs. Each test fails if its data is put
back."""

from __future__ import annotations

import re
from functools import cache

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator
from poetic_eval.blm.generator.alternation_sentences import AlternationWords
from poetic_eval.blm.generator.noun_phrases import NounPhrase

LEXICON = load_lexicon()
SIZES = BlmSizes(agreement_items=40, agreement_few_shot=4, items_per_verb=16)


@cache
def contexts(config: str) -> list[str]:
    rows = generate_config(config, seed=3, sizes=SIZES)["test"]
    return [sentence.split("\t")[-1] for row in rows for sentence in row["Context"]]


def test_only_a_street_sweeper_sweeps_the_streets():
    spazzare = LEXICON.verbs["spazzare"]
    for street in ("strada", "marciapiede", "piazza"):
        assert not spazzare.can_act_on("domestica", street)
    assert spazzare.can_act_on("spazzino", "strada")
    maid = re.compile(r"domestic[ahe].*\b(strad|piazz)|\b(strad|piazz).*domestic[ahe]")
    swept = [s for c in ("od_ii", "od_iii") for s in contexts(c) if "spazz" in s]
    assert swept and not any(maid.search(s) for s in swept)


def test_wear_is_told_over_years_not_days():
    logorare = LEXICON.verbs["logorare"]
    phrases = AlternationGenerator(LEXICON, "causative").da_phrases_for(logorare)
    assert phrases and not any("giorn" in p or "settiman" in p for p in phrases)


def test_several_agents_do_not_dry_one_towel():
    asciugare = LEXICON.verbs["asciugare"]
    assert "asciugamano" in asciugare.small_patients
    generator = AlternationGenerator(LEXICON, "causative")
    mothers = NounPhrase(LEXICON.nouns["madre"], "pl", "that")
    template = ("Pat", "Pass", "da-Ag", "da-NP")  # *l'asciugamano viene asciugato da quelle madri*
    for number, reads in (("sg", False), ("pl", True)):
        towel = NounPhrase(LEXICON.nouns["asciugamano"], number)
        words = AlternationWords(mothers, towel, "", "dal primo pomeriggio", "present")
        assert generator.reads_well(asciugare, words, template) is reads


def test_no_monument_carved_nor_dog_clipped():
    assert "monumento" not in LEXICON.verbs["scolpire"].patients
    assert "cane" not in LEXICON.verbs["tosare"].patients
    carved = [s for c in ("od_ii", "od_iii") for s in contexts(c) if "scolpit" in s]
    assert carved and not any("monument" in s for s in carved)
