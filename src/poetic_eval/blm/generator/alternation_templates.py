"""The templates of the BLM-CausI and BLM-OdI sentences, and the tails the answers draw.

Sentences are sequences of chunks tagged by role: ``Ag`` (agent), ``Pat`` (patient), the verb
as ``Akt`` (active transitive), ``Pass`` (passive) or ``Intr`` (intransitive: the si form for
CausI, *la finestra si è aperta*; the verb without object for OdI, *le pittrici disegnano*),
``P-NP`` (a non-argument phrase of time, place or manner), ``da-NP`` (a "da" phrase that
holds no argument: temporal, *da un mese*, or in the answers *da solo*), ``da-Ag`` /
``da-Pat`` ("da" + an argument).

Context (both tasks; only sentence 7 differs)::

    1 Ag Akt Pat P-NP          4 Pat Pass da-Ag da-NP      7 CausI: Pat Intr P-NP
    2 Ag Akt Pat da-NP         5 Pat Pass P-NP               OdI:   Ag Intr P-NP
    3 Pat Pass da-Ag P-NP      6 Pat Pass da-NP

Answers (:func:`answer_template`), with S+ the subject the alternation keeps (CausI: Pat, OdI:
Ag) and S- the other role: Correct ``S+ Intr da-NP``, I-Int ``S- Intr da-NP``, R-trans
``S+ Akt S-``, IR-trans ``S- Akt S+``, ER-pass ``S+ Pass da-S-``, IER-pass ``S- Pass da-S+``,
E-WrBy ``S+ Intr da-S-``, IE-WrBy ``S- Intr da-S+`` (rules: :mod:`.labels`).

The ``da-NP`` of a sentence is a "da" phrase that holds no argument: a temporal one (*da un
mese*) or, in the answers, the subject's being alone (*da solo*, *da sole*: the BLM-It release
has it in a quarter to a half of its correct answers, *le finestre si aprono da sole*). So that
neither gives the correct answer away, the answers draw their tails (:func:`draw_tail`): the
correct answer and I-Int a temporal phrase or "da solo" at the same rates; the four answers
with two arguments (R-trans, IR-trans, ER-pass, IER-pass) no tail, or one of the same two (as
context sentences 2 and 4 have one). E-WrBy and IE-WrBy keep their "da" + argument alone.
"""

from __future__ import annotations

import random

from ...checks import require_choice
from .labels import ALTERNATION_LABELS
from .lexicon import Verb
from .verb_groups import DURATION_FRAMES

#: the frames drawn for sentences without a temporal "da" phrase, per alternation, a frame
#: listed n times drawn n times as often (the filters then keep those that read well,
#: :meth:`.AlternationFilters.frame_reads_well`). All are modal, so that nearly every such
#: sentence has one (the release: 55-60 % of the context sentences, 4 in 7 at most here), the
#: remoto the modals' (*dovette*, *poté*); CausI's mishaps and wears (most of its item verbs)
#: take what might happen or must, may or might have happened (*potrebbe rompersi*, *deve
#: essersi rotto*, :data:`.INFERENCE_FRAMES`) and *dovette* of a thing or a cause only. The
#: weights keep the remoto at the release's 17-20 % of the context sentences in every config
#: and on seeds 0-3, as measured: OdI's below told 16.9-17.6 % in od_ii and 18.8-19.5 % in
#: od_iii, 17.2-17.9 % in od_ii once type II changed a word more often than its frame
#: (:data:`.CONTEXT_FRAME_CHANGE`), and one more *dovette* told od_iii 19.5-20.2 %; CausI's
#: told 17.9-19.0 % in caus_iii (its type II matrices draw :data:`TYPE_II_FRAMES`)
FRAMES = {
    "causative": (
        *("can", "can_past", "can_future", "must", "must_past", "must_future"),
        *("can_remote",) * 14,
        *("must_remote",) * 24,
        *("could",) * 4,
        *("should",) * 2,
        *("must_have", "must_had", "may_have", "might_have") * 5,
    ),
    "object_drop": (
        *("can", "can_past", "can_future", "must", "must_past", "must_future") * 4,
        *("can_remote", "must_remote") * 8,
        *("must_remote",),
        *("could",) * 6,
        *("should",) * 4,
    ),
}

