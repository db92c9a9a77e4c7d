"""The learned rhyme model: graded scores of word pairs and the priors over schemes.

The model (package data ``rhyme_model.json``, built by ``scripts/learn_rhyme_model.py`` with
:mod:`poetic_eval.rhyme.scheme_learning`) holds only numbers over phonetic classes, no text:

- three tables of log-likelihood ratios, log P(cell | rhyme) - log P(cell | not a rhyme), over
  the cells of :mod:`poetic_eval.rhyme.pair_features` (vowel pairs, rhyme shapes, written
  evidence);
- the score of a repeated word, used while learning (at inference a repetition links its lines
  or is neutral, see :meth:`RhymeModel.score`);
- log-priors over the schemes of 2- to 6-line stanzas and the sequential prior of longer ones
  (:mod:`poetic_eval.rhyme.scheme_decoder`);
- the pairwise decision threshold of :func:`graded_rhymes`.

A pair's **graded score** (:meth:`RhymeModel.score`) is the best candidate's sum of its three
cells: positive when the pair looks more like the rhymes poets wrote than like two random line
ends. Scores are cached per pair of normalized words (at most :data:`CACHE_LIMIT` pairs).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..errors import InvalidValueError
from ..text.languages import resolve_language
from .german_rhymes import german_perfect_rhymes
from .pair_features import (
    N_EVIDENCE_CELLS,
    N_SHAPE_CELLS,
    N_VOWEL_CELLS,
    SPELLING_LEVELS,
    evidence_spelling,
    spelling_agreement,
    stressed_alignment,
    unknown_candidate,
    weak_alignment,
)
from .scheme_decoder import TABLE_LINES, decode_many, scheme_table
from .word_forms import ENDINGS, FINALS, WordForms, dictionary_pronunciations, word_forms
from .word_rhymes import perfect_rhymes

#: The shipped model of each language (package data).
MODEL_FILES = {"en": "rhyme_model.json", "de": "rhyme_model_de.json"}
MODEL_FILE = MODEL_FILES["en"]
MODEL_FORMAT = 1
_EVIDENCE_STRIDE = 2 * len(SPELLING_LEVELS)
_LOW = (1 << 32) - 1
#: Score of a repeated line-final word when repetitions link lines: a hard link.
LINKED_REPETITION = 50.0
#: Score of a pair where one line has no word (digits, punctuation only): never a rhyme.
NO_WORD_SCORE = -50.0
#: Most pairs a model's caches hold; a full cache is emptied (scores are recomputed, the same).
CACHE_LIMIT = 500_000
_MISSING = object()


@dataclass
class RhymeModel:
    """Learned tables (see the module docstring); build with :func:`load_model`."""

    vowel: np.ndarray
    shape: np.ndarray
    evidence: np.ndarray
    repetition: float
    scheme_priors: dict[int, np.ndarray]
    join_prior: np.ndarray
    new_prior: float
    threshold: float
    info: dict = field(default_factory=dict)
    #: Cost of each pair of lines a scheme puts in one group when their words are not a certain
    #: rhyme (:meth:`certain_pairs`), subtracted from the pair's score when decoding: 0 is the
    #: plain Reddy & Knight model; above 0, a scheme links fewer line ends that only resemble a
    #: rhyme, while a perfect rhyme alone still links its lines (a window "wide ... tide" is
    #: ABAC). Set by the learning script (DEVELOPERS.md "The rhyme model").
    link_cost: float = 0.0
    #: Cost of a scheme that links lines but none of them by a certain rhyme (every link a
    #: resemblance: a weak, eye or near rhyme, or a guessed pronunciation), subtracted once from
    #: the scheme's score when decoding stanzas of 3 to 8 lines. Poets' near rhymes mostly
    #: stand beside perfect ones (ABAB with "love" / "prove" and "night" / "light"), while
    #: between unrelated line ends a resemblance is all there is; so a stanza read as rhyming
    #: on resemblances alone needs that much more evidence. A couplet's one pair has no other
    #: pair to stand beside: it pays only :attr:`link_cost`. 0 turns it off.
    uncertain_scheme_cost: float = 0.0
    #: The language whose spelling and sound rules read the words (:func:`word_forms`).
    language: str = "en"
    _cache: dict = field(default_factory=dict, repr=False)
    _sounds: dict = field(default_factory=dict, repr=False)
    _evidence_list: list = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        for name, size in (("vowel", N_VOWEL_CELLS), ("shape", N_SHAPE_CELLS),
                           ("evidence", N_EVIDENCE_CELLS)):  # fmt: skip
            table = getattr(self, name)
            if table.shape != (size,):
                raise InvalidValueError(
                    f"rhyme model table {name!r} has shape {table.shape}, want ({size},)"
                )
        for length, prior in self.scheme_priors.items():
            expected = len(scheme_table(length)[0])
            if prior.shape != (expected,):
                raise InvalidValueError(
                    f"rhyme model prior for {length} lines has {prior.shape[0]} schemes, "
                    f"want {expected}"
                )
        self._evidence_list = [float(x) for x in self.evidence]

    def score(self, a: str, b: str, *, link_repetitions: bool = True) -> float:
        """Graded rhyme score of two line-final words (a log-likelihood ratio).

        Identical words (case, accents and apostrophe style aside) are a repetition: with
        ``link_repetitions`` they score :data:`LINKED_REPETITION`, which puts their lines in one
        group whatever else the stanza holds (the convention of the paper's data and of human
        annotators), else 0 (no evidence either way). A line without a
        word never rhymes (:data:`NO_WORD_SCORE`).
        """
        forms_a, forms_b = word_forms(a, self.language), word_forms(b, self.language)
        return self._score_forms(forms_a, forms_b, link_repetitions)

    def _score_forms(self, forms_a: WordForms, forms_b: WordForms, link_repetitions: bool) -> float:
        if not forms_a.word or not forms_b.word:
            return NO_WORD_SCORE
        if forms_a.word == forms_b.word:
            return LINKED_REPETITION if link_repetitions else 0.0
        a, b = forms_a.key, forms_b.key
        key = (a << 32) | b if a < b else (b << 32) | a
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            found = self._cache[key] = self._best_candidate(forms_a, forms_b)
        return found

    def _best_candidate(self, a: WordForms, b: WordForms) -> float:
        """The best candidate's score, as max over :func:`pair_candidates` but with the sound
        part of each alignment cached per pair of endings (many words share one)."""
        spelling = spelling_agreement(a, b)
        if not a.forms or not b.forms:
            v, s, e = unknown_candidate(spelling)
            return float(self.vowel[v] + self.shape[s] + self.evidence[e])
        evidence, sounds = self._evidence_list, self._sounds
        best = -np.inf
        for ending_a, final_a, old_a in a.parts:
            for ending_b, final_b, old_b in b.parts:
                old = old_a or old_b
                for key in ((ending_a << 32) | ending_b, -(((final_a << 32) | final_b) + 1)):
                    sound = sounds.get(key, _MISSING)
                    if sound is _MISSING:
                        if len(sounds) >= CACHE_LIMIT:
                            sounds.clear()
                        sound = sounds[key] = self._sound(key)
                    if sound is not None:
                        match, level = evidence_spelling(sound[1], spelling)
                        total = sound[0] + evidence[match * _EVIDENCE_STRIDE + level * 2 + old]
                        best = max(best, total)
        return best

    def _sound(self, key: int) -> tuple[float, int] | None:
        """(vowel + shape score, match) of the alignment a cache key names: the stressed
        alignment of two endings (key >= 0) or the weak alignment of two final syllables."""
        if key >= 0:
            found = stressed_alignment(ENDINGS.values[key >> 32], ENDINGS.values[key & _LOW])
        else:
            key = -key - 1
            found = weak_alignment(FINALS.values[key >> 32], FINALS.values[key & _LOW])
        if found is None:
            return None
        return float(self.vowel[found[0]] + self.shape[found[1]]), found[2]

    def _stanza_scores(self, forms: list[WordForms], link_repetitions: bool) -> list[float]:
        n = len(forms)
        return [self._score_forms(forms[i], forms[j], link_repetitions)
                for i in range(n) for j in range(i + 1, n)]  # fmt: skip

    def certain_pairs(self, words: list[str]) -> list[bool]:
        """For each pair of ``words`` (decoder order): whether it rhymes for certain, as the
        same word or a perfect rhyme (``method="perfect"`` of the model's language) of two
        words whose pronunciation is known, not guessed (English: in CMUdict, with its rules
        and older spellings; German words are all read by the spelling rules)."""
        forms = [word_forms(w, self.language) for w in words]
        known = [self.language == "de" or bool(dictionary_pronunciations(f.word)) for f in forms]
        perfect = german_perfect_rhymes if self.language == "de" else perfect_rhymes
        n = len(words)
        return [
            forms[i].word == forms[j].word
            or (known[i] and known[j] and perfect(words[i], words[j]))
            for i in range(n)
            for j in range(i + 1, n)
        ]

    def link_costs(self, words: list[str]) -> list[float]:
        """:attr:`link_cost` for each pair of ``words`` (decoder order) that is not a certain
        rhyme (:meth:`certain_pairs`)."""
        return [0.0 if certain else self.link_cost for certain in self.certain_pairs(words)]

    def prior(self, length: int) -> np.ndarray | None:
        return self.scheme_priors.get(length) if length <= TABLE_LINES else None

    def schemes(self, stanzas: list[list[str]], *, link_repetitions: bool = True) -> list[str]:
        """Most probable scheme of each stanza (a list of line-final words), batched by length."""
        found: list[str] = [""] * len(stanzas)
        by_length: dict[int, list[int]] = {}
        known: dict[str, WordForms] = {}
        for index, words in enumerate(stanzas):
            by_length.setdefault(len(words), []).append(index)
            for word in words:
                if word not in known:
                    known[word] = word_forms(word, self.language)
        for length, indices in by_length.items():
            if length <= 1:
                for index in indices:
                    found[index] = "A" * length
                continue
            scores = np.array(
                [self._stanza_scores([known[w] for w in stanzas[i]], link_repetitions)
                 for i in indices],
                dtype=np.float64,
            ).reshape(len(indices), -1)  # fmt: skip
            uncertain = None
            if self.link_cost or self.uncertain_scheme_cost:
                certain = np.array([self.certain_pairs(stanzas[i]) for i in indices]).reshape(
                    scores.shape
                )
                scores -= self.link_cost * ~certain
                uncertain = (certain, self.uncertain_scheme_cost if length >= 3 else 0.0)
            decoded = decode_many(
                scores, length, self.prior(length), self.join_prior, self.new_prior, uncertain
            )
            for index, scheme in zip(indices, decoded):
                found[index] = scheme
        return found

    def to_json(self) -> dict:
        language = {} if self.language == "en" else {"language": self.language}
        cost = {"link_cost": round(float(self.link_cost), 3)} if self.link_cost else {}
        if self.uncertain_scheme_cost:
            cost["uncertain_scheme_cost"] = round(float(self.uncertain_scheme_cost), 3)
        return {
            "format": MODEL_FORMAT,
            **language,
            **cost,
            "info": self.info,
            "vowel": _rounded(self.vowel),
            "shape": _rounded(self.shape),
            "evidence": _rounded(self.evidence),
            "repetition": round(float(self.repetition), 3),
            "scheme_priors": {
                str(length): dict(zip(scheme_table(length)[0], _rounded(prior)))
                for length, prior in sorted(self.scheme_priors.items())
            },
            "join_prior": _rounded(self.join_prior),
            "new_prior": round(float(self.new_prior), 3),
            "threshold": round(float(self.threshold), 3),
        }


def _rounded(values) -> list[float]:
    return [round(float(x), 3) for x in values]


def model_from_json(data: dict) -> RhymeModel:
    """A :class:`RhymeModel` from the dictionary :meth:`RhymeModel.to_json` writes."""
    if data.get("format") != MODEL_FORMAT:
        raise InvalidValueError(
            f"rhyme model format {data.get('format')!r}; this version reads {MODEL_FORMAT}"
        )
    priors = {}
    for length, table in data["scheme_priors"].items():
        schemes = scheme_table(int(length))[0]
        floor = min(table.values())
        priors[int(length)] = np.array([table.get(s, floor) for s in schemes], dtype=np.float64)
    return RhymeModel(
        vowel=np.array(data["vowel"], dtype=np.float64),
        shape=np.array(data["shape"], dtype=np.float64),
        evidence=np.array(data["evidence"], dtype=np.float64),
        repetition=float(data["repetition"]),
        scheme_priors=priors,
        join_prior=np.array(data["join_prior"], dtype=np.float64),
        new_prior=float(data["new_prior"]),
        threshold=float(data["threshold"]),
        info=data.get("info", {}),
        language=data.get("language", "en"),
        link_cost=float(data.get("link_cost", 0.0)),
        uncertain_scheme_cost=float(data.get("uncertain_scheme_cost", 0.0)),
    )


def load_model(path: str | Path | None = None, *, language: str = "en") -> RhymeModel:
    """The model in ``path`` (a JSON file), or the one shipped with the package for
    ``language``."""
    if path is None:
        name = MODEL_FILES[resolve_language(language)]
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    return model_from_json(json.loads(text))


def default_model(language: str = "en") -> RhymeModel:
    """The shipped model of ``language``, loaded once."""
    return _shipped_model(resolve_language(language))


@cache
def _shipped_model(language: str) -> RhymeModel:
    return load_model(language=language)


def rhyme_score(a: str, b: str, *, language: str = "en") -> float:
    """Graded rhyme score of two line-final words under the shipped model of ``language`` (a
    log-likelihood ratio: above 0, more like the rhymes poets wrote than like two random line
    ends)."""
    return default_model(language).score(a, b, link_repetitions=False)


#: Graded score at or above which a pair *may* be heard as a rhyme: the pair looks at least as
#: much like a rhyme as like two random line ends, whatever the base rate of rhymes.
POSSIBLE_RHYME_SCORE = 0.0


def may_rhyme(a: str, b: str, *, language: str = "en") -> bool:
    """Whether a reader might hear two different words as a rhyme: the strict test of "does not
    rhyme". True when they rhyme perfectly or by any widened rule (weak, near, historical) or
    their graded score reaches :data:`POSSIBLE_RHYME_SCORE`, below the learned method's
    threshold. A minimal pair that must *not* rhyme (bpomp's synonym replacement) needs a word
    for which this is False."""
    language = resolve_language(language)
    forms_a, forms_b = word_forms(a, language), word_forms(b, language)
    if not forms_a.word or forms_a.word == forms_b.word:
        return False
    if language == "de":
        if german_perfect_rhymes(a, b, weak=True, near=True):
            return True
    elif perfect_rhymes(a, b, weak=True, near=True, historical=True):
        return True
    return bool(default_model(language).score(a, b) >= POSSIBLE_RHYME_SCORE)


def graded_rhymes(a: str, b: str, *, language: str = "en") -> bool:
    """Whether two different words rhyme by the graded score (above the model's threshold)."""
    model = default_model(language)
    forms_a, forms_b = word_forms(a, model.language), word_forms(b, model.language)
    if not forms_a.word or forms_a.word == forms_b.word:
        return False
    return bool(model.score(a, b) >= model.threshold)
