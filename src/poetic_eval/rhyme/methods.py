"""The rhyme methods every rhyme function and metric accepts, and how options select them.

- ``"learned"`` (the default): the graded rhyme score of
  :mod:`poetic_eval.rhyme.pair_model`, learned from poems without labels, and joint scheme
  inference (:mod:`poetic_eval.rhyme.scheme_decoder`): the most probable scheme under a prior
  over schemes, so that ABAB with one slant or historical pair beats ABAC.
- ``"perfect"``: perfect rhyme of the last stressed vowel onward (CMUdict and its fallbacks),
  schemes by the transitive closure of pairwise rhymes; ``weak``, ``near`` and ``historical``
  widen it (:func:`poetic_eval.rhyme.word_rhymes.perfect_rhymes`). These options belong to this
  method: passing any of them without ``method`` selects it, as before the learned method
  existed, and passing them with ``method="learned"`` is an error.
"""

from __future__ import annotations

from ..checks import require_choice, typed_options

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
        raise ValueError(
            "weak, near and historical widen method='perfect'; the learned method already "
            "weighs weak, slant, eye and historical rhymes (pass method='perfect' to use them)"
        )
    return method