#: the frame a type II matrix draws for its context sentences without "da" (each keeps it if
#: it reads well there, else draws one of :data:`FRAMES`): CausI's more often a remoto of
#: dovere or potere than its sentences' own, as in a mishap's matrix only the thing's change of
#: itself (and a cause) can take one (*la tovaglia dovette scolorirsi*, not *la bambina dovette
#: rovesciare la bottiglia*): caus_ii's remoto was 15.4-15.8 % on seeds 0-1 with no more than
#: FRAMES's, and is 17.2-18.6 % on seeds 0-3 with these
TYPE_II_FRAMES = {
    "causative": (*FRAMES["causative"], *("can_remote",) * 64, *("must_remote",) * 320),
    "object_drop": FRAMES["object_drop"],
}

#: the frames in which a mishap (:attr:`.Verb.mishap`) with a P-NP happened (*ha bruciato*,
#: *bruciò*); no one plans it (not *il fuoco brucerà i biscotti nel pomeriggio*) nor lets it
#: happen (not *la torta può essere bruciata dai cuochi*); it may also be foreseen as possible,
#: *potrebbe bruciare* (:meth:`.AlternationFilters.frame_reads_well`)
MISHAP_FRAMES = ("perfect", "remote")


def frames_for(template: tuple[str, ...], alternation: str) -> tuple[str, ...]:
    """The frames a sentence of ``template`` is drawn in: the present or imperfect with a
    temporal "da" (an ongoing or habitual event), else the ``alternation``'s :data:`FRAMES`."""
    return DURATION_FRAMES if "da-NP" in template else FRAMES[alternation]


#: the role that is the subject of the correct (intransitive) answer
KEPT_SUBJECT = {"causative": "Pat", "object_drop": "Ag"}
_SHARED_CONTEXT = (
    ("Ag", "Akt", "Pat", "P-NP"),
    ("Ag", "Akt", "Pat", "da-NP"),
    ("Pat", "Pass", "da-Ag", "P-NP"),
    ("Pat", "Pass", "da-Ag", "da-NP"),
    ("Pat", "Pass", "P-NP"),
    ("Pat", "Pass", "da-NP"),
)
_STRUCTURES = {  # label suffix -> (verb tag, what follows the verb: "da-NP", S or da-S)
    "Int": ("Intr", "da-NP"),
    "trans": ("Akt", "{other}"),
    "pass": ("Pass", "da-{other}"),
    "WrBy": ("Intr", "da-{other}"),
}

#: the tails of an answer: a temporal "da" phrase, "da solo" agreeing with the subject, none
TAILS = ("time", "alone", "none")
#: the chance that the correct answer and I-Int say "da solo" instead of a temporal phrase,
#: where the verb takes it (:attr:`.Verb.alone`), per alternation; the release has it in
#: 25-50 % of its correct answers; 11 of CausI's 27 item verbs always say it
#: (:attr:`.Verb.alone_only`), so CausI's others say it less often (at 0.25 caus_ii and
#: caus_iii told it in 50.6-51.3 % of their correct answers on seeds 0-1, at 0.15 in
#: 43.6-48.6 % on seeds 0-3)
ALONE_RATE = {"causative": 0.15, "object_drop": 0.4}
#: the chances that an answer with two arguments (R-trans, IR-trans, ER-pass, IER-pass) ends
#: with a temporal phrase or with "da solo" (else with no "da" phrase), so that neither kind of
#: "da" phrase is a mark of the correct answer
TWO_ARGUMENT_TAILS = {"time": 0.5, "alone": 0.3}
#: the same for a verb whose si form takes "da solo" only (:attr:`.Verb.alone_only`): its
#: correct answer and I-Int always say it, so its active two-argument answers say it most
#: often too (a passive with its agent cannot: *la tazza veniva rovesciata dalle cameriere da
#: sola*); with the shares above, a third of CausI's item verbs being such verbs, a baseline
#: that sees only the answers' "da" phrases scored 0.37 on caus_iii
ONLY_ALONE_TWO_ARGUMENT_TAILS = {"time": 0.2, "alone": 0.6}
_TWO_ARGUMENTS = ("R-trans", "IR-trans", "ER-pass", "IER-pass")


