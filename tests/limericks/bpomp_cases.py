"""What the bpomp tests share: the seed limericks' file, the lines a corruption changed, and the
check of a synonym_replace pair."""

from __future__ import annotations

from poetic_eval.limericks.corruptions import partner_lines, word_before_end
from poetic_eval.resources import seed_path
from poetic_eval.rhyme import in_dictionary, may_rhyme, rhymes, same_word
from poetic_eval.text import final_word

SEEDS = seed_path("limericks.txt")


def changed_lines(good: str, bad: str) -> list[int]:
    """Indices of the lines where ``good`` and ``bad`` differ."""
    return [i for i, (a, b) in enumerate(zip(good.split("\n"), bad.split("\n"))) if a != b]


def assert_valid_synonym_pair(row, finder):
    """A synonym_replace row changes one line-final word into a WordNet synonym of one of its
    senses that rhymes with none of the line's partners."""
    corruption = row["corruption"]
    (index,) = corruption["lines"]
    (original,) = corruption["original_words"]
    (new,) = corruption["new_words"]
    assert changed_lines(row["good"], row["bad"]) == [index]
    good_line, bad_line = row["good"].split("\n")[index], row["bad"].split("\n")[index]
    assert final_word(good_line) == original and final_word(bad_line) == new
    start = good_line.rfind(original)
    assert bad_line == good_line[:start] + new + good_line[start + len(original) :]
    assert new.isalpha() and new.islower() and new != original and in_dictionary(new)
    lemma, pos = finder.lemma_and_pos(original, word_before_end(good_line))
    assert corruption["pos"] == pos
    synset = finder.wordnet.synset(corruption["synset"])
    assert synset.pos() in ({"a", "s"} if pos == "a" else {pos})
    assert synset in finder.wordnet.synsets(lemma, pos)  # a sense of the original word
    new_lemma = finder.wordnet.morphy(new, pos) or new
    assert new_lemma in synset.lemma_names() or new in synset.lemma_names()
    partners = [final_word(row["bad"].split("\n")[i]) for i in partner_lines(index)]
    assert not any(may_rhyme(new, partner) or same_word(new, partner) for partner in partners)
    assert not any(rhymes(new, partner) for partner in partners)  # nor by the default method
