"""The words of a poem by the rules of its language: what lexical diversity and length count.

English (``"en"``) keeps the paper's tokens exactly (:func:`poetic_eval.text.tokens`):
lowercase, delete every punctuation character, split on whitespace. German (``"de"``) differs
where German text differs:

- **Unicode normalization (NFC).** An umlaut typed as a base letter and a combining
  diaeresis ("u" + U+0308) and the precomposed "ü" are one letter, so "für" is one type
  whichever way it was typed.
- **Lowercase with** :meth:`str.lower`, **not** :meth:`str.casefold`: casefolding turns
  "ß" into "ss" and would merge distinct words ("Maße" / "Masse", "Buße" / "Busse"); the
  capital "ẞ" (U+1E9E) lowers to "ß". Nouns lose their capital as every line-initial word
  does, as in the paper's reference code (``lowercase=False`` keeps case).
- **Dashes separate words.** German sets its dash with spaces (" – "), but verse texts often
  lose them ("Nacht–und"); a dash (every Unicode dash punctuation but the hyphens "-", U+2010
  and U+2011: en and em dash, figure dash, ...), the minus sign or a run of two or more
  hyphens is a space. A single hyphen is deleted as punctuation: "Rosen-Duft" becomes the compound
  "rosenduft", as German writes compounds closed, and the truncation hyphen of "Ein- und
  Ausgang" goes ("ein", "und", "ausgang").
- **Every apostrophe is deleted**, including those that are not punctuation in Unicode and
  survive the English rule: the acute accent "´" (U+00B4) and the modifier letter "ʼ"
  (U+02BC) that German typists use for the elisions of verse ("geht´s", "hab´", "ew´ge"), so
  "geht´s", "geht's" and "geht’s" are all "gehts".

German quotation marks („…“, ‚…‘, »…«, ›…‹) are punctuation in both rules.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

from ..checks import typed_options
from ..text import resolve_language, without_punctuation
from ..text import tokens as english_tokens

_HYPHEN_RUN = re.compile(r"-{2,}")  # "--" stands for a dash in typed text
_HYPHENS = frozenset("-\u2010\u2011")  # join or truncate words: deleted, not split at
_MINUS = "\u2212"
# apostrophes that are not Unicode punctuation (the others go with all punctuation)
_APOSTROPHES = "\u00b4\u02bc\u02b9"


@functools.cache
def _german_table() -> dict[int, str | None]:
    """Dashes to spaces, the non-punctuation apostrophes deleted; built on first use (a pass
    over all of Unicode)."""
    dashes = [
        chr(i)
        for i in range(sys.maxunicode + 1)
        if unicodedata.category(chr(i)) == "Pd" and chr(i) not in _HYPHENS
    ]
    table: dict[int, str | None] = {ord(dash): " " for dash in [*dashes, _MINUS]}
    table.update({ord(apostrophe): None for apostrophe in _APOSTROPHES})
    return table


def german_text(text: str, *, lowercase: bool = True, remove_punctuation: bool = True) -> str:
    """``text`` normalized by the German rules (module docstring), before the split."""
    text = unicodedata.normalize("NFC", text)
    if lowercase:
        text = text.lower()
    if remove_punctuation:
        text = without_punctuation(_HYPHEN_RUN.sub(" ", text).translate(_german_table()))
    return text


@typed_options
def word_tokens(
    text: str,
    *,
    language: str = "en",
    lowercase: bool = False,
    remove_punctuation: bool = False,
) -> list[str]:
    """Whitespace tokens of ``text`` by the rules of ``language`` (module docstring).

    With ``language="en"`` the same as :func:`poetic_eval.text.tokens`.
    """
    if resolve_language(language) == "en":
        return english_tokens(text, lowercase=lowercase, remove_punctuation=remove_punctuation)
    return german_text(text, lowercase=lowercase, remove_punctuation=remove_punctuation).split()


def word_count(text: str, *, language: str = "en", remove_punctuation: bool = True) -> int:
    """Number of tokens of a poem by the rules of ``language`` (its length, in the paper)."""
    return len(word_tokens(text, language=language, remove_punctuation=remove_punctuation))
