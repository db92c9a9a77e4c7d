"""BPoMP limerick minimal pairs: verified limericks and their three corruptions.

A **limerick** here has exactly 5 non-empty lines with rhyme scheme AABBA by
:func:`poetic_eval.rhyme.rhyme_scheme` with its default, learned method (lines 1, 2, 5 rhyme;
lines 3, 4 rhyme; the two groups do not), so the rhyming pairs the swaps use are verified.
The corruptions (Abdibayev et al. 2021), each returning None when the limerick offers no valid
one:

1. :func:`rhyme_word_swap`: swap the final words of two rhyming lines (lines 1-2, 1-5, 2-5 or
   3-4); the words must differ.
2. :func:`line_swap`: swap two rhyming lines (same pairs); the lines must differ.
3. :func:`synonym_replace`: replace the final word of one line by a WordNet synonym of the same
   part of speech (:mod:`poetic_eval.limericks.synonyms`; the word before it is the part-of-speech
   cue) that is a single word, differs from the
   original, is in CMUdict, and neither repeats nor *may rhyme* with the final word of any
   partner line (the other lines of its rhyme group). "May rhyme" is the strict test of
   :func:`poetic_eval.rhyme.may_rhyme`: perfect, weak, near (eye, voicing) or historical rhyme,
   or a learned score that makes the pair at least as likely a rhyme as not. A corruption must
   clearly break the rhyme; a synonym a reader could still hear as a slant rhyme would make a
   pair whose "bad" side rhymes. Capitalised final words (names, mostly) are not replaced.

The pair chosen for a limerick (which lines, which synonym) is drawn from a ``random.Random``
the caller seeds, so builds are reproducible. Line indices in :class:`Corruption` are 0-based.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from tqdm.auto import tqdm

from ..checks import require_choice, typed_options
from ..rhyme import in_dictionary, may_rhyme, rhyme_scheme, same_word
from ..text import final_word
from ..text import lines as poem_lines
from .sources import LimerickRecord
from .synonyms import Synonym, SynonymFinder

LIMERICK_SCHEME = "AABBA"
#: Line indices of each rhyme group of a limerick.
RHYME_GROUPS: tuple[tuple[int, ...], ...] = ((0, 1, 4), (2, 3))
#: Pairs of rhyming lines, the candidates of the swap corruptions.
RHYMING_LINE_PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 4), (1, 4), (2, 3))
CORRUPTIONS = ("rhyme_word_swap", "line_swap", "synonym_replace")
_WORDS = re.compile(r"\w+(?:['\u2019]\w+)*")


@dataclass(frozen=True)
class Limerick:
    """A verified limerick: its source id and its 5 stripped lines."""

    source_id: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def end_word(self, index: int) -> str:
        return final_word(self.lines[index])


@dataclass(frozen=True)
class Corruption:
    """A corrupted limerick and what changed (0-based line indices, final words before/after)."""

    kind: str
    bad: str
    lines: tuple[int, ...]
    original_words: tuple[str, ...]
    new_words: tuple[str, ...]
    synset: str = ""
    pos: str = ""

    def as_record(self) -> dict[str, object]:
        return {
            "type": self.kind,
            "lines": list(self.lines),
            "original_words": list(self.original_words),
            "new_words": list(self.new_words),
            "synset": self.synset,
            "pos": self.pos,
        }


@dataclass
class VerificationReport:
    """Which records were kept and why the others were dropped (reason -> count)."""

    kept: list[Limerick] = field(default_factory=list)
    dropped: Counter = field(default_factory=Counter)

    def summary(self) -> list[str]:
        total = len(self.kept) + sum(self.dropped.values())
        lines = [f"kept {len(self.kept):,} of {total:,} source records as verified limericks"]
        lines += [f"dropped {n:,}: {reason}" for reason, n in sorted(self.dropped.items())]
        return lines


def limerick_problem(record: LimerickRecord) -> str | None:
    """Why ``record`` is not a verified limerick (a short reason), or None when it is."""
    if record.is_limerick is False:
        return "labelled is_limerick=false in the source"
    found = poem_lines(record.text)
    if len(found) != 5:
        return "not exactly 5 non-empty lines"
    scheme = rhyme_scheme("\n".join(found))
    if scheme != LIMERICK_SCHEME:
        return f"rhyme scheme is not {LIMERICK_SCHEME}"
    return None


@typed_options
def verify_limericks(
    records: Iterable[LimerickRecord], *, show_progress: bool = True
) -> VerificationReport:
    """Keep the true limericks of ``records`` (first of identical texts); count the rest."""
    report = VerificationReport()
    seen: set[str] = set()
    for record in tqdm(
        records, desc="verifying limericks", unit=" poems", disable=not show_progress
    ):
        problem = limerick_problem(record)
        if problem is None:
            limerick = Limerick(record.source_id, tuple(poem_lines(record.text)))
            if limerick.text in seen:
                problem = "same text as an earlier limerick"
            else:
                seen.add(limerick.text)
                report.kept.append(limerick)
        if problem is not None:
            report.dropped[problem] += 1
    return report


def _replace_end_word(line: str, old: str, new: str) -> str:
    # the last occurrence: the final word may also appear earlier in the line
    start = line.rfind(old)
    return line[:start] + new + line[start + len(old) :]


def _with_lines(limerick: Limerick, changes: dict[int, str]) -> str:
    return "\n".join(changes.get(i, line) for i, line in enumerate(limerick.lines))


def rhyme_word_swap(limerick: Limerick, rng: random.Random) -> Corruption | None:
    """Swap the final words of two rhyming lines (a random pair with different words)."""
    pairs = [
        (i, j)
        for i, j in RHYMING_LINE_PAIRS
        if not same_word(limerick.end_word(i), limerick.end_word(j))
    ]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    word_i, word_j = limerick.end_word(i), limerick.end_word(j)
    bad = _with_lines(
        limerick,
        {
            i: _replace_end_word(limerick.lines[i], word_i, word_j),
            j: _replace_end_word(limerick.lines[j], word_j, word_i),
        },
    )
    return Corruption("rhyme_word_swap", bad, (i, j), (word_i, word_j), (word_j, word_i))


def line_swap(limerick: Limerick, rng: random.Random) -> Corruption | None:
    """Swap two rhyming lines (a random pair of different lines)."""
    pairs = [(i, j) for i, j in RHYMING_LINE_PAIRS if limerick.lines[i] != limerick.lines[j]]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    bad = _with_lines(limerick, {i: limerick.lines[j], j: limerick.lines[i]})
    word_i, word_j = limerick.end_word(i), limerick.end_word(j)
    return Corruption("line_swap", bad, (i, j), (word_i, word_j), (word_j, word_i))


def word_before_end(line: str) -> str:
    """The word before a line's final word, lower-cased, without punctuation ("" if none)."""
    words = _WORDS.findall(line.lower())
    return words[-2] if len(words) >= 2 else ""


