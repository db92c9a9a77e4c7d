"""German pronunciation from spelling, written with the ARPAbet symbols the rhyme model compares.

German spelling is close to its sound, so a word's rhyme is read from its letters by rules:

- **old spellings** of 17th-19th century verse read in their modern form (:func:`modern_spelling`):
  "th" -> "t" ("Thal", "Muth"), "dt" after a long vowel ("todt"), "ey"/"ay" -> "ei"/"ai",
  "y" -> "i" ("seyn", "Reych"), "ae"/"oe"/"ue" -> "ä"/"ö"/"ü" after a consonant ("laege"),
  the circumflex of normalized Middle High German ("rîche") marks a long vowel;
- **vowel length**: long when doubled ("Meer"), before a silent "h" ("Wahn"), "ie", in an open
  syllable ("Leben"), and before one final consonant ("Tag", "gut"); short before two or more
  consonants or a doubled one ("Hand", "Himmel", "Stadt"), and in a list of short function
  words ("an", "mit", "hin"); "ß" keeps the vowel long before a vowel ("grüßen") and in a list
  of stems ("Fuß", "groß"), and marks a short one elsewhere, as in the old "daß", "muß";
- **diphthongs**: "ei"/"ai" one sound, "eu"/"äu"/"oi" another, "au" a third;
- **umlauts as German poets rhyme them** (the convention of the gold annotations, where
  "Gründe" / "binde", "tönen" / "Sehnen" rhyme): "ü" is read as "i" and "ö" as "e", long or
  short; "ä" is "e" (long "ä" as long "e": "wär" / "schwer");
- **consonants**: final devoicing ("-b", "-d", "-g", "-s", "-v" -> "p", "t", "k", "s", "f" at a
  syllable's end: "Grab", "Feld", "Tag"), "-ig" as "-ich", "ch" one sound ("ich", "ach", as in
  their rhymes; "chs" is "ks"), "sch", "s"/"ss"/"ß", "z"/"tz" = "ts", "ng", "pf", "qu", "v"
  = "f", "w" = "v", "-tion" = "-tsion";
- **stress**: the rhyme starts at the last *full* vowel; a final syllable in "e" with only
  "n", "r", "l", "m", "s", "t", "d" after it ("-e", "-en", "-er", "-el", "-es", "-est",
  "-end") is a schwa, so "Stunde" / "Munde" is a feminine rhyme on "-unde"; the suffixes "-ig",
  "-ich", "-lich", "-isch", "-ung", "-nis", "-ling", "-chen", "-lein" are unstressed, "-heit",
  "-keit", "-schaft", "-tum", "-sam", "-bar" carry a secondary stress ("Zeit" / "Einsamkeit").
  The main stress (for meter) is on the first full vowel, after an unstressed prefix ("be-",
  "ge-", "ver-", "zer-", "ent-", "emp-") when another full vowel follows.

Vowels (stress digit 1 main, 2 secondary, 0 none): long a AA, short a AE, long e/ä/ö EY,
short e/ä/ö EH, long i/ü IY, short i/ü IH, long o OW, short o AO, long u UW, short u UH, ei AY,
au AW, eu OY, schwa AH0 (reduced "@" in the rhyme model). Consonants: ARPAbet, with HH for
"ch" (German has no /h/ at a syllable's end, so the two never meet).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

_UMLAUTS = "äöü"
_VOWEL_LETTERS = frozenset("aeiouyäöü")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_CIRCUMFLEX = str.maketrans({"â": "aa", "ê": "ee", "î": "ie", "ô": "oo", "û": "uh"})

# Graphemes, longest first; each is (letters, kind, value). Vowels: value is a quality key of
# _VOWELS with "L" (long), "S" (short, unless the syllable rules lengthen it) or "D" (a
# diphthong); consonants: value is their phones.
_VOWEL_GRAPHEMES = {
    "ieh": "iL", "aa": "aL", "ee": "eL", "oo": "oL", "ie": "iL", "ah": "aL", "eh": "eL",
    "ih": "iL", "oh": "oL", "uh": "uL", "äh": "äL", "öh": "öL", "üh": "üL",
    "ei": "AYD", "ai": "AYD", "au": "AWD", "eu": "OYD", "äu": "OYD", "oi": "OYD",
    "a": "aS", "e": "eS", "i": "iS", "o": "oS", "u": "uS", "ä": "äS", "ö": "öS", "ü": "üS",
}  # fmt: skip
_CONSONANT_GRAPHEMES = {
    "tsch": "CH", "ssch": "S SH", "sch": "SH", "chs": "K S", "ch": "HH", "ck": "K", "ng": "NG",
    "pf": "P F",
    "ph": "F", "qu": "K V", "tz": "T S", "ss": "S", "ß": "S", "b": "B", "c": "K", "d": "D",
    "f": "F", "g": "G", "h": "HH", "j": "Y", "k": "K", "l": "L", "m": "M", "n": "N", "p": "P",
    "r": "R", "s": "Z", "t": "T", "v": "F", "w": "V", "x": "K S", "z": "T S",
}  # fmt: skip
_GRAPHEMES = sorted({**_VOWEL_GRAPHEMES, **_CONSONANT_GRAPHEMES}, key=len, reverse=True)
_GRAPHEME = re.compile("|".join(map(re.escape, _GRAPHEMES)) + "|.")
# Graphemes that close a syllable by themselves (the vowel before them is short).
_CLUSTERS = frozenset({"tsch", "ssch", "sch", "chs", "ck", "ng", "pf", "tz", "ss"})

_VOWELS = {  # quality -> (long, short)
    "a": ("AA", "AE"), "e": ("EY", "EH"), "ä": ("EY", "EH"), "ö": ("EY", "EH"),
    "i": ("IY", "IH"), "ü": ("IY", "IH"), "o": ("OW", "AO"), "u": ("UW", "UH"),
}  # fmt: skip
SCHWA = "AH"

# A final syllable "e" + these consonant letters only is a schwa syllable.
_SCHWA_SYLLABLE = re.compile(r"e(?:|n|r|l|m|s|t|st|nd|ns|rn|ln|rs|ls|nt|rt|lt|rst|lst|nst|ms)$")
# An onset cluster that begins a word, not a schwa syllable: "grabes-schwer", "Morgen-brot".
_WORD_ONSET = re.compile(r"(?:sch[wlmnr]|[bdfgkpt][rl]|zw|kn|sp)$")
_UNSTRESSED_SUFFIXES = ("lich", "isch", "ung", "nis", "ling", "chen", "lein", "ig", "ich")
_SECONDARY_SUFFIXES = ("heit", "keit", "schaft", "tum", "sam", "bar")
_PREFIXES = ("emp", "ent", "ver", "zer", "be", "ge")
# Short vowels before one final consonant (function words and particles).
_SHORT_WORDS = frozenset({
    "ab", "am", "an", "as", "bis", "bin", "dann", "das", "des", "es", "hat", "hin", "im", "in",
    "man", "mit", "ob", "um", "von", "vom", "was", "weg", "wes", "zum", "ins", "ans",
    "wird", "ist", "dich", "mich", "sich", "ich", "ach", "doch", "noch", "nach",
})  # fmt: skip
# Long vowels before a final "ß" or "ch" (elsewhere these mark or allow a short vowel).
_LONG_BEFORE_SS = ("fuß", "gruß", "groß", "bloß", "maß", "spaß", "stoß", "süß", "schoß",
                   "floß", "kloß", "saß", "fraß", "vergaß", "größ", "mäß")  # fmt: skip
_LONG_BEFORE_CH = ("buch", "tuch", "fluch", "such", "hoch", "nach", "sprach", "brach", "stach",
                   "kuch", "besuch", "versuch")  # fmt: skip
_DEVOICED = {"B": "P", "D": "T", "G": "K", "Z": "S", "V": "F"}
_SONORANTS = frozenset({"L", "R", "M", "N", "NG", "Y"})


def normalize_german(word: str) -> str:
    """Lower-case ``word`` keeping "ä", "ö", "ü" and "ß"; other accents dropped (a circumflex
    marks a long vowel); apostrophes and edge hyphens removed, a compound's last part kept."""
    word = unicodedata.normalize("NFC", word.translate(_APOSTROPHES).lower()).translate(_CIRCUMFLEX)
    kept = []
    for ch in word:
        if ch in _UMLAUTS or ch == "ß":
            kept.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch)[0]
        if base.isalpha() or base == "-":
            kept.append(base)
    return "".join(kept).strip("-").rsplit("-", 1)[-1]


