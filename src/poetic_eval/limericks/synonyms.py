"""WordNet synonyms of single words, offline, with a tagger-free part-of-speech rule.

WordNet itself is found by :mod:`poetic_eval.limericks.wordnet_data`.

**Part of speech without a tagger** (nltk's tagger data is not available offline). First the
word before it: after a determiner or possessive ("the train", "her gown") the noun reading is
taken, after a modal, do-support or a subject pronoun ("would sing", "they fall") the verb
reading, when WordNet has that reading (through ``morphy``, so "ran" is the verb "run").
Otherwise, among the parts of speech where WordNet knows the word, the one whose senses of that
lemma have the highest tagged-corpus count (WordNet's ``cntlist`` frequencies: the
most-frequent-sense rule); ties go to noun, verb, adjective, adverb in that order. Both rules
are deterministic. The second can misread a word whose rarer part of speech is meant (a noun
"rose" after an adjective is read as the verb "rise").

**Synonyms.** For that part of speech, the other lemma names of the synsets of the word's
lemma, in WordNet's sense order (most frequent sense first), from the first ``max_senses``
senses only: single words (letters, no spaces, underscores, hyphens, capitals or vowel-less
abbreviations), different
from the word and its lemma, and not rare (wordfreq Zipf frequency >= ``min_zipf``). When the
word is inflected ("cats", "ran", "happier"), each synonym gets the same inflection from
lemminflect's lexicon (no rule-made forms); synonyms it cannot inflect are left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lemminflect import getInflection
from wordfreq import zipf_frequency

from ..checks import typed_options
from .wordnet_data import load_wordnet

PARTS_OF_SPEECH = ("n", "v", "a", "r")

# Penn tags an inflected form can carry, per WordNet part of speech
_INFLECTION_TAGS = {
    "n": ("NNS",),
    "v": ("VBD", "VBN", "VBG", "VBZ"),
    "a": ("JJR", "JJS"),
    "r": ("RBR", "RBS"),
}


#: Words after which a word is read as a noun (determiners, possessives, quantifiers).
NOUN_CUES = frozenset(
    (
        "a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its",
        "our", "their", "every", "each", "no", "some", "any", "another", "either", "neither",
        "such", "whose",
    )
)  # fmt: skip
#: Words after which a word is read as a verb (modals, do-support, subject pronouns).
VERB_CUES = frozenset(
    (
        "will", "would", "shall", "should", "can", "could", "may", "might", "must", "do",
        "does", "did", "i", "you", "we", "they", "he", "she", "it'll", "i'll", "you'll",
        "we'll", "they'll", "he'll", "she'll",
    )
)  # fmt: skip


def context_cue(previous: str | None) -> str | None:
    """The part of speech the previous word announces ("n", "v"), or None (see the cues)."""
    if not previous:
        return None
    previous = previous.lower().replace("\u2019", "'").strip('.,;:!?"()[]')
    if previous in NOUN_CUES:
        return "n"
    if previous in VERB_CUES:
        return "v"
    return None


@dataclass(frozen=True)
class Synonym:
    """A synonym of a word: the form to use, its WordNet lemma, synset and part of speech."""

    word: str
    lemma: str
    synset: str
    pos: str


def _is_single_plain_word(name: str) -> bool:
    """Lower-case ASCII letters with a vowel letter (abbreviations such as "hr" have none)."""
    return (
        name.isalpha()
        and name.isascii()
        and name.islower()
        and any(letter in "aeiouy" for letter in name)
    )


class SynonymFinder:
    """Part of speech and synonyms of words, cached (see the module docstring).

    ``max_senses``: only the word's most frequent senses in its part of speech lend synonyms
    (rare senses give odd substitutes: "cat" -> "qat"). ``min_zipf``: a synonym must have at
    least this Zipf frequency in wordfreq's English list (3 = about once per million words),
    which drops obscure or invented forms ("paries", "felicitouser"). 0 keeps every synonym.
    """

    @typed_options
    def __init__(self, wordnet=None, *, max_senses: int = 3, min_zipf: float = 3.0) -> None:
        self.wordnet = wordnet if wordnet is not None else load_wordnet()
        self.max_senses = max_senses
        self.min_zipf = min_zipf
        self._pos_cache: dict[str, tuple[str, str] | None] = {}
        self._synonym_cache: dict[tuple[str, str, str], tuple[Synonym, ...]] = {}
        self._sense_counts: dict[str, int] | None = None

    def sense_count(self, lemma) -> int:
        """Tagged-corpus count of an nltk Lemma (``Lemma.count()``, from one in-memory table).

        nltk's own ``count()`` binary-searches ``cntlist.rev`` on disk for every call (about
        2 ms); a corpus of 100k limericks asks for hundreds of thousands of counts.
        """
        if self._sense_counts is None:
            with self.wordnet.open("cntlist.rev") as stream:
                self._sense_counts = {
                    key: int(count)
                    for key, _, count in (line.split() for line in stream if line.strip())
                }
        return self._sense_counts.get(lemma.key(), 0)

    def lemma_and_pos(self, word: str, previous: str | None = None) -> tuple[str, str] | None:
        """(lemma, part of speech) of ``word``; None when WordNet does not know it.

        ``previous`` is the word before it in the text: after a determiner or possessive the
        noun reading is taken, after a modal or a subject pronoun the verb reading, when
        WordNet has it; otherwise the most-frequent-sense rule decides.
        """
        word = word.lower()
        cue = context_cue(previous)
        if cue is not None:
            lemma = self.wordnet.morphy(word, cue)
            if lemma is not None:
                return lemma, cue
        if word not in self._pos_cache:
            self._pos_cache[word] = self._most_frequent_reading(word)
        return self._pos_cache[word]

    def _most_frequent_reading(self, word: str) -> tuple[str, str] | None:
        best, best_count = None, -1
        for pos in PARTS_OF_SPEECH:
            lemma = self.wordnet.morphy(word, pos)
            if lemma is None:
                continue
            count = sum(
                self.sense_count(lemma_object)
                for synset in self.wordnet.synsets(lemma, pos)
                for lemma_object in synset.lemmas()
                if lemma_object.name().lower() == lemma
            )
            if count > best_count:
                best, best_count = (lemma, pos), count
        return best

    def part_of_speech(self, word: str, previous: str | None = None) -> str | None:
        """WordNet part of speech ("n", "v", "a", "r") of ``word`` (see :meth:`lemma_and_pos`)."""
        reading = self.lemma_and_pos(word, previous)
        return reading[1] if reading else None

    def synonyms(self, word: str, previous: str | None = None) -> tuple[Synonym, ...]:
        """Single-word synonyms of ``word`` in its part of speech, most frequent sense first."""
        word = word.lower()
        reading = self.lemma_and_pos(word, previous)
        if reading is None:
            return ()
        key = (word, *reading)
        if key not in self._synonym_cache:
            self._synonym_cache[key] = tuple(self._find_synonyms(word, *reading))
        return self._synonym_cache[key]

    def _find_synonyms(self, word: str, lemma: str, pos: str) -> Iterator[Synonym]:
        tag = None if word == lemma else inflection_tag(word, lemma, pos)
        if word != lemma and tag is None:
            return  # an inflection lemminflect cannot reproduce: no safe synonym form
        seen = {word, lemma}
        for synset in self.wordnet.synsets(lemma, pos)[: self.max_senses]:
            for name in synset.lemma_names():
                if not _is_single_plain_word(name) or name in seen:
                    continue
                form = name if tag is None else _inflect(name, tag)
                if form is None or form in seen or zipf_frequency(form, "en") < self.min_zipf:
                    continue
                seen.update((name, form))
                yield Synonym(word=form, lemma=name, synset=synset.name(), pos=pos)


def inflection_tag(form: str, lemma: str, pos: str) -> str | None:
    """The Penn tag under which ``lemma`` inflects to ``form`` ("cats", "cat", "n" -> "NNS")."""
    for tag in _INFLECTION_TAGS[pos]:
        if form in getInflection(lemma, tag=tag, inflect_oov=False):
            return tag
    return None


def _inflect(lemma: str, tag: str) -> str | None:
    forms = getInflection(lemma, tag=tag, inflect_oov=False)
    if not forms:
        return None
    form = forms[0]
    return form if _is_single_plain_word(form) else None
