"""Shared helpers of the rhyme package: lettering, union-find schemes, the cached sequential
prior, and the bounded caches of words and pair scores (same results when they are emptied)."""

from __future__ import annotations

import numpy as np

from poetic_eval.rhyme import default_model, load_model, pair_model, rhyme_scheme
from poetic_eval.rhyme.letters import letters_by_first_occurrence, scheme_of_links
from poetic_eval.rhyme.pair_model import LINKED_REPETITION
from poetic_eval.rhyme.scheme_decoder import (
    _sequential_priors,
    restricted_growth_strings,
    sequential_prior,
)
from poetic_eval.rhyme.word_forms import WORDS, Interned, word_forms


def test_letters_by_first_occurrence():
    assert letters_by_first_occurrence("abab") == "ABAB"
    assert letters_by_first_occurrence((3, 3, 0, "x", 0)) == "AABCB"
    assert letters_by_first_occurrence([]) == ""
    assert letters_by_first_occurrence(range(28))[-3:] == "Zab"


def test_scheme_of_links_closes_transitively():
    assert scheme_of_links(4, []) == "ABCD"
    assert scheme_of_links(4, [(0, 2), (1, 3)]) == "ABAB"
    assert scheme_of_links(5, [(3, 4), (0, 3), (1, 2)]) == "ABBAA"
    assert scheme_of_links(3, [(2, 1), (1, 0)]) == "AAA"


def test_the_sequential_prior_is_cached_on_values():
    join, new = np.array([-1.0, -2.0, -3.0]), -0.5
    direct = [sequential_prior(p, join, new) for p in restricted_growth_strings(7)]
    cached = _sequential_priors(7, join, new)
    assert cached.tolist() == direct
    assert _sequential_priors(7, join.copy(), new) is cached
    assert not cached.flags.writeable
    changed = _sequential_priors(7, join - 1.0, new)
    assert changed.tolist() == [sequential_prior(p, join - 1.0, new) for p in
                                restricted_growth_strings(7)]  # fmt: skip


def test_interned_with_a_limit_never_reuses_an_id():
    table = Interned(limit=2)
    ids = [table(word) for word in ("a", "b", "c", "a")]
    assert len(set(ids)) == 4  # "a" forgotten when "c" came, then given a new id
    assert table("a") == ids[3] and len(table.ids) <= 2


def test_emptied_caches_give_the_same_scores_and_repetitions(monkeypatch):
    poem = "\n".join(f"and in the {w}" for w in ["day", "night", "Way", "light", "way", "stone"])
    scheme = rhyme_scheme(poem)
    words = ["day", "night", "way", "light", "Love", "love", "prove", "dove", "stone", "bone"]
    reference = default_model()
    expected = [[reference.score(a, b) for b in words] for a in words]
    model = load_model()
    monkeypatch.setattr(pair_model, "CACHE_LIMIT", 3)
    monkeypatch.setattr(WORDS, "limit", 2)
    word_forms.cache_clear()
    assert [[model.score(a, b) for b in words] for a in words] == expected
    assert len(model._cache) <= 3 and len(model._sounds) <= 3
    word_forms.cache_clear()
    first = word_forms("Love")
    for other in ("glimmerinea", "glimmerineb", "glimmerinec"):
        word_forms(other)  # new words: WORDS is emptied, "love" comes back with a new key
    second = word_forms("love")
    assert first.key != second.key and first.word == second.word
    assert model.score("Love", "love") == LINKED_REPETITION
    assert model.score("Love", "love", link_repetitions=False) == 0.0
    assert rhyme_scheme(poem) == scheme
