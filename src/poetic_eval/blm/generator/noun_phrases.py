"""Italian noun phrases and prepositional phrases, agreeing and elided.

A :class:`NounPhrase` is a noun in a number with a determiner kind and optional adjectives
before and after it; :meth:`NounPhrase.text` renders it, fusing a preposition with a leading
definite article. Every word that agrees (determiner, adjectives) takes the gender the noun
has in that number (*le uova rotte*), and the determiner's form is chosen by the word that
follows it (*lo scorso inverno*, *l'ultimo inverno*, *il mese scorso*): by its sound, so a
noun's ``onset`` overrides its spelling (*lo chef*, *dello chef*).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from .articles import determiner_words, join_words, prepositional_words
from .lexicon import Adjective, Lexicon, Noun, NounModifier, PhraseSpec


@dataclass(frozen=True)
class NounPhrase:
    noun: Noun
    number: str
    determiner: str = "def"
    pre_adjective: Adjective | None = None
    post_adjective: Adjective | None = None
    tail: str = ""  # rendered text after the noun ("della giornata", "circa")
    #: one of the noun's lasting modifiers (:attr:`.Noun.modifiers`): *il vecchio portiere*,
    #: *il cuoco francese*, *il vaso di vetro*
    modifier: NounModifier | None = None

    @property
    def gender(self) -> str:
        """The gender agreement sees (the noun's gender in this number)."""
        return self.noun.gender_in(self.number)

    def words(self, preposition: str | None = None) -> list[str]:
        gender, number = self.gender, self.number
        head = [self.noun.form(number)]
        before, after, of = self.pre_adjective, self.post_adjective, ""
        if self.modifier is not None:
            of = self.modifier.tail
            if self.modifier.adjective is not None and self.modifier.before:
                before = self.modifier.adjective
            elif self.modifier.adjective is not None:
                after = self.modifier.adjective
        if before is not None:
            head.insert(0, before.form(gender, number))
        if after is not None:
            head.append(after.form(gender, number))
        # the noun's own onset counts only when the determiner stands right before it
        onset = self.noun.onset if before is None else None
        determiner = determiner_words(
            self.determiner, gender, number, head[0], kinship=self.noun.kinship, onset=onset
        )
        if preposition is not None:
            if self.determiner == "partitive":
                raise ValueError(f"a partitive ({determiner[0]}) cannot follow {preposition!r}")
            determiner = prepositional_words(preposition, determiner)
        return [*determiner, *head, *([of] if of else []), *([self.tail] if self.tail else [])]

    def text(self, preposition: str | None = None) -> str:
        """The phrase, preceded by ``preposition`` when given (*dalle sue allieve*)."""
        return _phrase_text(self, preposition)

    def with_noun(self, noun: Noun) -> NounPhrase:
        """The phrase of ``noun`` in its place, with the modifier only if ``noun`` has it too
        (*il vaso di vetro* -> *la bottiglia di vetro*, *il vaso cinese* -> *la tazza*)."""
        modifier = self.modifier if self.modifier in noun.modifiers else None
        return replace(self, noun=noun, modifier=modifier)


@lru_cache(maxsize=1 << 16)  # the generator renders the same few thousand phrases again and again
def _phrase_text(phrase: NounPhrase, preposition: str | None) -> str:
    return join_words(phrase.words(preposition))


def phrase_text(lexicon: Lexicon, spec: PhraseSpec | str) -> str:
    """A template phrase (``alternation_phrases.json``) rendered: *dall'inizio dell'anno*."""
    if isinstance(spec, str):
        return spec
    tail = phrase_text(lexicon, spec.tail) if spec.tail is not None else ""
    phrase = NounPhrase(
        noun=lexicon.nouns[spec.noun],
        number=spec.number,
        determiner=spec.determiner,
        pre_adjective=lexicon.adjectives[spec.pre_adjective] if spec.pre_adjective else None,
        post_adjective=lexicon.adjectives[spec.post_adjective] if spec.post_adjective else None,
        tail=tail,
    )
    return phrase.text(spec.preposition)


def capitalize_first(text: str) -> str:
    """``"l'amica ..."`` -> ``"L'amica ..."``; ``"è chiaro"`` -> ``"È chiaro"``."""
    return text[:1].upper() + text[1:]
