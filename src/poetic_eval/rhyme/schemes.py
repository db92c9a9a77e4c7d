"""Rhyme schemes of poems: letters over lines from the line-final words' rhymes.

By default (``method="learned"``) the scheme is inferred jointly over the stanza's lines under
the learned rhyme model (:mod:`poetic_eval.rhyme.scheme_decoder`); ``method="perfect"`` links
lines whose final words rhyme perfectly (optionally widened), closed transitively (union-find).
Letters follow first occurrence ("ABAB", limericks "AABBA"). By default a repeated line-final
word also links its lines, as in the paper's data (its "repetitions" are rhymes based on the
same word); ``link_repetitions=False`` turns that off.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..checks import typed_options
from ..errors import InvalidTypeError
from ..text.languages import resolve_language
from .german_rhymes import german_perfect_rhymes
from .german_sounds import normalize_german
from .letters import QUATRAIN_SCHEMES, SCHEME_LETTERS, end_words, scheme_letter, scheme_of_links
from .methods import LEARNED, resolve_method
from .pair_model import default_model
from .word_rhymes import keys_rhyme, rhyme_key, wider_rhyme

__all__ = [
    "QUATRAIN_SCHEMES",
    "SCHEME_LETTERS",
    "end_words",
    "is_repetition",
    "perfect_scheme_of_words",
    "rhyme_scheme",
    "rhyme_schemes",
    "scheme_letter",
    "scheme_of_words",
    "schemes_of_words",
]


@typed_options
def perfect_scheme_of_words(
    words: list[str],
    *,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> str:
    """Scheme by the transitive closure (union-find) of pairwise perfect (or widened) rhymes."""
    if resolve_language(language) == "de":
        return _german_perfect_scheme(words, link_repetitions, weak=weak, near=near)
    keys = [rhyme_key(word) for word in words]

    def linked(i: int, j: int) -> bool:
        key_i, key_j = keys[i], keys[j]
        if key_i[0] and key_i[0] == key_j[0]:
            return link_repetitions
        return keys_rhyme(key_i, key_j) or wider_rhyme(
            key_i[0], key_j[0], weak=weak, near=near, historical=historical
        )

    pairs = combinations(range(len(words)), 2)
    return scheme_of_links(len(words), ((i, j) for i, j in pairs if linked(i, j)))


def _german_perfect_scheme(words: list[str], link_repetitions: bool, **widened: bool) -> str:
    normalized = [normalize_german(word) for word in words]

    def linked(i: int, j: int) -> bool:
        if normalized[i] and normalized[i] == normalized[j]:
            return link_repetitions
        return german_perfect_rhymes(words[i], words[j], **widened)

    pairs = combinations(range(len(words)), 2)
    return scheme_of_links(len(words), ((i, j) for i, j in pairs if linked(i, j)))


@typed_options
def schemes_of_words(
    stanzas: Sequence[list[str]],
    *,
    method: str | None = None,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> list[str]:
    """Rhyme schemes of many lists of line-final words (see :func:`rhyme_scheme`); the learned
    method decodes stanzas of one length together."""
    language = resolve_language(language)
    method = resolve_method(method, weak=weak, near=near, historical=historical)
    if method == LEARNED:
        return default_model(language).schemes([list(words) for words in stanzas],
                                               link_repetitions=link_repetitions)  # fmt: skip
    return [
        perfect_scheme_of_words(list(words), link_repetitions=link_repetitions, weak=weak,
                                near=near, historical=historical, language=language)
        for words in stanzas
    ]  # fmt: skip


@typed_options
def scheme_of_words(
    words: list[str],
    *,
    method: str | None = None,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> str:
    """Rhyme scheme over a list of line-final words; options as :func:`rhyme_scheme`'s."""
    return schemes_of_words(
        [words], method=method, link_repetitions=link_repetitions, weak=weak, near=near,
        historical=historical, language=language,
    )[0]  # fmt: skip


@typed_options
def rhyme_scheme(
    poem: str,
    *,
    method: str | None = None,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> str:
    """Rhyme scheme of ``poem`` (lines separated by "\\n"; blank lines ignored), e.g. "ABAB".

    Letters follow first occurrence; any number of lines (a limerick gives "AABBA").

    - ``method="learned"`` (the default): the most probable scheme of the line-final words
      under the learned rhyme model, jointly over all lines (:mod:`poetic_eval.rhyme.methods`):
      slant, eye, weak and historical rhymes count as far as poets used them, and a scheme the
      stanza's other rhymes make likely can carry a weak pair.
    - ``method="perfect"``: lines whose final words rhyme perfectly (:func:`rhymes` with
      ``method="perfect"``) share a letter, closed transitively (union-find: if lines 1-2 and
      2-3 rhyme, 1 and 3 share a letter). ``weak``, ``near`` and ``historical`` also link those
      wider rhymes, and select this method when ``method`` is not given.

    With ``link_repetitions`` (the default), lines ending in the same word also share a letter
    (the paper counts such repetitions as rhymes and reports them apart; see
    :func:`is_repetition`).

    ``language``: "en" (the default; CMUdict and English spelling rules) or "de" (German
    spelling rules, :mod:`poetic_eval.rhyme.german_sounds`, and the model learned from German
    verse); ``historical`` has no German rule. Another code is an error with the choices.
    """
    if not isinstance(poem, str):
        raise InvalidTypeError(f"poem must be a string, got {type(poem).__name__}")
    return scheme_of_words(
        end_words(poem), method=method, link_repetitions=link_repetitions, weak=weak,
        near=near, historical=historical, language=language,
    )  # fmt: skip


@typed_options
def rhyme_schemes(
    poems: Sequence[str],
    *,
    method: str | None = None,
    link_repetitions: bool = True,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> list[str]:
    """:func:`rhyme_scheme` of each poem, batched (faster for many poems); same options."""
    for index, poem in enumerate(poems):
        if not isinstance(poem, str):
            raise InvalidTypeError(f"poems[{index}] must be a string, got {type(poem).__name__}")
    return schemes_of_words(
        [end_words(poem) for poem in poems], method=method, link_repetitions=link_repetitions,
        weak=weak, near=near, historical=historical, language=language,
    )  # fmt: skip


def is_repetition(poem: str, scheme: str | None = None, *, language: str = "en") -> bool:
    """The paper's reference definition of a repetition, on this module's line-final words.

    True when the line-final words (:func:`end_words`, compared case-sensitively, as in the
    reference code) contain a duplicate AND the poem's scheme is not all-distinct ("ABCD" for a
    quatrain). The reference takes the last whitespace token and strips ASCII punctuation, which
    agrees wherever punctuation is attached to the word; on text that sets punctuation apart
    ("sight !", as in many digitised editions) it would compare empty strings, so the line-final
    word rule of the rhyme scheme is used instead, and lines without a word never count.
    ``scheme`` may be passed when already computed; ``language`` is :func:`rhyme_scheme`'s.
    """
    words = [word for word in end_words(poem) if word]
    scheme = rhyme_scheme(poem, language=language) if scheme is None else scheme
    rhyming = len(set(scheme)) < len(scheme)
    return rhyming and len(set(words)) < len(words)
