"""Consistency checks of a loaded BLM lexicon: every reference resolves, every value is known.

Run by :func:`poetic_eval.blm.generator.lexicon_loading.load_lexicon`; errors name the file and
the entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...checks import unknown_name_message
from .articles import DETERMINERS, ONSETS
from .lexicon import (
    ALTERNATIONS,
    DA_SPANS,
    Adjective,
    Lexicon,
    LexiconError,
    Noun,
    PhraseSpec,
    Verb,
)
from .verb_groups import FRAMES

MIN_ARGUMENTS = 2  # agents and patients per alternation verb (type II varies one of them)


def check_lexicon(
    lexicon: Lexicon, nouns: Sequence[Noun], adjectives: Sequence[Adjective], verbs: Sequence[Verb]
) -> None:
    _check_unique("nouns.json", [n.lemma for n in nouns])
    _check_unique("adjectives.json", [a.lemma for a in adjectives])
    _check_unique("verbs.json", [v.lemma for v in verbs])
    for noun in nouns:
        _check_noun(noun)
    for adjective in adjectives:
        for gender in ("m", "f"):
            for number in ("sg", "pl"):
                try:
                    adjective.form(gender, number)
                except ValueError as error:
                    raise LexiconError(f"adjectives.json: {error}") from None
    for verb in verbs:
        _check_verb(lexicon, verb)
    _check_templates(lexicon)
    for phrase in lexicon.da_phrases:
        if isinstance(phrase, str) or phrase.span not in DA_SPANS:
            raise LexiconError(
                f"alternation_phrases.json, da_phrases: {phrase!r:.60} needs a span, "
                f"one of {list(DA_SPANS)}"
            )
    for group in ("other_phrases", "da_phrases"):
        for phrase in getattr(lexicon, group):
            _check_phrase(lexicon, phrase, group)
    _check_phrase_flags(lexicon)
    _check_causes_and_p_phrases(lexicon)


def _check_phrase_flags(lexicon: Lexicon) -> None:
    """A manner is a setting (no occasion) and no feeling: a feeling takes no *dovere* and a
    manner no *potere*, so a P-NP that were both would take no modal at all."""
    for phrase in lexicon.other_phrases:
        if not isinstance(phrase, str) and phrase.manner and (phrase.feeling or not phrase.setting):
            raise LexiconError(
                f"alternation_phrases.json, other_phrases {phrase.id!r}: a manner is a setting "
                "and no feeling"
            )


#: the noun class of the natural and mechanical causes; each has a ``cause_kind``
CAUSE_CLASS = "cause"
#: the prepositions that name a cause after a si verb (:attr:`.Noun.cause_preposition`)
CAUSE_PREPOSITIONS = ("per", "a", "con", "in", "sotto")


def _check_causes_and_p_phrases(lexicon: Lexicon) -> None:
    """Every cause has a known kind of known spans and frames; every P-NP an id, unique; every
    alternation verb at least two P-NPs (type II varies it), all known, and no P-NP of place or
    manner that names one of its agents (not *arare con il trattore*: *il trattore ara*)."""
    where = "alternation_phrases.json"
    for name, kind in lexicon.cause_kinds.items():
        unknown = [s for s in kind.spans if s not in DA_SPANS]
        unknown += [f for f in kind.frames if f not in FRAMES]
        if unknown:
            raise LexiconError(f"{where}, cause_kinds {name!r}: unknown spans or frames {unknown}")
    unknown = [s for s in lexicon.habitual_spans if s not in DA_SPANS]
    if unknown:
        raise LexiconError(f"{where}, habitual_spans: unknown {unknown}")
    for noun in lexicon.nouns.values():
        if noun.cause_kind is not None and noun.cause_kind not in lexicon.cause_kinds:
            raise LexiconError(
                f"nouns.json, {noun.lemma!r}: "
                + unknown_name_message(noun.cause_kind, list(lexicon.cause_kinds), "cause_kind")
            )
        if CAUSE_CLASS in noun.classes and noun.cause_kind is None:
            raise LexiconError(f"nouns.json, {noun.lemma!r}: a cause needs a cause_kind")
        if noun.cause_preposition not in CAUSE_PREPOSITIONS:
            raise LexiconError(
                f"nouns.json, {noun.lemma!r}: "
                + unknown_name_message(
                    noun.cause_preposition, list(CAUSE_PREPOSITIONS), "cause_preposition"
                )
            )
    ids = [phrase.id for phrase in lexicon.other_phrases if not isinstance(phrase, str)]
    settings = {
        phrase.id: phrase.noun
        for phrase in lexicon.other_phrases
        if not isinstance(phrase, str) and phrase.setting
    }
    if None in ids or len(set(ids)) != len(ids) or len(ids) != len(lexicon.other_phrases):
        raise LexiconError(f"{where}, other_phrases: each needs an id, all different")
    for verb in lexicon.verbs.values():
        if verb.alternation is None:
            continue
        unknown = [i for i in verb.p_phrases if i not in ids]
        if unknown or len(set(verb.p_phrases)) < MIN_ARGUMENTS:
            raise LexiconError(
                f"verbs.json, {verb.lemma!r}: p_phrases needs at least {MIN_ARGUMENTS} ids of "
                f"other_phrases; unknown {unknown}"
            )
        named = [i for i in verb.p_phrases if settings.get(i) in verb.agents]
        if named:
            raise LexiconError(
                f"verbs.json, {verb.lemma!r}: the P-NPs {named} name one of its agents"
            )


def _check_unique(name: str, lemmas: list[str]) -> None:
    seen: set[str] = set()
    for lemma in lemmas:
        if lemma in seen:
            raise LexiconError(f"{name}: {lemma!r} occurs twice")
        seen.add(lemma)


def _check_noun(noun: Noun) -> None:
    where = f"nouns.json, {noun.lemma!r}"
    if noun.gender not in ("m", "f") or noun.plural_gender not in (None, "m", "f"):
        raise LexiconError(f"{where}: gender must be 'm' or 'f'")
    if noun.onset is not None and noun.onset not in ONSETS:
        raise LexiconError(f"{where}: " + unknown_name_message(noun.onset, ONSETS, "onset"))
    if noun.animacy not in ("animate", "inanimate"):
        raise LexiconError(f"{where}: animacy must be 'animate' or 'inanimate'")
    if not noun.plural or not noun.classes:
        raise LexiconError(f"{where}: a plural and at least one class are required")


def _check_verb(lexicon: Lexicon, verb: Verb) -> None:
    where = f"verbs.json, {verb.lemma!r}"
    if not verb.lemma.endswith(("are", "ere", "ire", "rre")):
        raise LexiconError(f"{where}: an infinitive ends in -are, -ere, -ire or -rre")
    if verb.aux not in ("avere", "essere"):
        raise LexiconError(f"{where}: aux must be 'avere' or 'essere'")
    if verb.lemma.endswith("rre") and not all(
        (verb.present, verb.imperfect, verb.future, verb.remote, verb.participle)
    ):
        raise LexiconError(f"{where}: a verb in -rre needs all its forms written out")
    for forms in (verb.present, verb.imperfect, verb.future, verb.remote):
        if forms is not None and len(forms) != 2:
            raise LexiconError(f"{where}: forms are [singular, plural]")
    if verb.alternation is None:
        return
    if verb.alternation not in ALTERNATIONS:
        raise LexiconError(
            f"{where}: " + unknown_name_message(verb.alternation, ALTERNATIONS, "alternation")
        )
    for role in ("agents", "patients"):
        lemmas = getattr(verb, role)
        if len(set(lemmas)) < MIN_ARGUMENTS:
            raise LexiconError(f"{where}: needs at least {MIN_ARGUMENTS} different {role}")
        for lemma in lemmas:
            if lemma not in lexicon.nouns:
                raise LexiconError(f"{where}: {role[:-1]} {lemma!r} is not in nouns.json")
    _check_filters(lexicon, verb, where)
    _check_ownership_and_modifiers(lexicon, verb, where)
    _check_da_spans(lexicon, verb, where)


#: the spans over which a punctual event reads as iterated (*i vasi si rompono da alcuni
#: giorni*); over minutes or hours it does not (*i vasi si rompono da un'ora*)
ITERATED_SPANS = ("weeks", "years")


def _check_da_spans(lexicon: Lexicon, verb: Verb, where: str) -> None:
    """An alternation verb names the spans of temporal "da" phrase it takes, each known and
    given by some phrase; a punctual verb only spans it can iterate over."""
    if not verb.da_spans:
        raise LexiconError(f"{where}: needs da_spans, some of {list(DA_SPANS)}")
    for span in verb.da_spans:
        if span not in DA_SPANS:
            raise LexiconError(f"{where}: " + unknown_name_message(span, DA_SPANS, "da_spans"))
        if not any(phrase.span == span for phrase in lexicon.da_phrases):
            raise LexiconError(
                f"{where}: no da_phrase of alternation_phrases.json has span {span!r}"
            )
    if verb.punctual and not set(verb.da_spans) <= set(ITERATED_SPANS):
        raise LexiconError(
            f"{where}: a punctual verb's da_spans are among {list(ITERATED_SPANS)} "
            f"(an event iterated over weeks or years), not {list(verb.da_spans)}"
        )


def _check_ownership_and_modifiers(lexicon: Lexicon, verb: Verb, where: str) -> None:
    """:attr:`.Verb.patient_refuses` names adjectives or nouns; :attr:`.Verb.others_things`
    is an object-drop verb's (a CausI agent owns only its :attr:`.Verb.owners`)."""
    known = {*lexicon.adjectives, *lexicon.nouns}
    unknown = set(verb.patient_refuses) - known
    if unknown:
        raise LexiconError(f"{where}: patient_refuses {sorted(unknown)} name no adjective or noun")
    if verb.others_things and verb.alternation != "object_drop":
        raise LexiconError(f"{where}: others_things is for object-drop verbs (OdI) only")


