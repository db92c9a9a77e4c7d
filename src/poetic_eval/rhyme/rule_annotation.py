"""Gold rhyme schemes for stanzas: human annotations (EPG64) and annotations by form rules.

Only EPG64 carries human rhyme annotations. For the other corpora a scheme is written down by
rule, where the form fixes it and the poem clearly is one:

- **Shakespeare's sonnets** (14 lines): ABAB CDCD EFEF GG by the form; units are the three
  quatrains, each ABAB.
- **Other sonnets** (form label "sonnet", 14 lines): the template among Shakespearean
  (ABABCDCDEFEFGG), Spenserian (ABABBCBCCDCDEE) and Petrarchan octaves (ABBAABBA, ABBACDDC)
  that perfect rhyme confirms on at least 70 % of its rhyming pairs, with no perfect rhyme
  between lines of different groups; units are its quatrains (and a Petrarchan octave).
- **Couplet poems** (form label "couplet", every stanza of even length): when at least 75 % of
  the couplets rhyme perfectly, each aligned quatrain is AABB, unless its two couplets rhyme
  perfectly with each other.
- **Stanzaic poems** (other forms; at least 3 stanzas, 75 % of them of 4 lines): the template
  among ABAB, ABCB, AABB and ABBA that fits at least 60 % of the 4-line stanzas (all its pairs
  rhyme perfectly, no other pair does) is the poem's; every 4-line stanza without a perfect
  rhyme across its groups gets it.
- **Limericks** (form label "limerick", 5 lines): AABBA, confirmed like a sonnet.

Perfect rhyme (:func:`poetic_eval.rhyme.word_rhymes.perfect_rhymes`, repetitions linked) is only
used to decide the form; inside a confirmed form, the pairs it misses are gold rhymes all the
same, and these are what the scheme inference must recover. The selection favours poems whose
rhymes are mostly perfect, so perfect rhyme scores higher here than on human annotations.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .corpora import Poem, author_key
from .letters import end_words, letters_by_first_occurrence
from .word_rhymes import perfect_rhymes, same_word

SONNET_TEMPLATES = {
    "shakespearean": ("ABABCDCDEFEFGG", 14, ((0, 4), (4, 8), (8, 12))),
    "spenserian": ("ABABBCBCCDCDEE", 14, ((0, 4), (4, 8), (8, 12))),
    "petrarchan": ("ABBAABBA", 8, ((0, 8), (0, 4), (4, 8))),
    "petrarchan_cddc": ("ABBACDDC", 8, ((0, 4), (4, 8))),
}
STANZA_TEMPLATES = ("ABAB", "ABCB", "AABB", "ABBA")
#: Share of a template's rhyming pairs perfect rhyme must confirm (sonnets, limericks).
CONFIRMED_SHARE = 0.7
COUPLET_SHARE = 0.75
STANZA_FIT_SHARE = 0.6


@dataclass(frozen=True)
class GoldUnit:
    """A stanza (or part of one) with its gold scheme, where it comes from, and its part."""

    lines: tuple[str, ...]
    gold: str
    author: str
    collection: str
    held_out: bool


def _linked(words: list[str]) -> list[list[bool]]:
    n = len(words)
    found = [[False] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        a, b = words[i], words[j]
        found[i][j] = found[j][i] = bool(a and b) and (same_word(a, b) or perfect_rhymes(a, b))
    return found


def template_fit(linked: list[list[bool]], template: str) -> tuple[int, int, int]:
    """(confirmed pairs, rhyming pairs of the template, perfect rhymes across its groups)."""
    confirmed = total = conflicts = 0
    for i, j in combinations(range(len(template)), 2):
        if template[i] == template[j]:
            total += 1
            confirmed += linked[i][j]
        else:
            conflicts += linked[i][j]
    return confirmed, total, conflicts


def _unit(poem: Poem, lines, gold: str, collection: str) -> GoldUnit:
    return GoldUnit(tuple(lines), gold, poem.author, collection, poem.held_out)


def sonnet_units(poem: Poem) -> list[GoldUnit]:
    """Quatrains (and Petrarchan octaves) of a 14-line sonnet whose form is clear."""
    lines = poem.lines
    shakespeare = author_key(poem.author) == "shakespeare"
    if len(lines) != 14 or not (poem.form == "sonnet" or shakespeare):
        return []
    if shakespeare:
        name = "shakespearean"
    else:
        linked = _linked(end_words("\n".join(lines)))
        fits = {}
        for name, (template, scope, _) in SONNET_TEMPLATES.items():
            confirmed, total, conflicts = template_fit(
                [row[:scope] for row in linked[:scope]], template
            )
            if conflicts == 0 and confirmed >= CONFIRMED_SHARE * total:
                fits[name] = confirmed / total
        best = sorted(fits.items(), key=lambda item: -item[1])
        # two templates that fit equally well leave the form unclear: no gold for this sonnet
        if not best or (len(best) > 1 and best[0][1] == best[1][1]):
            return []
        name = best[0][0]
    template, _, spans = SONNET_TEMPLATES[name]
    return [
        _unit(poem, lines[start:end], letters_by_first_occurrence(template[start:end]), "sonnets")
        for start, end in spans
    ]


def couplet_units(poem: Poem) -> list[GoldUnit]:
    """Aligned AABB quatrains of a poem in rhyming couplets."""
    if poem.form != "couplet" or any(len(stanza) % 2 for stanza in poem.stanzas):
        return []
    units = []
    rhymed = total = 0
    candidates = []
    for stanza in poem.stanzas:
        words = end_words("\n".join(stanza))
        linked = _linked(words)
        for k in range(0, len(stanza), 2):
            total += 1
            rhymed += linked[k][k + 1]
        for k in range(0, len(stanza) - 3, 4):
            if not any(linked[i][j] for i in (k, k + 1) for j in (k + 2, k + 3)):
                candidates.append(stanza[k : k + 4])
    if total < 4 or rhymed < COUPLET_SHARE * total:
        return []
    for lines in candidates:
        units.append(_unit(poem, lines, "AABB", "couplets"))
    return units


def stanzaic_units(poem: Poem) -> list[GoldUnit]:
    """4-line stanzas of a stanzaic poem whose scheme the poem's own stanzas make clear."""
    if poem.form in {"sonnet", "couplet", "limerick"} or len(poem.stanzas) < 3:
        return []
    quatrains = [stanza for stanza in poem.stanzas if len(stanza) == 4]
    if len(quatrains) < 3 or len(quatrains) < 0.75 * len(poem.stanzas):
        return []
    linked = [_linked(end_words("\n".join(stanza))) for stanza in quatrains]
    fits = {}
    for template in STANZA_TEMPLATES:
        fitting = 0
        for matrix in linked:
            confirmed, total, conflicts = template_fit(matrix, template)
            fitting += confirmed == total and conflicts == 0
        fits[template] = fitting / len(quatrains)
    template, share = max(fits.items(), key=lambda item: item[1])
    if share < STANZA_FIT_SHARE:
        return []
    return [
        _unit(poem, stanza, template, "stanzaic")
        for stanza, matrix in zip(quatrains, linked)
        if template_fit(matrix, template)[2] == 0
    ]


