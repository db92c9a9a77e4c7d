"""The mark of texts that were checked when they were made, so that checking them again at each
call can be skipped (:class:`~poetic_eval.text.corpus.PoemCorpus` is one).

It lives apart so that :func:`~poetic_eval.text.poem_inputs.require_texts`, which returns such
texts as they are, and the corpus, whose constructor calls ``require_texts``, do not import
each other.
"""

from __future__ import annotations


class CheckedTexts(tuple):
    """A tuple of texts already checked as :func:`~poetic_eval.text.require_texts` checks
    them (non-blank strings); ``require_texts`` returns it unchanged, keeping what it holds."""

    __slots__ = ()