def modern_spelling(word: str) -> str:
    """A normalized word's old spellings in their modern form (see the module docstring)."""
    word = re.sub(r"(?<=[^aeiouäöüq])ae", "ä", word)
    word = re.sub(r"(?<=[^aeiouäöüq])oe", "ö", word)
    word = re.sub(r"(?<=[^aeiouäöüq])ue(?![aeiou])", "ü", word)
    word = word.replace("th", "t").replace("ey", "ei").replace("ay", "ai")
    word = re.sub(r"(?<=[aeiouäöü])dt", "t", word) if re.search(r"(?:o|aa|ee)dt", word) else word
    word = word.replace("dt", "tt")
    word = re.sub(r"y(?=[aeiouäöü])", "j", word) if word.startswith("y") else word
    return word.replace("y", "i")


class _Vowel(NamedTuple):
    index: int  # position in the grapheme list
    quality: str  # key of _VOWELS, or a diphthong's phone
    marked_long: bool


def _graphemes(word: str) -> list[str]:
    return _GRAPHEME.findall(word)


@lru_cache(maxsize=200_000)
def _analysis(word: str) -> tuple[tuple[str, ...], tuple[_Vowel, ...]]:
    """(graphemes, vowels) of a modern-spelled word; "h" after a vowel joins it (silent)."""
    graphemes = _graphemes(word)
    vowels = []
    for index, grapheme in enumerate(graphemes):
        value = _VOWEL_GRAPHEMES.get(grapheme)
        if value is None:
            continue
        if value.endswith("D"):
            vowels.append(_Vowel(index, value[:-1], True))
        else:
            vowels.append(_Vowel(index, value[0], value[1] == "L"))
    return tuple(graphemes), tuple(vowels)


