"""Italian determiners and prepositions: the form that agrees with a noun and fits the next word.

The article depends on the noun's gender and number and on the sound of the word right after it
(the noun, or an adjective before it):

* masculine ``lo`` / ``gli`` / ``uno`` before s + consonant (*lo studente*), z (*lo zaino*),
  gn (*lo gnomo*), ps (*lo psicologo*), pn (*lo pneumatico*), x (*lo xilofono*), y
  (*lo yogurt*) and i + vowel (*lo iato*); ``gli`` also before a vowel (*gli alberi*);
* the rules read the spelling, which misleads for some loanwords: a word's ``onset``
  (:data:`ONSETS`) overrides it, e.g. *chef* begins with /ʃ/ as *sci-* does, so it takes
  ``lo`` (*lo chef, uno chef, dello chef, gli chef*) though its spelling says ``il``;
* ``lo`` and ``la`` elide before a vowel or h + vowel (*l'albero*, *l'amica*, *l'hotel*), not
  before i + vowel (*la iena*); ``una`` elides too (*un'amica*), ``un`` never takes an apostrophe;
* ``di``, ``a``, ``da``, ``in``, ``su`` fuse with the definite article (*del, dello, dell',
  della, dei, degli, delle*; *nel, nello, ...*); other prepositions stand apart (*con il*).

Determiner kinds (:data:`DETERMINERS`) are the ones the BLM templates use.
"""

from __future__ import annotations

from ...checks import require_choice

VOWELS = frozenset("aeiouàèéìíòóùú")
#: prepositions that fuse with the definite article, and their stem
FUSING_PREPOSITIONS = {"di": "de", "a": "a", "da": "da", "in": "ne", "su": "su"}
# what follows the stem of a fused preposition (or of quel-), by definite article
_FUSED_ENDINGS = {
    "il": "l",
    "lo": "llo",
    "l'": "ll'",
    "la": "lla",
    "i": "i",
    "gli": "gli",
    "le": "lle",
}

_POSSESSIVES = {("m", "sg"): "suo", ("f", "sg"): "sua", ("m", "pl"): "suoi", ("f", "pl"): "sue"}
_QUANTIFIER_STEMS = {"some": "alcun", "few": "poch", "many": "molt"}

#: determiner kind -> the numbers it goes with
DETERMINERS: dict[str, tuple[str, ...]] = {
    "def": ("sg", "pl"),  # il, lo, l', la, i, gli, le
    "indef": ("sg",),  # un, uno, una, un'
    "partitive": ("pl",),  # dei, degli, delle (not after a preposition)
    "some": ("pl",),  # alcuni, alcune
    "few": ("pl",),  # pochi, poche
    "many": ("sg", "pl"),  # molto, molta, molti, molte
    "dem": ("sg", "pl"),  # questo, questa, quest', questi, queste
    "that": ("sg", "pl"),  # quel, quello, quell', quella, quei, quegli, quelle
    "poss": ("sg", "pl"),  # il suo, la sua, i suoi, le sue; sua madre
    "poss_pl": ("sg", "pl"),  # their: il loro, la loro, i loro, le loro; la loro madre
    "qualche": ("sg",),
    "ogni": ("sg",),
    "card:due": ("pl",),
    "card:tre": ("pl",),
    "card:quattro": ("pl",),
    "card:cinque": ("pl",),
    "card:dieci": ("pl",),
    "card:quindici": ("pl",),
    "card:venti": ("pl",),
    "bare": ("sg", "pl"),
}


#: how a word begins, as the articles hear it (a lexicon noun's ``onset`` overrides its spelling)
ONSETS = {
    "vowel": "a vowel sound: l', un', gli, quell' (l'amica, l'hotel)",
    "lo": "s + consonant or a sound that patterns with it (z, gn, ps, pn, x, /ʃ/ as in chef, "
    "semivowel i/y as in yogurt): lo, uno, gli",
    "consonant": "any other consonant: il, un, i",
}


def spelled_onset(word: str) -> str:
    """The onset (:data:`ONSETS`) the spelling of ``word`` gives."""
    if takes_lo(word):
        return "lo"
    return "vowel" if starts_with_vowel(word) else "consonant"


def _onset(next_word: str, onset: str | None) -> str:
    if onset is None:
        return spelled_onset(next_word)
    return require_choice(onset, ONSETS, "onset")


def starts_with_vowel(word: str) -> bool:
    """A vowel sound first: a vowel, or h + vowel (*hotel*); i + vowel is a glide, not a vowel."""
    word = word.lower()
    if word[:1] == "h":
        word = word[1:]
    if not word or word[0] not in VOWELS:
        return False
    return not (word[0] == "i" and len(word) > 1 and word[1] in VOWELS)


