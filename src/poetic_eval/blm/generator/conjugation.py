"""Third-person Italian verb forms: the only persons the BLM sentences use.

Regular rules by conjugation, with the lexicon's written-out forms taking precedence:

* -are: *parla, parlano; parlava, parlavano; parlerà, parleranno; parlò, parlarono; parlato*;
  the future keeps the hard sound of -care/-gare (*giocherà*, *piegherà*) and drops the i of
  -ciare/-giare (*mangerà*, *brucerà*);
* -ere: *legge, leggono; leggeva, leggevano; leggerà, leggeranno; tessé, tesserono; -uto*
  (most -ere verbs have an irregular passato remoto, written out in the lexicon: *ruppe*);
* -ire: *dorme, dormono* or, with ``isc``, *pulisce, puliscono*; *dormiva*; *dormirà*; *dormì,
  dormirono*; *-ito*;
* the conditional on the future's stem, written out or not: *potrà* -> *potrebbe, potrebbero*,
  *parlerà* -> *parlerebbe*.

Participles agree like adjectives in -o (:func:`participle`). :func:`infinitive_with_si`
attaches the clitic (*aprirsi*, *tradursi*), :func:`truncated_infinitive` drops the final -e
before another infinitive (*deve poter aprire*).
"""

from __future__ import annotations

from ...checks import require_choice
from .lexicon import Verb, adjective_form

NUMBERS = ("sg", "pl")
#: ``remote``: the passato remoto (*ruppe*, *aprì*), the past of a finished event in narration
SIMPLE_TENSES = ("present", "imperfect", "future", "remote", "conditional")


def conjugation(verb: Verb) -> str:
    """``"are"``, ``"ere"`` or ``"ire"`` (-rre verbs have every form written out)."""
    return verb.lemma[-3:]


def finite_form(verb: Verb, tense: str, number: str) -> str:
    """The third-person form of ``verb`` in ``tense`` (:data:`SIMPLE_TENSES`) and ``number``."""
    require_choice(tense, SIMPLE_TENSES, "tense")
    if number not in NUMBERS:
        raise ValueError(f"number must be 'sg' or 'pl', got {number!r}")
    if tense == "conditional":  # potr-à -> potr-ebbe, sar-à -> sar-ebbe
        return finite_form(verb, "future", "sg")[:-1] + ("ebbero" if number == "pl" else "ebbe")
    written = getattr(verb, tense)
    if written is not None:
        return written[NUMBERS.index(number)]
    stem, ending = verb.lemma[:-3], conjugation(verb)
    plural = number == "pl"
    if tense == "present":
        if ending == "are":
            return stem + ("ano" if plural else "a")
        if ending == "ire" and verb.isc:
            return stem + ("iscono" if plural else "isce")
        return stem + ("ono" if plural else "e")
    if tense == "imperfect":
        vowel = {"are": "a", "ere": "e", "ire": "i"}[ending]
        return stem + vowel + ("vano" if plural else "va")
    if tense == "remote":
        if ending == "are":  # mangi-are -> mangiò, cerc-are -> cercò
            return stem + ("arono" if plural else "ò")
        return stem + {"ere": ("é", "erono"), "ire": ("ì", "irono")}[ending][plural]
    return _future_stem(verb) + ("anno" if plural else "à")


def _future_stem(verb: Verb) -> str:
    stem, ending = verb.lemma[:-3], conjugation(verb)
    if ending == "are":
        if stem.endswith(("ci", "gi")):
            stem = stem[:-1]  # mangi-are -> manger-
        elif stem.endswith(("c", "g")):
            stem += "h"  # gioc-are -> giocher-
        return stem + "er"
    return stem + ("er" if ending == "ere" else "ir")


def participle(verb: Verb, gender: str = "m", number: str = "sg") -> str:
    """The past participle agreeing in ``gender`` and ``number`` (*rotto, rotta, rotti, rotte*)."""
    return adjective_form(masculine_participle(verb), gender, number)


def masculine_participle(verb: Verb) -> str:
    if verb.participle is not None:
        return verb.participle
    stem, ending = verb.lemma[:-3], conjugation(verb)
    return stem + {"are": "ato", "ere": "uto", "ire": "ito"}[ending]


def infinitive_with_si(verb: Verb) -> str:
    """The infinitive with the clitic ``si``: *aprirsi*, *rompersi*, *tradursi*."""
    if verb.lemma.endswith("rre"):
        return verb.lemma[:-2] + "si"
    return verb.lemma[:-1] + "si"


def truncated_infinitive(verb: Verb) -> str:
    """The infinitive without its final -e, as before another infinitive: *poter*, *esser*."""
    return verb.lemma[:-1]