def partner_lines(index: int) -> tuple[int, ...]:
    """The other lines of line ``index``'s rhyme group."""
    group = next(group for group in RHYME_GROUPS if index in group)
    return tuple(i for i in group if i != index)


def replacement_synonyms(
    word: str, previous: str, partners: tuple[str, ...], finder: SynonymFinder
) -> tuple[Synonym, ...]:
    """Synonyms of ``word`` fit to replace it at a line end whose partner lines end in ``partners``.

    ``previous`` is the word before it (its part-of-speech cue, see
    :meth:`SynonymFinder.lemma_and_pos`). In CMUdict, different from ``word``, neither
    repeating nor possibly rhyming with any partner word (:func:`poetic_eval.rhyme.may_rhyme`).
    Capitalised or non-alphabetic words (names, "o'er") get none.
    """
    if not (word.isalpha() and word.islower()):
        return ()
    return tuple(
        synonym
        for synonym in finder.synonyms(word, previous)
        if in_dictionary(synonym.word)
        and not same_word(synonym.word, word)
        and not any(
            may_rhyme(synonym.word, partner) or same_word(synonym.word, partner)
            for partner in partners
        )
    )


def synonym_replace(
    limerick: Limerick,
    rng: random.Random,
    finder: SynonymFinder,
    cache: dict[tuple[str, str, tuple[str, ...]], tuple[Synonym, ...]] | None = None,
) -> Corruption | None:
    """Replace one final word by a non-rhyming synonym (random line, random valid synonym).

    ``cache`` (optional, owned by the caller) memoizes :func:`replacement_synonyms`.
    """
    order = list(range(len(limerick.lines)))
    rng.shuffle(order)
    for index in order:
        word = limerick.end_word(index)
        previous = word_before_end(limerick.lines[index])
        partners = tuple(limerick.end_word(i) for i in partner_lines(index))
        # everything the candidates depend on: the word, its part-of-speech cue and the words they
        # must not rhyme with
        key = (word, previous, partners)
        if cache is None or key not in cache:
            candidates = replacement_synonyms(word, previous, partners, finder)
            if cache is not None:
                cache[key] = candidates
        else:
            candidates = cache[key]
        if candidates:
            synonym = rng.choice(candidates)
            new_line = _replace_end_word(limerick.lines[index], word, synonym.word)
            return Corruption(
                "synonym_replace",
                _with_lines(limerick, {index: new_line}),
                (index,),
                (word,),
                (synonym.word,),
                synset=synonym.synset,
                pos=synonym.pos,
            )
    return None


