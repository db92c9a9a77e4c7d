"""What the two readings of sample seed 8186 (commit 25905bc) found, taken out: swapped OdI
answers that read as "lead" (*gli autisti venivano guidati da quei furgoni*), sailors who
"deflate" by themselves (*i marinai dei canotti si sono sgonfiati da soli*: losing heart),
eating after dinner or in front of everyone, a road that widens by itself in front of
everyone, a wave wetting a tablecloth in the morning, eating "from" ice creams; and, from
this round's own reading, a grandmother washing horses and a child's own crystal glasses.
Each test fails if its rule (in verbs.json) is taken out."""

from __future__ import annotations

from poetic_eval.blm import load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator

LEXICON = load_lexicon()


def test_guidare_is_kept_to_type_iii_contexts():
    generator = AlternationGenerator(LEXICON, "object_drop")
    assert "guidare" not in {verb.lemma for verb in generator.verbs}
    assert "guidare" in {verb.lemma for verb in generator.context_only}


def test_no_one_deflates_by_himself():
    sgonfiare = LEXICON.verb("sgonfiare")
    assert not sgonfiare.alone and not sgonfiare.alone_only


def test_no_eating_after_dinner_or_in_public_nor_from_an_ice_cream():
    mangiare = LEXICON.verb("mangiare")
    assert not {"after_dinner", "in_public"} & set(mangiare.p_phrases)
    assert "gelato" in mangiare.source_patients
    assert "gelato" not in mangiare.answer_patients()


def test_only_holes_and_cracks_widen():
    allargare = LEXICON.verb("allargare")
    assert set(allargare.patients) == {"buco", "crepa", "fessura"}


def test_a_wave_wets_shoes_and_towels_and_a_child_owns_no_glasses():
    assert set(LEXICON.verb("bagnare").agent_patients["onda"]) == {"scarpa", "asciugamano"}
    for lemma in ("rompere", "frantumare", "scheggiare"):
        owned = LEXICON.verb(lemma).owners["bambino"]
        assert not {"bicchiere", "vaso"} & set(owned), lemma
    assert "cavallo" not in LEXICON.verb("lavare").agent_patients["nonna"]
