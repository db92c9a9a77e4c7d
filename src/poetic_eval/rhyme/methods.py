"""The rhyme methods every rhyme function and metric accepts, and how options select them.

- ``"learned"`` (the default): the graded rhyme score of
  :mod:`poetic_eval.rhyme.pair_model`, learned from poems (English without labels; German
  from gold schemes), and joint scheme inference (:mod:`poetic_eval.rhyme.scheme_decoder`):
  the most probable scheme under a prior over schemes, so that ABAB with one slant or
  historical pair beats ABAC.
- ``"perfect"``: perfect rhyme of the last stressed vowel onward (English: CMUdict and its
  fallbacks; German: spelling rules), schemes by the transitive closure of pairwise rhymes;
  ``weak``, ``near`` and ``historical`` widen it
  (:func:`poetic_eval.rhyme.word_rhymes.perfect_rhymes`,
  :func:`poetic_eval.rhyme.german_rhymes.german_perfect_rhymes`). These options belong to this
  method: passing any of them without ``method`` selects it, as before the learned method
  existed, and passing them with ``method="learned"`` is an error.

:func:`rhymes`, the per-pair test of both methods, lives here beside :func:`resolve_method`, so
that no module of the package imports one that imports it back (issue 38).
"""

from __future__ import annotations

from ..checks import require_choice, typed_options
from ..errors import InvalidValueError
from ..text.languages import resolve_language
from .german_rhymes import german_perfect_rhymes
from .pair_model import graded_rhymes
from .word_rhymes import perfect_rhymes

LEARNED, PERFECT = "learned", "perfect"
METHODS = (LEARNED, PERFECT)
DEFAULT_METHOD = LEARNED


@typed_options
def resolve_method(
    method: str | None, *, weak: bool = False, near: bool = False, historical: bool = False
) -> str:
    """The method a call asked for (see the module docstring)."""
    widened = weak or near or historical
    if method is None:
        return PERFECT if widened else DEFAULT_METHOD
    require_choice(method, METHODS, "rhyme method")
    if method == LEARNED and widened:
        raise InvalidValueError(
            "weak, near and historical widen method='perfect'; the learned method already "
            "weighs weak, slant, eye and historical rhymes (pass method='perfect' to use them)"
        )
    return method


@typed_options
def rhymes(
    a: str,
    b: str,
    *,
    method: str | None = None,
    weak: bool = False,
    near: bool = False,
    historical: bool = False,
    language: str = "en",
) -> bool:
    """Whether two different words rhyme (case-insensitive; identical words never do).

    - ``method="learned"`` (the default): the graded score of the learned model of ``language``
      is above its threshold (:func:`poetic_eval.rhyme.pair_model.graded_rhymes`): perfect
      rhymes, and the slant, eye, weak and historical rhymes poets wrote ("love" / "prove",
      "eye" / "symmetry"; German "Leiden" / "Freuden", "Gründe" / "binde").
    - ``method="perfect"``: :func:`poetic_eval.rhyme.word_rhymes.perfect_rhymes` (English) or
      :func:`poetic_eval.rhyme.german_rhymes.german_perfect_rhymes` (German), widened by
      ``weak``, ``near`` and ``historical`` (English only), which select this method when
      ``method`` is not given.

    ``language``: "en" (CMUdict and English spelling rules) or "de" (German spelling rules,
    :mod:`poetic_eval.rhyme.german_sounds`); another code is an error with the choices.
    Within a stanza, :func:`poetic_eval.rhyme.rhyme_scheme` decides jointly and can accept a
    weaker pair that the stanza's scheme supports.
    """
    language = resolve_language(language)
    if resolve_method(method, weak=weak, near=near, historical=historical) == LEARNED:
        return graded_rhymes(a, b, language=language)
    if language == "de":
        return german_perfect_rhymes(a, b, weak=weak, near=near)
    return perfect_rhymes(a, b, weak=weak, near=near, historical=historical)