def _check_context_agents(lexicon: Lexicon, verb: Verb, where: str) -> None:
    """:attr:`.Verb.context_agents` are people, each named once among the agents."""
    repeated = sorted({a for a in verb.agents if verb.agents.count(a) > 1})
    if repeated:
        raise LexiconError(f"{where}: agents {repeated} are named twice (agents, context_agents)")
    for lemma in verb.context_agents:
        noun = lexicon.nouns.get(lemma)
        if noun is None or not noun.person:
            raise LexiconError(f"{where}: context_agents {lemma!r} is no person of nouns.json")


def _check_filters(lexicon: Lexicon, verb: Verb, where: str) -> None:
    """The semantic filters name the verb's own arguments and leave the answers some words."""
    fields = (
        ("reflexive_agents", "agents"),
        ("source_patients", "patients"),
        ("acting_patients", "patients"),
        ("cause_patients", "patients"),
        ("small_patients", "patients"),
    )
    for field, role in fields:
        unknown = set(getattr(verb, field)) - set(getattr(verb, role))
        if unknown:
            raise LexiconError(f"{where}: {field} {sorted(unknown)} are not among its {role}")
    _check_context_agents(lexicon, verb, where)
    unknown = set(verb.habitual_agents or ()) - set(verb.agents)
    if unknown:
        raise LexiconError(f"{where}: habitual_agents {sorted(unknown)} are not among its agents")
    if set(verb.cause_patients) == set(verb.patients) and verb.patients:
        raise LexiconError(
            f"{where}: every patient is a cause_patient, so no passive without agent is left"
        )
    if verb.routine and verb.habitual_agents is None:
        raise LexiconError(f"{where}: a routine verb names its habitual_agents")
    for agent, patients in [*verb.specialists.items(), *verb.owners.items()]:
        if agent not in verb.agents or not set(patients) <= set(verb.patients):
            raise LexiconError(
                f"{where}: specialists/owners {agent!r}: {patients} are not its arguments"
            )
        usable = [p for p in patients if p in verb.answer_patients() and verb.can_act_on(agent, p)]
        if agent in verb.answer_agents() and not usable:  # the answers draw pairs only
            raise LexiconError(
                f"{where}: specialists/owners {agent!r}: none of {patients} is a patient the "
                "answers use (source_patients, acting_patients or agent_patients leave none)"
            )
    for agent, patients in verb.agent_patients.items():
        if agent not in verb.agents or not set(patients) <= set(verb.patients):
            raise LexiconError(
                f"{where}: agent_patients {agent!r}: {patients} are not its arguments"
            )
    answers = [
        (agent, patient)
        for agent in verb.answer_agents()
        for patient in verb.answer_patients()
        if verb.can_act_on(agent, patient)
    ]
    if not answers and not verb.context_only:  # a context_only verb makes no answers
        raise LexiconError(
            f"{where}: the filters leave no agent and patient for the answers "
            "(reflexive_agents, source_patients and agent_patients exclude them all)"
        )
    if verb.punctual:
        mass = [lemma for lemma in verb.patients if lexicon.nouns[lemma].mass]
        if mass:
            raise LexiconError(
                f"{where}: a punctual verb's patients are plural; {mass} are mass nouns"
            )