def has_role(template: tuple[str, ...], role: str) -> bool:
    """Whether ``template`` names ``role`` (Ag, Pat), as a subject, object or after "da"."""
    return role in template or f"da-{role}" in template


def agentless_passive(template: tuple[str, ...]) -> bool:
    """Whether ``template`` is a passive that names no agent (*i vasi vengono rotti*)."""
    return template[1:2] == ("Pass",) and not has_role(template, "Ag")


def context_templates(alternation: str) -> tuple[tuple[str, ...], ...]:
    """The 7 context templates of ``alternation`` (causative or object_drop)."""
    return (*_SHARED_CONTEXT, (KEPT_SUBJECT[alternation], "Intr", "P-NP"))


def answer_template(alternation: str, label: str, tail: str = "time") -> tuple[str, ...]:
    """The template of the answer labelled ``label`` with ``tail`` (:data:`TAILS`): I swaps the
    subject's role; a two-argument answer with a tail ends in ``da-NP``."""
    require_choice(label, ALTERNATION_LABELS, "label")
    require_choice(tail, TAILS, "tail")
    kept = KEPT_SUBJECT[alternation]
    other = "Ag" if kept == "Pat" else "Pat"
    prefix, _, structure = label.rpartition("-") if label != "Correct" else ("", "", "Int")
    subject, rest = (other, kept) if prefix.startswith("I") else (kept, other)
    verb_tag, follower = _STRUCTURES[structure]
    template = (subject, verb_tag, follower.format(other=rest))
    if label in _TWO_ARGUMENTS and tail != "none":
        template += ("da-NP",)
    return template


def draw_tail(
    label: str, rng: random.Random, alone: bool, only_alone: bool = False, rate: float = 0.4
) -> str:
    """The tail of the answer labelled ``label`` (:data:`TAILS`); ``alone``: whether "da solo"
    may be drawn (in the correct answer and I-Int with chance ``rate``, :data:`ALONE_RATE`),
    ``only_alone``: whether it must be where the label has a "da" phrase slot (a verb whose si
    form takes no temporal "da", *i vetri si rompono da soli*)."""
    if label in ("Correct", "I-Int"):
        if only_alone:
            return "alone"
        return "alone" if alone and rng.random() < rate else "time"
    if label in _TWO_ARGUMENTS:
        shares = ONLY_ALONE_TWO_ARGUMENT_TAILS if only_alone else TWO_ARGUMENT_TAILS
        roll = rng.random()
        if roll < shares["time"]:
            return "time"  # only the si form refuses it: *il gatto rompe i vasi da un mese*
        # not a passive with its agent: *la tazza veniva rovesciata dalle cameriere da sola*
        active = label.endswith("trans")
        if alone and active and roll < shares["time"] + shares["alone"]:
            return "alone"
    return "none"


def alone_reads_well(alternation: str, verb: Verb, template: tuple[str, ...]) -> bool:
    """Whether "da solo" goes in ``template``: only in an answer (the contexts' "da" phrases
    are temporal), of a verb that takes it (:attr:`.Verb.alone`), and not where the other
    role alone would read as natural (*le macchine guidano da sole*:
    :attr:`.Verb.others_act_alone`)."""
    if not verb.alone:
        return False
    kept = KEPT_SUBJECT[alternation]
    return not (template[1] == "Intr" and template[0] != kept and verb.others_act_alone)