def takes_lo(word: str) -> bool:
    """Whether a masculine ``word`` takes lo/gli/uno.

    It does before s + consonant, z, gn, ps, pn, x, y and i + vowel.
    """
    word = word.lower()
    if not word:
        return False
    if word[0] == "s":
        return len(word) > 1 and word[1] not in VOWELS
    if word[0] in "zxy":
        return True
    if word.startswith(("gn", "ps", "pn")):
        return True
    return word[0] == "i" and len(word) > 1 and word[1] in VOWELS


def definite_article(gender: str, number: str, next_word: str, *, onset: str | None = None) -> str:
    """il / lo / l' / la / i / gli / le for a noun of ``gender`` (m/f) and ``number`` (sg/pl).

    ``onset`` (:data:`ONSETS`), when given, is how ``next_word`` begins, overriding its spelling.
    """
    _check(gender, number)
    sound = _onset(next_word, onset)
    if gender == "m":
        if number == "sg":
            return {"lo": "lo", "vowel": "l'"}.get(sound, "il")
        return "i" if sound == "consonant" else "gli"
    if number == "sg":
        return "l'" if sound == "vowel" else "la"
    return "le"


def indefinite_article(gender: str, next_word: str, *, onset: str | None = None) -> str:
    """un / uno / una / un' (singular only); ``onset`` as in :func:`definite_article`."""
    _check(gender, "sg")
    sound = _onset(next_word, onset)
    if gender == "m":
        return "uno" if sound == "lo" else "un"
    return "un'" if sound == "vowel" else "una"


def fuse(preposition: str, article: str) -> str:
    """``di`` + ``lo`` -> ``dello``; prepositions that do not fuse stay apart (``con il``)."""
    if article not in _FUSED_ENDINGS:
        raise ValueError(f"{article!r} is not a definite article")
    stem = FUSING_PREPOSITIONS.get(preposition)
    if stem is None:
        return f"{preposition} {article}"
    return stem + _FUSED_ENDINGS[article]


def determiner_words(
    kind: str,
    gender: str,
    number: str,
    next_word: str,
    *,
    kinship: bool = False,
    onset: str | None = None,
) -> list[str]:
    """The determiner of kind ``kind`` as words (an elided form ends in an apostrophe).

    ``next_word`` is the word that follows (adjective or noun); ``onset`` (:data:`ONSETS`) how
    it begins when its spelling misleads (*chef*: ``"lo"``); ``kinship`` marks a singular
    kinship noun, which takes a possessive without article (*sua madre*).
    """
    _check(gender, number)
    require_choice(kind, DETERMINERS, "determiner")
    if number not in DETERMINERS[kind]:
        raise ValueError(f"determiner {kind!r} does not take a {number} noun")
    article = definite_article(gender, number, next_word, onset=onset)
    if kind == "def":
        return [article]
    if kind == "indef":
        return [indefinite_article(gender, next_word, onset=onset)]
    if kind == "partitive":
        return [fuse("di", article)]
    if kind == "that":
        return ["que" + _FUSED_ENDINGS[article]]
    if kind == "dem":
        if number == "sg" and _onset(next_word, onset) == "vowel":
            return ["quest'"]
        return [_inflect("quest", gender, number)]
    if kind == "poss":
        possessive = _POSSESSIVES[(gender, number)]
        if kinship and number == "sg":
            return [possessive]
        return [definite_article(gender, number, possessive), possessive]
    if kind == "poss_pl":  # loro takes the article, kinship nouns too
        return [definite_article(gender, number, "loro"), "loro"]
    if kind in ("some", "few", "many"):
        return [_inflect(_QUANTIFIER_STEMS[kind], gender, number)]
    if kind.startswith("card:"):
        return [kind.split(":", 1)[1]]
    if kind == "bare":
        return []
    return [kind]  # qualche, ogni: invariable


def _inflect(stem: str, gender: str, number: str) -> str:
    return (
        stem
        + {("m", "sg"): "o", ("f", "sg"): "a", ("m", "pl"): "i", ("f", "pl"): "e"}[(gender, number)]
    )


def join_words(words: list[str]) -> str:
    """Words joined by spaces, except after an elided form (``l'`` + ``amica`` -> ``l'amica``)."""
    text = ""
    for word in words:
        if not word:
            continue
        if text and not text.endswith("'"):
            text += " "
        text += word
    return text


def prepositional_words(preposition: str, determiner: list[str]) -> list[str]:
    """A preposition before a determiner: fused with a leading definite article (*dalla sua*)."""
    if determiner and determiner[0] in _FUSED_ENDINGS:
        return [fuse(preposition, determiner[0]), *determiner[1:]]
    return [preposition, *determiner]


def _check(gender: str, number: str) -> None:
    if gender not in ("m", "f"):
        raise ValueError(f"gender must be 'm' or 'f', got {gender!r}")
    if number not in ("sg", "pl"):
        raise ValueError(f"number must be 'sg' or 'pl', got {number!r}")
