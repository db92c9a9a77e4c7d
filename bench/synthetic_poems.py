"""Seeded synthetic poems, for benchmarks, tests and smoke runs (word lists written here).

Lines have about 7 words (so a quatrain has about 28 tokens and 150 characters, like the
paper's QuaTrain); words are a mix of frequent function words and Zipf-weighted content words.
:meth:`SyntheticPoems.rhyming_quatrains` ends lines with words of known rhyme groups
(:meth:`~SyntheticPoems.scheme_end_words` gives the schemes and end words alone), the near-copy
methods make what the memorization metric must find, :meth:`~SyntheticPoems.word_count_poems`
poems of a chosen length from any vocabulary, and :meth:`~SyntheticPoems.stanzas_with_copies`
a stream of stanzas with refrains and cut copies, like a corpus gathered from several sources.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence


def _word_list(words: str) -> list[str]:
    return words.split()


FUNCTION_WORDS = _word_list(
    "the a an and of in to with my your his her our their is was that from on by as at for all "
    "no not but or so when where while if then than there this these those who which what i you "
    "he she we they it me him us them be been are were will shall would could may might must"
)

NOUNS = _word_list(
    "light night sea heart rose stone river morning evening shadow flame wind rain snow field "
    "garden window door road bird song voice hand eye face dream sleep star moon sun sky cloud "
    "water fire earth ash bone blood breath word name silence hour day year spring summer autumn "
    "winter leaf tree root branch flower grass hill mountain valley shore wave tide harbour ship "
    "sail storm thunder lightning candle lamp glass mirror bell church tower city street bridge "
    "wall house room bed table bread wine salt honey milk apple orchard vine wheat harvest mother "
    "father child brother sister friend lover stranger king queen soldier sailor shepherd angel "
    "ghost god grave tomb prayer hymn memory sorrow grief joy hope fear love anger pride mercy "
    "grace truth lie secret promise letter book page ink pen thread needle cloth silk iron gold "
    "silver copper dust smoke mist frost dew thorn feather wing nest fox wolf deer horse lamb"
)

VERBS = _word_list(
    "falls rises sings weeps burns breaks turns holds keeps gives takes brings leaves finds loses "
    "knows sees hears feels calls waits walks runs flies sleeps wakes dreams fades grows shines "
    "glows trembles whispers speaks listens remembers forgets returns wanders lingers rests "
    "bends kneels prays answers gathers scatters covers opens closes shakes carries follows "
    "crosses touches kisses wounds heals mends binds loosens drowns drifts sinks swells"
)

ADJECTIVES = _word_list(
    "bright dark cold warm old young sweet bitter green grey golden silver pale deep still quiet "
    "wild gentle soft hard slow swift long brief lonely holy broken empty heavy light tender "
    "cruel hollow distant near secret lost silent fair red white black blue weary restless "
    "ancient early late narrow wide low high thin sharp dim clear faithful"
)

#: Groups of words that rhyme perfectly with each other (CMUdict), for rhyming quatrains.
RHYME_GROUPS = (
    ("night", "light", "bright", "sight", "flight"),
    ("day", "way", "play", "stay", "grey"),
    ("sea", "free", "tree", "knee", "plea"),
    ("moon", "soon", "tune", "june", "noon"),
    ("rain", "pain", "lane", "plain", "chain"),
    ("cold", "gold", "old", "told", "fold"),
)
RHYMING_SCHEMES = ("AABB", "ABAB", "ABBA", "ABCB", "ABCD", "AAAA", "AABA")


class SyntheticPoems:
    """Deterministic, seeded source of poems (lines joined by "\\n")."""

    def __init__(self, seed: int | random.Random = 0) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        content = NOUNS + VERBS + ADJECTIVES
        self.rng.shuffle(content)
        self.content = content
        self.content_weights = [1.0 / (rank + 1) ** 0.8 for rank in range(len(content))]

    def word(self) -> str:
        if self.rng.random() < 0.42:
            return self.rng.choice(FUNCTION_WORDS)
        return self.rng.choices(self.content, self.content_weights)[0]

    def line(self) -> str:
        """About 7 words, capitalised, with an optional final punctuation mark."""
        count = min(14, max(2, round(self.rng.gauss(7.0, 1.6))))
        words = [self.word() for _ in range(count)]
        words[0] = words[0].capitalize()
        return " ".join(words) + self.rng.choice(["", "", ",", ";", ".", "!", "?"])

    def quatrain(self) -> str:
        return "\n".join(self.line() for _ in range(4))

    def quatrains(self, count: int) -> list[str]:
        return [self.quatrain() for _ in range(count)]

    def poems(self, count: int, lines: int | None = 4) -> list[str]:
        """``count`` poems of ``lines`` lines (None: 1 to 6 lines, mostly 4)."""
        return [self.poem(lines) for _ in range(count)]

    def poem(self, lines: int | None = 4) -> str:
        lines = lines or self.rng.choice([4, 4, 4, 1, 2, 3, 5, 6])
        return "\n".join(self.line() for _ in range(lines))

    def rhyming_quatrains(self, count: int) -> list[str]:
        """Quatrains with a random scheme whose line-final words come from rhyme groups."""
        poems = []
        for _ in range(count):
            _, ends = self._scheme_and_end_words(RHYMING_SCHEMES, RHYME_GROUPS)
            lines = []
            for end in ends:
                body = " ".join(self.word() for _ in range(self.rng.randint(2, 6)))
                lines.append(f"{body} {end}")
            poems.append("\n".join(lines))
        return poems

    def scheme_end_words(
        self,
        count: int,
        *,
        schemes: Sequence[str] = RHYMING_SCHEMES,
        groups: Sequence[Sequence[str]] = RHYME_GROUPS,
    ) -> list[tuple[str, list[str]]]:
        """``count`` (scheme, line-final words) pairs: a scheme drawn from ``schemes`` (repeat
        one to make it more likely), each of its letters a different rhyme group of ``groups``,
        and no word twice within a poem (a group needs as many words as its letter's lines)."""
        return [self._scheme_and_end_words(schemes, groups) for _ in range(count)]

    def _scheme_and_end_words(
        self, schemes: Sequence[str], groups: Sequence[Sequence[str]]
    ) -> tuple[str, list[str]]:
        scheme = self.rng.choice(schemes)
        letters = sorted(set(scheme))
        chosen_groups = self.rng.sample(groups, len(letters))
        words = {
            letter: self.rng.sample(group, len(group))
            for letter, group in zip(letters, chosen_groups)
        }
        return scheme, [words[letter].pop() for letter in scheme]

    def word_count_poems(
        self,
        count: int,
        mean_words: float,
        *,
        spread: float = 5.0,
        vocabulary: Sequence[str] | None = None,
    ) -> list[str]:
        """``count`` poems of about ``mean_words`` words each (normal, standard deviation
        ``spread``, at least one word), cut into at most 3 lines at random places. Words come
        from ``vocabulary`` when given (e.g. words with punctuation and accents, to test how
        lengths count them), else from :meth:`word`."""
        poems = []
        for _ in range(count):
            n_words = max(1, round(self.rng.gauss(mean_words, spread)))
            words = [
                self.rng.choice(vocabulary) if vocabulary else self.word() for _ in range(n_words)
            ]
            cuts = sorted(self.rng.sample(range(1, n_words + 1), min(3, n_words)))
            lines, start = [], 0
            for end in [*cuts[:-1], n_words]:
                if words[start:end]:
                    lines.append(" ".join(words[start:end]))
                start = end
            poems.append("\n".join(lines))
        return poems

    def stanzas_with_copies(
        self,
        *,
        lengths: tuple[int, int] = (4, 20),
        copy_rate: float = 0.2,
        refrains: int = 0,
        refrain_rate: float = 0.0,
        words_per_line: int = 7,
    ) -> Iterator[list[str]]:
        """An endless stream of stanzas (lists of lines), like a corpus gathered from several
        sources: a ``copy_rate`` share are copies of an earlier stanza, cut by up to a line at
        either end (a poem held by two sources); the others have ``lengths[0]`` to
        ``lengths[1]`` lines, each one of ``refrains`` shared refrain lines with probability
        ``refrain_rate``, else fresh. Fresh lines are ``words_per_line`` words drawn uniformly
        from the word lists (fast enough for millions of lines)."""
        vocabulary = FUNCTION_WORDS + NOUNS + VERBS + ADJECTIVES

        def fresh_line() -> str:
            return " ".join(self.rng.choices(vocabulary, k=words_per_line))

        shared = [fresh_line() for _ in range(refrains)]
        stanzas: list[list[str]] = []
        while True:
            if stanzas and self.rng.random() < copy_rate:
                base = self.rng.choice(stanzas)
                stanza = base[self.rng.randrange(2) : len(base) - self.rng.randrange(2)]
            else:
                stanza = [
                    self.rng.choice(shared)
                    if shared and self.rng.random() < refrain_rate
                    else fresh_line()
                    for _ in range(self.rng.randint(*lengths))
                ]
            stanzas.append(stanza)
            yield stanza

    def edited(self, text: str, edits: int, alphabet: str = "abcdefghilmnoprstuw ") -> str:
        """``text`` with ``edits`` random character substitutions (newlines kept)."""
        chars = list(text)
        positions = [i for i, c in enumerate(chars) if c != "\n"]
        for position in self.rng.sample(positions, min(edits, len(positions))):
            chars[position] = self.rng.choice(alphabet)
        return "".join(chars)

    def near_copy(self, source: str) -> str:
        """One of six kinds of copy of a 4-line ``source``: character edits, shuffled lines,
        changed case, one copied line among new ones, an edited copied couplet, or exact."""
        lines = source.split("\n")
        kind = self.rng.randrange(6)
        if kind == 0:
            return self.edited(source, self.rng.randint(1, 6))
        if kind == 1:
            self.rng.shuffle(lines)
            return "\n".join(lines)
        if kind == 2:
            return source.upper() if self.rng.random() < 0.5 else source.title()
        fresh = self.poem(4).split("\n")
        if kind == 3:
            fresh[self.rng.randrange(4)] = self.rng.choice(lines)
            return "\n".join(fresh)
        if kind == 4:
            fresh[2:] = self.edited("\n".join(lines[:2]), 1).split("\n")[:2]
            return "\n".join(fresh)
        return source

    def generated_sample(
        self,
        training: list[str],
        count: int,
        copy_rates: tuple[float, float, float] = (0.02, 0.04, 0.10),
    ) -> list[str]:
        """A "model output" sample: mostly new quatrains, with some near-copies of training.

        ``copy_rates``: shares of edited copies of a training quatrain, of quatrains that reuse a
        training couplet and of quatrains that reuse one training line (default 2 %, 4 %, 10 %),
        so every memorization level has something to find.
        """
        whole, couplet, line = copy_rates
        sample = []
        for _ in range(count):
            draw = self.rng.random()
            fresh = self.quatrain().split("\n")
            source = self.rng.choice(training).split("\n")
            if draw < whole:
                sample.append(self.edited("\n".join(source), self.rng.randint(1, 12)))
                continue
            if draw < whole + couplet:
                fresh[:2] = source[:2]
            elif draw < whole + couplet + line:
                fresh[self.rng.randrange(4)] = source[self.rng.randrange(4)]
            sample.append("\n".join(fresh))
        return sample