def limerick_units(poem: Poem) -> list[GoldUnit]:
    """5-line stanzas of a poem labelled a limerick, AABBA where perfect rhyme confirms it."""
    if poem.form != "limerick":
        return []
    units = []
    for stanza in poem.stanzas:
        if len(stanza) == 5:
            confirmed, total, conflicts = template_fit(
                _linked(end_words("\n".join(stanza))), "AABBA"
            )
            if conflicts == 0 and confirmed >= CONFIRMED_SHARE * total:
                units.append(_unit(poem, stanza, "AABBA", "limericks"))
    return units


def epg64_units(poem: Poem) -> list[GoldUnit]:
    """EPG64's human-annotated stanzas (of 2 lines or more)."""
    return [
        _unit(poem, stanza, gold, "epg64")
        for stanza, gold in zip(poem.stanzas, poem.golds)
        if gold is not None and len(stanza) >= 2
    ]


RULES = (epg64_units, sonnet_units, couplet_units, stanzaic_units, limerick_units)


def gold_units(poems: list[Poem]) -> list[GoldUnit]:
    """Every gold unit of ``poems``: EPG64's annotations; the form rules on the other corpora."""
    units = []
    for poem in poems:
        rules = (epg64_units,) if poem.source == "epg64" else RULES[1:]
        units += [unit for rule in rules for unit in rule(poem)]
    return units