def _suffix_start(word: str, suffixes: tuple[str, ...]) -> int:
    """Letter position where one of ``suffixes`` ends the word after at least one more vowel,
    or -1."""
    for suffix in suffixes:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and any(ch in _VOWEL_LETTERS for ch in stem):
            return len(stem)
    return -1


def _stresses(word: str, graphemes: tuple[str, ...], vowels: tuple[_Vowel, ...]) -> list[str]:
    """Stress of each vowel: "0" schwa, "u" unstressed full vowel, "2" secondary, "1" main."""
    starts = [sum(map(len, graphemes[: v.index])) for v in vowels]
    marks = ["2"] * len(vowels)
    last = len(vowels) - 1
    tail = word[starts[last] :] if vowels else ""
    if last >= 1 and vowels[last].quality == "e" and not vowels[last].marked_long:
        onset = word[: starts[last]][len(word[: starts[last - 1] + 1]) :]
        if _SCHWA_SYLLABLE.fullmatch(tail) and not _WORD_ONSET.search(onset):
            marks[last] = "0"
    for suffixes, mark in ((_UNSTRESSED_SUFFIXES, "u"), (_SECONDARY_SUFFIXES, "2")):
        start = _suffix_start(word, suffixes)
        if start >= 0:
            for k, position in enumerate(starts):
                if position >= start and marks[k] != "0":
                    marks[k] = mark
            break
    full = [k for k, mark in enumerate(marks) if mark == "2"]
    if not full:
        full = [k for k, mark in enumerate(marks) if mark == "u"] or [0]
        marks[full[-1]] = "2"
    main = full[0]
    prefix = next((p for p in _PREFIXES if word.startswith(p)), None)
    if prefix and main == 0 and len(full) > 1 and starts[1] >= len(prefix):
        marks[0], main = "0", full[1]
    marks[main] = "1"
    return marks


def _is_long(word: str, graphemes: tuple[str, ...], vowel: _Vowel, stress: str) -> bool:
    """Vowel length of a single vowel letter by the syllable rules (module docstring)."""
    if vowel.marked_long:
        return True
    if stress in "0u":
        return False
    after = []
    for grapheme in graphemes[vowel.index + 1 :]:
        if grapheme in _VOWEL_GRAPHEMES:
            break
        after.append(grapheme)
    if not after:
        return True  # open final syllable or hiatus: "du", "so", "Ruinen"
    at_end = vowel.index + 1 + len(after) == len(graphemes)
    first = after[0]
    through = "".join(graphemes[: vowel.index + 2])  # the word up to the first consonant
    if first == "ß":
        return (len(after) == 1 and not at_end) or through.endswith(_LONG_BEFORE_SS)
    if first == "ch":
        return through.endswith(_LONG_BEFORE_CH) and (len(after) == 1 or after[1] != "t")
    if first in _CLUSTERS or (len(after) > 1 and after[1] == first):
        return False  # "Hand" no, but "Himmel", "Stadt" (read "statt"), "Tisch": short
    if len(after) == 1:
        if at_end:  # one final consonant: long ("Tag", "gut") except in short words
            return word not in _SHORT_WORDS and not word.endswith(_SHORT_ENDINGS)
        return True  # open syllable: "Leben", "Vater"
    return False


# Short final syllables that end compounds ("dahin", "damit", "woran", "herum").
_SHORT_ENDINGS = ("hin", "mit", "an", "von", "bin", "um")


def _vowel_phone(word, graphemes, vowel: _Vowel, stress: str) -> str:
    digit = {"1": "1", "2": "2", "u": "0", "0": "0"}[stress]
    if stress == "0":
        return SCHWA + "0"
    if vowel.quality in ("AY", "AW", "OY"):
        return vowel.quality + ("2" if digit == "0" else digit)
    long, short = _VOWELS[vowel.quality]
    return (long if _is_long(word, graphemes, vowel, stress) else short) + digit


