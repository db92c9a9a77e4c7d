"""The verb list: forms, frequencies, selection rule, determinism."""

from __future__ import annotations

import lemminflect
import pytest
import wordfreq

from poetic_eval.agreement import DEFAULT_MIN_ZIPF, load_verb_list
from poetic_eval.agreement.verb_lexicon import VerbEntry


@pytest.fixture(scope="module")
def verbs() -> list[VerbEntry]:
    return load_verb_list()


@pytest.fixture(scope="module")
def by_lemma(verbs) -> dict[str, VerbEntry]:
    return {entry.lemma: entry for entry in verbs}


@pytest.mark.parametrize(
    "lemma, singular, plural",
    [
        ("be", "is", "are"),
        ("have", "has", "have"),
        ("do", "does", "do"),
        ("go", "goes", "go"),
        ("laugh", "laughs", "laugh"),
        ("swim", "swims", "swim"),
        ("smile", "smiles", "smile"),
        ("like", "likes", "like"),
        ("hate", "hates", "hate"),
        ("write", "writes", "write"),
        ("carry", "carries", "carry"),
        ("watch", "watches", "watch"),
    ],
)
def test_known_verbs_have_their_forms(by_lemma, lemma, singular, plural):
    entry = by_lemma[lemma]
    assert (entry.singular, entry.plural) == (singular, plural)


def test_size_is_near_the_papers_list(verbs):
    assert 1500 <= len(verbs) <= 2500


@pytest.mark.parametrize(
    "word", ["can", "must", "will", "should", "people", "ulcer", "even", "the"]
)
def test_modals_and_non_verbs_are_excluded(by_lemma, word):
    assert word not in by_lemma


def test_no_reference_list_noise(verbs):
    forms = {entry.singular for entry in verbs} | {entry.plural for entry in verbs}
    assert not forms & {"haves", "refocuseses", "ams", "ises"}
    assert all(form.isalpha() and form.islower() for form in forms)


def test_no_lemma_or_form_repeated(verbs):
    lemmas = [entry.lemma for entry in verbs]
    assert len(lemmas) == len(set(lemmas))
    forms = [entry.singular for entry in verbs] + [entry.plural for entry in verbs]
    assert len(forms) == len(set(forms)), "a form string belongs to two lemmas or two columns"
    assert all(entry.singular != entry.plural for entry in verbs)


def test_frequencies_are_wordfreq_zipf_and_above_the_threshold(verbs):
    for entry in verbs[:: max(1, len(verbs) // 200)]:
        assert entry.frequency == wordfreq.zipf_frequency(entry.lemma, "en")
        assert entry.singular_frequency == wordfreq.zipf_frequency(entry.singular, "en")
        assert min(entry.frequency, entry.singular_frequency) >= DEFAULT_MIN_ZIPF


def test_every_entry_satisfies_the_selection_rule_against_lemminflect(verbs):
    for entry in verbs[::7]:
        inflections = lemminflect.getAllInflections(entry.lemma, "VERB")
        assert entry.singular in inflections["VBZ"]
        assert entry.plural in inflections["VBP"]
        assert entry.lemma in lemminflect.getAllLemmas(entry.lemma)["VERB"]
        for tag in ("VBD", "VBG"):
            assert (
                max(wordfreq.zipf_frequency(f, "en") for f in inflections[tag]) >= DEFAULT_MIN_ZIPF
            )


def test_order_is_by_frequency_and_deterministic(verbs):
    keys = [(-entry.frequency, entry.lemma) for entry in verbs]
    assert keys == sorted(keys)
    assert load_verb_list() == verbs
    assert load_verb_list() is not load_verb_list(), "callers get their own list"


def test_limit_and_threshold(verbs):
    assert load_verb_list(limit=10) == verbs[:10]
    stricter = load_verb_list(min_zipf=3.5)
    assert 0 < len(stricter) < len(verbs)
    assert {"be", "have"} <= {entry.lemma for entry in stricter}
    assert {e.lemma for e in stricter} <= {e.lemma for e in verbs}


@pytest.mark.parametrize(
    "bad, error",
    [({"limit": 0}, ValueError), ({"limit": 2.0}, TypeError), ({"min_zipf": "3"}, TypeError)],
)
def test_bad_arguments(bad, error):
    with pytest.raises(error):
        load_verb_list(**bad)
