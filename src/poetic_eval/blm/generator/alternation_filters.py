"""The semantic filters of BLM-CausI and BLM-OdI sentences: which words read well together.

The lexicon's filters (the fields of :class:`~.lexicon.Verb`, listed with their examples in the
dataset card) apply in :meth:`AlternationFilters.reads_well`: which agent acts on which patient,
which spans of temporal "da" a verb, its cause and its template take
(:meth:`AlternationFilters.spans_for`), which P-NPs and frames. :class:`.AlternationGenerator`
draws its words under them.
"""

from __future__ import annotations

from .alternation_answers import MACHINE
from .alternation_sentences import ALONE, CAUSAL_DA, AlternationWords, aged
from .alternation_templates import MISHAP_FRAMES, agentless_passive, alone_reads_well, has_role
from .lexicon import DA_SPANS, CauseKind, Lexicon, Noun, Verb
from .noun_phrases import phrase_text
from .verb_groups import (
    ABILITY_FRAMES,
    INFERENCE_FRAMES,
    MODAL_FRAMES,
    OBLIGATION_FRAMES,
    POSSIBILITY_FRAMES,
)


class AlternationFilters:
    """The lexicon's phrases and filters for the verbs of one alternation class."""

    def __init__(self, lexicon: Lexicon, alternation: str):
        self.lexicon = lexicon
        self.alternation = alternation
        verbs = lexicon.alternation_verbs(alternation)
        aside = [verb for verb in verbs if verb.routine or verb.context_only]
        self.verbs, self.context_only = [v for v in verbs if v not in aside], aside
        self.other_phrases = {spec.id: phrase_text(lexicon, spec) for spec in lexicon.other_phrases}
        # the P-NPs with each flag of the lexicon (schedule, clock, setting, feeling, ...)
        flags = ("schedule", "clock", "setting", "feeling", "manner", "agentless")
        self.scheduled, self.clock, self.setting, self.feelings, self.manners, self.agentless = (
            {phrase_text(lexicon, spec) for spec in lexicon.other_phrases if getattr(spec, flag)}
            for flag in flags
        )
        self.da_phrases = {
            span: [phrase_text(lexicon, spec) for spec in lexicon.da_phrases if spec.span == span]
            for span in DA_SPANS
        }
        self.span_of = {text: span for span, texts in self.da_phrases.items() for text in texts}
        self.night = {phrase_text(lexicon, spec) for spec in lexicon.da_phrases if spec.night}
        self.habitual = frozenset(lexicon.habitual_spans)
        self.first_time = self.other_phrases.get("first_time")  # no modal with it, nor *vecchio*
        self.no_modal = {self.other_phrases.get("in_public"), self.first_time}
        #: the P-NPs that are no occasion: a time of day, a place or a manner
        self.no_occasion = self.clock | self.setting

    def _cause_kind(self, noun: Noun) -> CauseKind | None:
        """What ``noun`` takes as a cause (:attr:`.Noun.cause_kind`); None for a person."""
        return self.lexicon.cause_kinds.get(noun.cause_kind) if noun.cause_kind else None

    def iterated(self, verb: Verb, templates: tuple[tuple[str, ...], ...] = ()) -> bool:
        """Whether every span ``verb`` takes reads as an iteration (*i vasi si rompono da un
        mese*): its patient is then generic, never *quei vasi* or *i suoi vasi*; of words for
        ``templates``, only if one has a span (*ha spuntato le sue matite nel pomeriggio*)."""
        timed = not templates or any("da-NP" in template for template in templates)
        return timed and set(verb.da_spans) <= self.habitual

    def spans_for(
        self, verb: Verb, template: tuple[str, ...], agent: Noun, answer: bool = False
    ) -> tuple[str, ...]:
        """The spans of temporal "da" a sentence of ``template`` takes: the verb's
        (:attr:`.Verb.da_spans`), those its agent, when named and a cause, acts over (no *il
        terremoto incrina le pareti dal mese scorso*), no habitual one for an agent whose
        repeating it is no habit (:attr:`.Verb.habitual_agents`), and for an object-drop verb
        with a named patient no habitual span (no *il turista beve queste spremute dallo
        scorso inverno*); a named portion only for minutes (not *beveva quel caffè da tre ore*)."""
        spans = verb.da_spans
        kind = self._cause_kind(agent)
        acts = has_role(template, "Ag") and template[1] != "Intr"
        if acts and kind is not None:
            spans = tuple(span for span in spans if span in kind.spans)
        elif acts and verb.mishap:  # *il fornaio brucia quella torta da cinque minuti*
            habit = verb.habitual_agents is None or agent.lemma in verb.habitual_agents
            spans = tuple(span for span in spans if span in self.habitual and habit)
        elif acts and verb.habitual_agents is not None and agent.lemma not in verb.habitual_agents:
            spans = tuple(span for span in spans if span not in self.habitual)
        # the patient named; OdI's I-Int (Pat Intr da-NP) takes the correct answer's spans
        intransitive = verb.alternation == "object_drop" and template[1] == "Intr"
        named = verb.alternation == "object_drop" and has_role(template, "Pat") and not intransitive
        # a two-argument answer is wrong anyway: it may take the correct one's habitual spans
        if named and not verb.habitual_objects and not answer:
            spans = tuple(span for span in spans if span not in self.habitual)
        if named and verb.portions and not answer:  # not *beveva quel caffè da tre ore*
            spans = tuple(span for span in spans if span == "minutes")
        if intransitive and not verb.habitual_intransitive:  # *il custode spolverava da un anno*
            spans = tuple(span for span in spans if span not in self.habitual)
        agentless = agentless_passive(template)
        if agentless and verb.mishap and verb.habitual_agents == ():
            return ()  # whose habit? *molti vasi vengono frantumati da pochi giorni*
        if verb.routine and not has_role(template, "Ag"):  # *le porte si chiudono da un mese*
            spans = tuple(span for span in spans if span not in self.habitual)
        return spans

    def takes(self, verb: Verb, template: tuple[str, ...]) -> bool:
        """Whether some words of ``verb`` can read well in ``template``: a sentence with a
        temporal "da" needs a span (:meth:`spans_for`) for some agent."""
        if "da-NP" not in template:
            return True
        return any(self.spans_for(verb, template, self.lexicon.nouns[a]) for a in verb.agents)

    def reads_well(
        self,
        verb: Verb,
        words: AlternationWords,
        template: tuple[str, ...],
        answer: bool = False,
    ) -> bool:
        """Whether the sentence of ``words`` in ``template`` keeps the lexicon's time filters:
        its temporal "da" of a span it takes (:meth:`spans_for`); a cause with a P-NP in a
        frame its kind is told in (*il terremoto ha incrinato le pareti nel pomeriggio*, not
        the habit *il terremoto incrina le pareti nel pomeriggio*) and at a time people keep
        only if its kind keeps time (*il sole*, not *il vento chiude i cancelli dopo cena*); a
        P-NP the verb takes; no cause patient in a passive without agent and no indefinite
        singular subject of an ongoing event (*una camicia si asciuga da pochi minuti*, *una
        sarta cuce da un'ora*: OdI's I-Int could never have one, so *una* marked the correct
        answer)."""
        agent = words.agent.noun
        many_on_one = words.agent.number == "pl" and words.patient.number == "sg"
        small = words.patient.noun.lemma in verb.small_patients
        both = has_role(template, "Ag") and has_role(template, "Pat")
        if many_on_one and small and both:
            return False  # *gli idraulici svuotavano la bottiglia*
        if agentless_passive(template) and words.patient.noun.lemma in verb.cause_patients:
            return False  # *le ombre venivano allungate*
        if template[1] == "Intr" and "da-Ag" in template and agent.lemma in CAUSAL_DA:
            return False  # *i muri si incrinavano dal gelo*: a cause, a natural sentence
        if "da-NP" in template:
            subject = words.patient if template[0] == "Pat" else words.agent
            if subject.determiner == "indef":
                return False  # an ongoing event of one unknown one: *una camicia si asciuga da*
            one_eats_many = words.agent.number == "sg" and words.patient.number == "pl"
            if verb.portions and both and one_eats_many:
                return False  # *il ragazzo mangiava i panini da qualche minuto*
            if words.da_phrase == ALONE and MACHINE in subject.noun.classes:
                return False  # *il trattore ara da solo*: a driverless tractor
            if words.da_phrase == ALONE:
                return alone_reads_well(self.alternation, verb, template)
            if template[1] == "Intr" and verb.alone_only:
                return False  # *i vetri si rompono dalla settimana scorsa*
            if has_role(template, "Ag") and self.by_day_overnight(agent, words.da_phrase):
                return False  # *il sole asciuga il bucato da ieri sera*
            return self.span_of[words.da_phrase] in self.spans_for(verb, template, agent, answer)
        if "P-NP" in template:
            if words.other_phrase not in self.p_phrases_for(verb):
                return False
            if words.other_phrase == self.first_time and aged(words.agent):
                return False  # *questo vecchio maestro insegna per la prima volta*
            if words.other_phrase in self.agentless and has_role(template, "Ag"):
                return False  # *i pescatori potrebbero aggrovigliare le lenze durante il trasloco*
            return self.frame_reads_well(verb, words, template)
        return True

    def by_day_overnight(self, agent: Noun, da_phrase: str) -> bool:
        """Whether ``agent`` is a cause that acts by day only (:attr:`.CauseKind.daylight`, the
        sun) and ``da_phrase`` a span that takes in a night (*da ieri sera*)."""
        kind = self._cause_kind(agent)
        return kind is not None and kind.daylight and da_phrase in self.night

    def frame_reads_well(
        self, verb: Verb, words: AlternationWords, template: tuple[str, ...]
    ) -> bool:
        """Whether the frame of a sentence with a P-NP reads well: a mishap happened (*il fuoco
        ha bruciato i biscotti*, *bruciò*; not *brucerà*) or might happen, a modal as
        :meth:`_modal_reads_well` says, and a cause acts as its kind does
        (:meth:`_cause_reads_well`)."""
        if words.frame in MODAL_FRAMES:
            if not self._modal_reads_well(verb, words, template):
                return False
        elif verb.mishap and words.frame not in MISHAP_FRAMES:
            return False
        return self._cause_reads_well(words, template)

    def _modal_reads_well(
        self, verb: Verb, words: AlternationWords, template: tuple[str, ...]
    ) -> bool:
        """What must, may or might have happened reads as :meth:`_inference_reads_well` says. A
        change of itself is foreseen or inferred at no place, and one that comes about only by
        itself
        (:attr:`.Verb.alone_only`) at no time of day; a mishap or a wear (:attr:`.Verb.wear`)
        is never expected, and might happen of itself only at an occasion (*all'improvviso*),
        not at a time of day, when someone might do it to some things
        (*la camicia potrebbe strapparsi al primo lavaggio*, *i vasi potrebbero rompersi sotto
        gli occhi di tutti*, *il bambino potrebbe rompere i vetri nel pomeriggio*; not *i vasi
        potrebbero rompersi nel pomeriggio*, *le ragazze potrebbero smagliare molte calze
        durante la mattinata*); what one can or must do is done by someone on purpose (*il
        cuoco dovette cuocere l'arrosto*; not *le piscine possono riempirsi*, *il gatto dovette
        logorare la tenda*), by no animal named in a passive (*i conigli poterono essere
        cacciati dalle aquile*); nothing is to be done before everyone's eyes or for the first
        time (*i vasi possono rompersi sotto gli occhi di tutti*, *può insegnare per la prima
        volta*), though it might be or be expected (*potrebbe insegnare per la prima volta*);
        no food, drink or smoke is in a modal passive (:attr:`.Verb.consumed`: not *l'acqua deve
        essere bevuta dalla studentessa*, *il vino poté essere bevuto*); and no one is obliged
        to do anything with liking (not *dovettero mangiare la minestra con gusto*), and a manner
        tells what one did or must do, not what one can (not *la nonna poté ricamare con
        metodo*, *gli arazzi possono essere tessuti al telaio*)."""
        frame, phrase = words.frame, words.other_phrase
        itself = self.alternation == "causative" and template[1] == "Intr"
        if itself and phrase in self.setting:
            return False  # *i palloni dovrebbero sgonfiarsi in giardino*: no place foreseen
        if verb.consumed and template[1] == "Pass":
            return False
        inferred = self._inference_reads_well(verb, words, template, itself)
        if inferred is not None:
            return inferred
        if itself and verb.alone_only and phrase in self.clock:
            # what comes about only by itself, all at once, is foreseen at no time of day (*il
            # pedale potrebbe svitarsi a metà mattina*, *i biscotti potrebbero sbriciolarsi a
            # metà pomeriggio*); a process is (*la camicia dovrebbe asciugarsi nel pomeriggio*)
            return False
        if verb.mishap or verb.wear:
            if frame != "could" or phrase == self.first_time:
                return False
            # at a time of day, what someone might do: not things in general, *molte calze*
            done = has_role(template, "Ag") and words.patient.determiner != "many"
            return phrase not in self.no_occasion or done
        if frame in OBLIGATION_FRAMES and phrase in self.feelings:
            return False  # *i bambini dovettero mangiare la minestra con gusto*
        if frame in ABILITY_FRAMES and phrase in self.manners:
            return False  # *la nonna poté ricamare con metodo*
        if frame in POSSIBILITY_FRAMES:
            return True
        if phrase in self.no_modal:
            return False
        return not itself and not ("da-Ag" in template and words.agent.noun.animal)

    def _inference_reads_well(
        self, verb: Verb, words: AlternationWords, template: tuple[str, ...], itself: bool
    ) -> bool | None:
        """What must, may or might have happened (:data:`.INFERENCE_FRAMES`) reads well of every
        event but one everyone saw or a first time (*il vaso deve essersi rotto nel
        pomeriggio*, *la bambina potrebbe aver rovesciato la bottiglia*), and so does *dovette*
        of a thing's change or of a cause's mishap, where no duty can be meant (*la tovaglia
        dovette scolorirsi al primo lavaggio*, *la pioggia dovette bagnare la lettera*; not *il
        bambino dovette rompere il vaso*); None where the frame is no inference. ``itself``: a
        CausI change of itself (``Pat Intr``)."""
        if words.frame in INFERENCE_FRAMES:
            return words.other_phrase not in self.no_modal
        if words.frame == "must_remote" and (itself or verb.mishap or verb.wear):
            cause = self._cause_kind(words.agent.noun) is not None and template[1] == "Akt"
            return (itself or cause) and words.other_phrase not in self.no_modal
        return None

    def _cause_reads_well(self, words: AlternationWords, template: tuple[str, ...]) -> bool:
        """A cause acts in the frames of its kind (*il terremoto ha incrinato le pareti*, not
        the habit *incrina*), or might act, in the active (*il vento potrebbe asciugare la
        camicia*; not *il cemento potrebbe essere indurito dal calore*), but not an event at a
        time of day (*il terremoto potrebbe rompere i vetri nel pomeriggio*), and is expected
        to only if it keeps time (*il sole dovrebbe sciogliere il ghiaccio*); and it acts at a
        time people keep only if it keeps time (*il sole*, not *il vento chiude i cancelli
        dopo cena*)."""
        kind = self._cause_kind(words.agent.noun)
        if kind is None or not has_role(template, "Ag"):
            return True
        frame, phrase = words.frame, words.other_phrase
        if frame in INFERENCE_FRAMES or (frame == "must_remote" and template[1] == "Akt"):
            # *il terremoto deve aver incrinato le pareti*: an inference about what it did
            frame = "perfect" if frame in INFERENCE_FRAMES else "remote"
        if frame in POSSIBILITY_FRAMES:
            active = template[1] == "Akt" and bool(kind.frames)
            event_now = not kind.spans and phrase in self.clock
            if not active or event_now or (frame == "should" and not kind.keeps_time):
                return False
        elif frame not in kind.frames:
            return False
        return phrase not in self.scheduled or kind.keeps_time

    def p_phrases_for(self, verb: Verb) -> list[str]:
        """The P-NPs of ``verb`` (:attr:`.Verb.p_phrases`): *al tramonto* for lights that go
        on, not for a vase that breaks."""
        return [self.other_phrases[name] for name in verb.p_phrases]

    def da_phrases_for(self, verb: Verb) -> list[str]:
        """The temporal "da" phrases of the spans ``verb`` takes (:attr:`.Verb.da_spans`)."""
        return [phrase for span in verb.da_spans for phrase in self.da_phrases[span]]