def _consonant_phones(graphemes: tuple[str, ...], index: int) -> list[str]:
    grapheme = graphemes[index]
    nxt = graphemes[index + 1] if index + 1 < len(graphemes) else ""
    previous = graphemes[index - 1] if index else ""
    if grapheme == "h":
        return ["HH"] if not previous or previous not in _VOWEL_GRAPHEMES else []
    if grapheme == "ch" and index == 0 and nxt[:1] in ("r", "l", "a", "o"):
        return ["K"]
    if grapheme == "c" and nxt[:1] in ("e", "i", "ä", "y"):
        return ["T", "S"]
    if grapheme == "s" and index == 0 and nxt in ("p", "t"):
        return ["SH"]
    if grapheme == "s":
        voiced = nxt[:1] in _VOWEL_LETTERS and (
            not previous or previous in _VOWEL_GRAPHEMES or previous in ("l", "n", "r", "m")
        )
        return ["Z" if voiced else "S"]
    if grapheme == "n" and nxt == "k":
        return ["NG"]
    if grapheme == previous and len(grapheme) == 1:
        return []  # the second letter of a doubled consonant
    found = _CONSONANT_GRAPHEMES.get(grapheme)
    return found.split() if found else []


def _devoice(phones: list[str]) -> list[str]:
    """Final devoicing: a voiced obstruent before the end or another obstruent."""
    out = list(phones)
    for i in range(len(out) - 1, -1, -1):
        if out[i] in _DEVOICED:
            following = out[i + 1] if i + 1 < len(out) else None
            if following is None or (following[-1] not in "012" and following not in _SONORANTS):
                out[i] = _DEVOICED[out[i]]
    return out


@lru_cache(maxsize=200_000)
def german_pronunciation(word: str) -> str:
    """ARPAbet-style phones of a German word with stress digits (see the module docstring);
    "" for a word without a vowel letter."""
    word = modern_spelling(normalize_german(word))
    if word.endswith("tion"):
        word = word[:-4] + "tsjon"
    elif word.endswith("sion"):
        word = word[:-4] + "sjon"
    graphemes, vowels = _analysis(word)
    if not vowels:
        return ""
    stresses = _stresses(word, graphemes, vowels)
    by_index = {v.index: (v, s) for v, s in zip(vowels, stresses)}
    phones: list[str] = []
    for index, grapheme in enumerate(graphemes):
        if index in by_index:
            vowel, stress = by_index[index]
            phones.append(_vowel_phone(word, graphemes, vowel, stress))
        elif grapheme.isalpha() or grapheme == "ß":
            phones += _consonant_phones(graphemes, index)
    phones = _devoice(phones)
    return " ".join(_ig_as_ich(phones))


def _ig_as_ich(phones: list[str]) -> list[str]:
    """Final "-ig" (also before a consonant: "ewigt", "Königs") is pronounced "-ich"."""
    for i in range(1, len(phones)):
        if phones[i] == "K" and phones[i - 1] == "IH0":
            following = phones[i + 1] if i + 1 < len(phones) else None
            if following is None or following[-1] not in "012":
                phones[i] = "HH"
    return phones


def german_syllable_count(word: str) -> int:
    """Syllables of a German word from its spelling (one per vowel or diphthong); 0 for a word
    without a vowel letter."""
    return sum(phone[-1] in "012" for phone in german_pronunciation(word).split())


def german_stress_pattern(word: str) -> str | None:
    """Stress digits of a German word's syllables ("1" main, "2" secondary, "0" none), e.g.
    "10" for "Leben", "010" for "gewesen"; None for a word without a vowel letter."""
    digits = "".join(phone[-1] for phone in german_pronunciation(word).split()
                     if phone[-1] in "012")  # fmt: skip
    return digits or None


def german_spelling_ending(word: str) -> str | None:
    """The written ending a rhyme compares: from the vowel letters of the last full syllable
    onward ("Stunde" -> "unde", "Zeit" -> "eit"); None without a vowel letter."""
    letters = modern_spelling(normalize_german(word))
    stem = letters
    match = _SCHWA_SYLLABLE.search(letters)
    if match and any(ch in _VOWEL_LETTERS for ch in letters[: match.start()]):
        stem = letters[: match.start()]
    index = len(stem) - 1
    while index >= 0 and stem[index] not in _VOWEL_LETTERS:
        index -= 1
    if index < 0:
        return None
    while index > 0 and stem[index - 1] in _VOWEL_LETTERS:
        index -= 1
    return letters[index:]