def _check_templates(lexicon: Lexicon) -> None:
    name = "agreement_templates.json"
    classes = {c for noun in lexicon.nouns.values() for c in noun.classes}
    for attachment in lexicon.attachments:
        for role in (attachment.head, attachment.dependent):
            if role not in classes:
                raise LexiconError(f"{name}: attachment {attachment}: no noun of class {role!r}")
    for predicate in lexicon.predicates:
        if (predicate.verb is None) == (predicate.adjective is None):
            raise LexiconError(f"{name}: predicate {predicate}: give a verb or an adjective")
        if predicate.verb is not None and predicate.verb not in lexicon.verbs:
            raise LexiconError(f"{name}: predicate verb {predicate.verb!r} is not in verbs.json")
        if predicate.adjective is not None and predicate.adjective not in lexicon.adjectives:
            raise LexiconError(f"{name}: predicate adjective {predicate.adjective!r} unknown")
        if predicate.voice not in ("active", "si"):
            raise LexiconError(f"{name}: predicate {predicate}: voice is 'active' or 'si'")
        unknown = [c for c in predicate.subjects if c not in classes]
        if unknown or not predicate.subjects:
            raise LexiconError(f"{name}: predicate {predicate}: unknown subject classes {unknown}")
        for lemma in predicate.objects:
            if lemma not in lexicon.nouns:
                raise LexiconError(
                    f"{name}: predicate {predicate.verb!r}: object {lemma!r} unknown"
                )
    for group in ("certain_prefixes", "rumour_prefixes"):
        unknown = set(getattr(lexicon, group)) - set(lexicon.prefixes)
        if unknown:
            raise LexiconError(f"{name}: {group} {sorted(unknown)} are not among prefixes")
    if set(lexicon.certain_prefixes) & set(lexicon.rumour_prefixes):
        raise LexiconError(f"{name}: a prefix is both certain and a rumour")
    relative_verbs = [(lemma, "active") for lemma in lexicon.relative_verbs]
    for lemma, voice in [*relative_verbs, *lexicon.di_cui_verbs]:
        if lemma not in lexicon.verbs or voice not in ("active", "si"):
            raise LexiconError(f"{name}: relative verb {lemma!r} ({voice}) is not in verbs.json")
    heads = {a.head for a in lexicon.attachments if not a.exclusive}  # the heads AgrI uses
    for head in heads:
        for lemma in lexicon.nouns_of_class(head):
            if not any(
                set(p.subjects) & set(lexicon.nouns[lemma].classes) for p in lexicon.predicates
            ):
                raise LexiconError(
                    f"{name}: subject noun {lemma!r} (class {head}) has no predicate"
                )


def _check_phrase(lexicon: Lexicon, phrase: PhraseSpec | str, group: str) -> None:
    if isinstance(phrase, str):
        return
    where = f"alternation_phrases.json, {group}: {phrase.preposition} ... {phrase.noun}"
    noun = lexicon.nouns.get(phrase.noun)
    if noun is None:
        raise LexiconError(f"{where}: noun {phrase.noun!r} is not in nouns.json")
    if phrase.number not in noun.numbers:
        raise LexiconError(f"{where}: {phrase.noun!r} is not used in the {phrase.number}")
    if phrase.determiner not in DETERMINERS or phrase.number not in DETERMINERS[phrase.determiner]:
        raise LexiconError(f"{where}: determiner {phrase.determiner!r} with a {phrase.number} noun")
    for adjective in (phrase.pre_adjective, phrase.post_adjective):
        if adjective is not None and adjective not in lexicon.adjectives:
            raise LexiconError(f"{where}: adjective {adjective!r} is not in adjectives.json")
    if phrase.tail is not None:
        _check_phrase(lexicon, phrase.tail, group)