@dataclass(frozen=True)
class MinimalPair:
    """A limerick and one corruption of it."""

    limerick: Limerick
    corruption: Corruption


@dataclass
class PairGeneration:
    """The pairs of one corruption and the counts behind them."""

    kind: str
    pairs: list[MinimalPair]
    requested: int
    without_candidate: int = 0
    duplicates: int = 0

    @property
    def capped(self) -> bool:
        return len(self.pairs) < self.requested


@typed_options
def generate_pairs(
    limericks: Sequence[Limerick],
    kind: str,
    n_pairs: int,
    seed: int,
    *,
    finder: SynonymFinder | None = None,
    show_progress: bool = True,
) -> PairGeneration:
    """Up to ``n_pairs`` pairs of corruption ``kind``, at most one per limerick.

    The limericks are visited in an order shuffled by ``seed`` (independently per ``kind``);
    each yields its corruption or is skipped when it has none. Identical (good, bad) pairs are
    kept once. Fewer than ``n_pairs`` pairs (``capped``) means every limerick of the source
    gave its one pair or had no valid corruption.
    """
    require_choice(kind, CORRUPTIONS, "corruption")
    corrupt = _corruption_function(kind, finder)
    # a str seed is hashed with SHA-512 (not hash()), so each kind's stream is its own and the
    # same in every process, whatever PYTHONHASHSEED
    rng = random.Random(f"bpomp/{kind}/{seed}")
    order = list(range(len(limericks)))
    rng.shuffle(order)
    generation = PairGeneration(kind, [], n_pairs)
    seen: set[tuple[str, str]] = set()
    with tqdm(total=n_pairs, desc=kind, unit=" pairs", disable=not show_progress) as bar:
        for index in order:
            if len(generation.pairs) >= n_pairs:
                break
            limerick = limericks[index]
            corruption = corrupt(limerick, rng)
            # a "corruption" that leaves the text as it was would make a pair with two good sides
            if corruption is None or corruption.bad == limerick.text:
                generation.without_candidate += 1
                continue
            key = (limerick.text, corruption.bad)
            if key in seen:
                generation.duplicates += 1
                continue
            seen.add(key)
            generation.pairs.append(MinimalPair(limerick, corruption))
            bar.update()
    return generation


def _corruption_function(
    kind: str, finder: SynonymFinder | None
) -> Callable[[Limerick, random.Random], Corruption | None]:
    if kind == "rhyme_word_swap":
        return rhyme_word_swap
    if kind == "line_swap":
        return line_swap
    if finder is None:
        finder = SynonymFinder()
    cache: dict[tuple[str, str, tuple[str, ...]], tuple[Synonym, ...]] = {}
    return lambda limerick, rng: synonym_replace(limerick, rng, finder, cache)
