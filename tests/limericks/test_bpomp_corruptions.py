"""bpomp's three corruptions: rhyme-word and line swaps (invariants, seeding, recombination),
WordNet and synonym replacement."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from bpomp_cases import assert_valid_synonym_pair, changed_lines

import poetic_eval.builders.bpomp as bpomp_builder
from poetic_eval.limericks import WordNetNotFoundError, recombine_limericks, wordnet_data
from poetic_eval.limericks.corruptions import Limerick, generate_pairs, line_swap, rhyme_word_swap
from poetic_eval.limericks.recombination import recombination_count
from poetic_eval.limericks.wordnet_data import (
    INSTALL_HINT,
    LEXICOGRAPHER_FILES,
    lexnames_text,
    wordnet_available,
)
from poetic_eval.text import final_word, tokens

# --- swap corruptions (no WordNet needed) --------------------------------------------------


def test_rhyme_word_swap_invariants(recombined):
    rng = random.Random(0)
    for limerick in recombined:
        corruption = rhyme_word_swap(limerick, rng)
        i, j = corruption.lines
        assert (i, j) in ((0, 1), (0, 4), (1, 4), (2, 3))
        assert corruption.bad != limerick.text
        assert changed_lines(limerick.text, corruption.bad) == [i, j]
        bad_lines = corruption.bad.split("\n")
        assert final_word(bad_lines[i]) == limerick.end_word(j)
        assert final_word(bad_lines[j]) == limerick.end_word(i)
        assert corruption.original_words == (limerick.end_word(i), limerick.end_word(j))
        assert corruption.new_words == corruption.original_words[::-1]
        # only the two final words moved: the same words overall
        assert Counter(tokens(corruption.bad, remove_punctuation=True)) == Counter(
            tokens(limerick.text, remove_punctuation=True)
        )


def test_line_swap_invariants(recombined):
    rng = random.Random(1)
    for limerick in recombined:
        corruption = line_swap(limerick, rng)
        i, j = corruption.lines
        bad_lines = corruption.bad.split("\n")
        assert changed_lines(limerick.text, corruption.bad) == [i, j]
        assert (bad_lines[i], bad_lines[j]) == (limerick.lines[j], limerick.lines[i])
        assert sorted(bad_lines) == sorted(limerick.lines)


def test_no_swap_when_words_or_lines_are_identical():
    repeated = Limerick("x", ("a b day", "c d day", "e night", "f night", "g day"))
    assert rhyme_word_swap(repeated, random.Random(0)) is None
    assert line_swap(repeated, random.Random(0)) is not None
    same_lines = Limerick("y", ("one day", "one day", "two nights", "two nights", "one day"))
    assert line_swap(same_lines, random.Random(0)) is None


def test_generate_pairs_is_seeded_capped_and_unique(recombined):
    first = generate_pairs(recombined, "line_swap", 150, seed=2, show_progress=False)
    again = generate_pairs(recombined, "line_swap", 150, seed=2, show_progress=False)
    other = generate_pairs(recombined, "line_swap", 150, seed=3, show_progress=False)
    assert [(p.limerick, p.corruption) for p in first.pairs] == [
        (p.limerick, p.corruption) for p in again.pairs
    ]
    assert [p.corruption.bad for p in first.pairs] != [p.corruption.bad for p in other.pairs]
    assert len(first.pairs) == 150 and not first.capped
    everything = generate_pairs(recombined, "rhyme_word_swap", 10**6, seed=2, show_progress=False)
    assert everything.capped
    assert len(everything.pairs) + everything.without_candidate == len(recombined)
    keys = [(p.limerick.text, p.corruption.bad) for p in everything.pairs]
    assert len(keys) == len(set(keys))
    assert len({p.limerick.text for p in everything.pairs}) == len(everything.pairs)
    with pytest.raises(ValueError, match="unknown corruption 'shuffle'"):
        generate_pairs(recombined, "shuffle", 1, seed=0)


def test_recombination_counts(seed_limericks):
    assert recombination_count(45) == 24_300
    texts = recombine_limericks(seed_limericks[:3], recombination_count(3), seed=0)
    assert len(texts) == len(set(texts)) == 108
    with pytest.raises(ValueError, match="exceeds the 108 recombinations"):
        recombine_limericks(seed_limericks[:3], 109, seed=0)


# --- WordNet and synonyms ------------------------------------------------------------------


def test_lexnames_file_lists_the_45_lexicographer_files():
    rows = [line.split("\t") for line in lexnames_text().splitlines()]
    assert len(rows) == len(LEXICOGRAPHER_FILES) == 45
    assert [int(number) for number, _, _ in rows] == list(range(45))
    assert rows[0] == ["00", "adj.all", "3"] and rows[3] == ["03", "noun.Tops", "1"]
    assert rows[44] == ["44", "adj.ppl", "3"] and rows[29] == ["29", "verb.body", "2"]


def test_missing_wordnet_says_how_to_install(tmp_path, monkeypatch):
    with pytest.raises(WordNetNotFoundError, match="apt-get install wordnet-base"):
        wordnet_data.find_wordnet_root(tmp_path)
    import nltk

    def not_found(resource, *args, **kwargs):
        raise LookupError(resource)

    monkeypatch.setattr(nltk.data, "find", not_found)
    monkeypatch.setattr(wordnet_data, "DEBIAN_WORDNET", tmp_path / "absent")
    monkeypatch.delenv("WNHOME", raising=False)
    assert not wordnet_available()
    with pytest.raises(WordNetNotFoundError, match=r"nltk\.download\('wordnet'\)"):
        wordnet_data.find_wordnet_root()


def test_build_without_wordnet_leaves_out_synonym_replace(tmp_path, monkeypatch):
    def unavailable(*args, **kwargs):
        raise WordNetNotFoundError(INSTALL_HINT)

    monkeypatch.setattr(bpomp_builder, "SynonymFinder", unavailable)
    dataset = bpomp_builder.build(bpomp_builder.Config(n_pairs=5, show_progress=False))
    assert dataset.config_names() == ["rhyme_word_swap", "line_swap"]
    assert any("synonym_replace not built" in line and "apt-get" in line for line in dataset.report)


def test_part_of_speech_and_inflected_synonyms(finder):
    assert finder.lemma_and_pos("cats") == ("cat", "n")
    assert finder.lemma_and_pos("ran") == ("run", "v")
    assert finder.part_of_speech("qzxv") is None
    # the word before is the cue: determiners announce nouns, modals and pronouns verbs
    assert finder.part_of_speech("train") == "v"
    assert finder.part_of_speech("train", "the") == "n"
    assert finder.part_of_speech("train", "her") == "n"
    assert finder.part_of_speech("fall", "would") == "v"
    assert finder.part_of_speech("slow", "the") == "a"  # no noun reading: the usual rule
    assert all(s.synset.split(".")[1] == "n" for s in finder.synonyms("train", "the"))
    for word in ("cats", "running", "towns"):
        for synonym in finder.synonyms(word):
            assert synonym.word.endswith("s" if word.endswith("s") else "ing"), synonym
    for synonym in finder.synonyms("bright"):
        assert synonym.pos == "a" and "_" not in synonym.word and synonym.word != "bright"


def test_synonym_pairs_on_generated_limericks(recombined, finder):
    generation = generate_pairs(
        recombined, "synonym_replace", 300, 4, finder=finder, show_progress=False
    )
    assert len(generation.pairs) > 100
    for pair in generation.pairs:
        row = {
            "good": pair.limerick.text,
            "bad": pair.corruption.bad,
            "corruption": pair.corruption.as_record(),
        }
        assert_valid_synonym_pair(row, finder)
    assert {line for pair in generation.pairs for line in pair.corruption.lines} == {0, 1, 2, 3, 4}
