"""BLM-CausI and BLM-OdI: the causative/inchoative and the object-drop alternations.

The chunks, templates and tails (a temporal phrase or *da solo*) are described in
:mod:`.alternation_templates`, the sentences made of them in :mod:`.alternation_sentences`.

Sentences with a temporal "da" phrase are in the present or imperfect (an ongoing or habitual
event) and of a span the verb takes (:attr:`~.lexicon.Verb.da_spans`, per verb: *la torta si
brucia da qualche minuto*, *i vasi si rompono da alcuni giorni*), the others in any frame of
:data:`.alternation_templates.FRAMES`. Type II keeps the matrix's words and changes one (agent,
patient, P-NP, da-NP or verb frame) per sentence, the 8 answers included; type III draws all of
them afresh for every sentence, the context sentences' verbs too (from the verbs of the item's
class it is given), so that only the answers are sure to use the item's verb. Every sentence
records its verb in its annotation.

The lexicon's semantic filters (:mod:`.alternation_filters`) decide which words read well
together; type II varies the one word that makes a sentence read well. A ``routine`` verb
(*chiudere*) is only a type III context verb (:meth:`.AlternationFilters.takes`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from ...checks import require_choice
from ...errors import NoReadableWords
from .alternation_answers import (
    gender_matched,
    in_number_of_mass,
    one_thing_alone,
    replacements,
    same_gender,
)
from .alternation_filters import AlternationFilters
from .alternation_sentences import (
    ALONE,
    PAIRED_ANSWERS,
    AlternationWords,
    alternation_sentence,
    draw_noun_phrase,
    matched_subject,
    named_pairs,
    possessed,
    with_cause,
    with_modifiers,
    with_specialist,
    without_modifiers,
)
from .alternation_templates import (
    ALONE_RATE,
    TYPE_II_FRAMES,
    answer_template,
    context_templates,
    draw_tail,
    frames_for,
)
from .labels import ALTERNATION_LABELS
from .lexicon import Verb
from .matrices import LEXICAL_TYPES, Matrix, Sentence, pick
from .verb_groups import DURATION_FRAMES

#: a sentence where the agent acts, with a temporal "da": fresh words take a span it acts over
_AGENT_ACTS = ("Ag", "Akt", "da-NP")
#: the chance that a type II context sentence without "da" changes its frame first (the
#: others change a word): a frame changed is never the matrix's own (:func:`vary_one`), so
#: the more often the frame changes, the fewer od_ii's remoti (with OdI's frames of issue
#: 40's fifth round, 16.9-17.6 % at 0.95, 17.2-17.9 % at 0.75, on seeds 0-3; the release
#: 17-20 %); at 1.0, before its fourth round, od_ii's contexts named 217 distinct nouns.
#: CausI's sentences keep the matrix's frame (mostly a remoto of the modals, which in a mishap's
#: matrix only the change of itself and a cause can take): with the matrix's frame drawn from
#: FRAMES alone, caus_ii's remoto was 10.5 % at 0.9, 14.0 % at 0.3 and 16.1 % at 0.0 (seed 0)
CONTEXT_FRAME_CHANGE = {"causative": 0.0, "object_drop": 0.75}
_MAX_DRAWS = 200
#: the chance that a context sentence's agent is drawn from its verb's context agents alone
#: (:attr:`.Verb.context_agents`, where it has some): the verbs' own agents are few and shared
#: (*il bambino*, *la bambina*, *il gatto*), so the contexts' agents repeat; at 0.6 caus_iii's
#: contexts hold 315-321 lemmas per 100 sentences on seeds 0-3 (297-300 with no context
#: agents; with only them added, before the occasions and the modifiers, 310-318 at 0.5-0.8
#: on seeds 0-1 and 313 at 0.4 on seed 0)
CONTEXT_AGENT_SHARE = 0.6


class AlternationGenerator(AlternationFilters):
    """Draws CausI/OdI words and matrices for the verbs of one alternation class, under the
    lexicon's filters (:class:`.AlternationFilters`)."""

    def fresh_words(
        self,
        verb: Verb,
        rng: random.Random,
        frames=DURATION_FRAMES,
        for_answers: bool = False,
        templates: tuple[tuple[str, ...], ...] = (),
        alone: bool = False,
        paired: bool = False,
    ) -> AlternationWords:
        """Words for ``verb`` that read well (:meth:`reads_well`) in every one of
        ``templates``; ``for_answers``: from the agents and patients the answers use;
        ``alone``: with "da solo" (:data:`ALONE`); ``paired``: an agent and a patient that name
        each other (:func:`.named_pairs`); answers' words as :mod:`.alternation_answers` says."""
        agents, patients, pairs, paired = self._arguments(verb, for_answers, paired)
        context_agents = [a for a in agents if a in verb.context_agents]
        if for_answers:  # an agent with a patient of its gender
            agents = gender_matched(self.lexicon, verb, agents, patients) or agents
        generic = self.iterated(verb, () if for_answers else templates)
        # OdI's kinds of doer plural as I-Int names them (*le trote di pescatori*; mass: sg)
        doers = paired and self.alternation == "object_drop"
        for _ in range(_MAX_DRAWS):
            pool = agents
            if context_agents and rng.random() < CONTEXT_AGENT_SHARE:
                pool = context_agents
            agent = draw_noun_phrase(self.lexicon, pool, rng, [], plural=doers, agent=True)
            fitting = [p for p in patients if verb.can_act_on(agent.noun.lemma, p)]
            if paired:
                fitting = [p for p in fitting if p in pairs[agent.noun.lemma]]
            if for_answers:  # no article or ending tells the correct answer from I-Int
                fitting = same_gender(self.lexicon, fitting, agent)
            patient = draw_noun_phrase(
                self.lexicon,
                fitting,
                rng,
                [agent.noun.lemma],
                verb.plural_patients,
                singular=for_answers and agent.noun.cause_kind is not None,
                generic=generic,
                many=generic and verb.mishap and verb.habitual_agents != (),
            )
            if for_answers:  # *il mietitore di grano* / *il grano di mietitore*
                agent = in_number_of_mass(self.alternation, agent, patient)
            # paired (answer) words need not act over the span: *la torta del cuoco si brucia*
            spans = () if paired else self.spans_for(verb, _AGENT_ACTS, agent.noun)
            da_phrases = [p for span in (spans or verb.da_spans) for p in self.da_phrases[span]]
            words = AlternationWords(
                agent,
                patient,
                pick(rng, self.p_phrases_for(verb)),
                ALONE if alone else pick(rng, da_phrases),
                pick(rng, frames),
            )
            if all(self.reads_well(verb, words, t, for_answers) for t in templates):
                return words
        raise NoReadableWords(f"no words of {verb.lemma!r} read well in {templates}")

    @staticmethod
    def _arguments(verb: Verb, for_answers: bool, paired: bool):
        """The agents and patients ``verb``'s words draw from (the answers' own where
        ``for_answers``), each able to act on or undergo some other, the named pairs, and whether
        the words are ``paired`` (only where some agent names a patient: :func:`.named_pairs`)."""
        agents = verb.answer_agents() if for_answers else verb.agents
        patients = verb.answer_patients() if for_answers else verb.patients
        pairs = named_pairs(verb)
        if paired and any(a in pairs for a in agents):
            agents = [a for a in agents if a in pairs]
            patients = [p for p in patients if any(p in pairs[a] for a in agents)]
        else:
            paired = False
        agents = [a for a in agents if any(verb.can_act_on(a, p) for p in patients)]
        return agents, patients, pairs, paired

    def vary_one(
        self,
        verb: Verb,
        words: AlternationWords,
        template: tuple[str, ...],
        rng: random.Random,
        for_answers: bool = False,
        first: str | None = None,
    ) -> AlternationWords:
        """``words`` with one word of ``template`` replaced (same numbers and determiners),
        so that the sentence reads well (:meth:`reads_well`); the slot ``first`` is tried
        first (``"frame"``: a type II context sentence tells its event in another frame), and
        only the frame where a context sentence's is none of its template's."""
        slots = ["frame"]
        slots += ["agent"] * any("Ag" in tag for tag in template)
        slots += ["patient"] * any("Pat" in tag for tag in template)
        slots += ["other_phrase"] * ("P-NP" in template)
        slots += ["da_phrase"] * ("da-NP" in template and words.da_phrase != ALONE)
        order = rng.sample(slots, len(slots))
        if first in order:
            order.remove(first)
            order.insert(0, first)
        untold = not for_answers and words.frame not in frames_for(template, self.alternation)
        if untold and not verb.consumed:
            # the answers' present or imperfect is no frame of a sentence with a P-NP (*il
            # tappezziere cuce prima di pranzo*): its frame changes, or it is not told; what
            # one eats or drinks takes no modal passive, so its passives keep the present
            # (*la minestra viene mangiata nel pomeriggio*)
            order = ["frame"]
        for slot in order:
            current = getattr(words, slot)
            if slot in ("agent", "patient"):
                nouns = [
                    self.lexicon.nouns[lemma]
                    for lemma in replacements(
                        self.lexicon, verb, words, slot, for_answers, template
                    )
                ]
                values = [current.with_noun(noun) for noun in nouns]
            else:
                values = {
                    # the answers share the tenses of the correct one: no tense tells it apart
                    "frame": DURATION_FRAMES
                    if for_answers
                    else frames_for(template, self.alternation),
                    "other_phrase": self.p_phrases_for(verb),
                    "da_phrase": self.da_phrases_for(verb),
                }[slot]
                values = [v for v in values if v != current]
            options = self._readable_variants(verb, words, slot, values, template, for_answers)
            if options:
                return pick(rng, options)
        raise NoReadableWords(f"no word of {template} can be varied for {verb.lemma!r}")

    def _context_verbs(self, pool: list[Verb], templates, rng: random.Random) -> list[Verb]:
        """Verbs of ``pool`` for the ``templates`` of a type III context, all different when
        the pool allows (so a context has several verbs, and the item's own only by chance),
        each one a verb that can take its template (:meth:`takes`: no routine verb where the
        thing alone is the subject of a temporal "da")."""
        count = len(templates)
        for _ in range(_MAX_DRAWS):
            if len(pool) >= count:
                chosen = rng.sample(pool, count)
            else:
                chosen = [pool[i % len(pool)] for i in rng.sample(range(count), count)]
            if all(self.takes(verb, template) for verb, template in zip(chosen, templates)):
                return chosen
        raise NoReadableWords("no verbs of the pool take the context's templates")

    def sentence(self, verb: Verb, words: AlternationWords, template: tuple[str, ...]) -> Sentence:
        return alternation_sentence(self.lexicon, self.alternation, verb, words, template)

    def matrix(
        self,
        verb: Verb,
        rng: random.Random,
        lexical_type: str,
        context_verbs: list[Verb] | None = None,
    ) -> Matrix:
        """One matrix of ``verb`` of ``lexical_type`` (II or III); a type III context draws its
        sentences' verbs from ``context_verbs`` (default: every verb of the class), all
        different when there are enough."""
        require_choice(lexical_type, LEXICAL_TYPES, "lexical type")
        for attempt in range(_MAX_DRAWS):
            # a verb whose paired words never make every answer read well: unpaired answers
            paired = attempt < _MAX_DRAWS // 2 and rng.random() < PAIRED_ANSWERS[self.alternation]
            try:
                return self._matrix(verb, rng, lexical_type, context_verbs, paired)
            except NoReadableWords:  # base words no single change makes read well
                continue
        raise ValueError(f"no {lexical_type} matrix of {verb.lemma!r} reads well")

    def _matrix(self, verb, rng, lexical_type, context_verbs, paired=False) -> Matrix:
        # base words fit the correct answer with its tail and, as the agent acts, its span
        tails = {
            label: draw_tail(label, rng, verb.alone, verb.alone_only, ALONE_RATE[verb.alternation])
            for label in ALTERNATION_LABELS
        }
        correct = answer_template(self.alternation, "Correct", tails["Correct"])
        alone = tails["Correct"] == "alone"
        base = self.fresh_words(verb, rng, DURATION_FRAMES, True, (correct,), alone, paired)
        templates = context_templates(self.alternation)
        if lexical_type == "III":
            pool = context_verbs or [*self.verbs, *self.context_only]
            chosen_verbs = self._context_verbs(pool, templates, rng)
        # the contexts' "da" phrases are temporal: one for the matrix when the base says "da solo"
        timed = base.da_phrase if base.da_phrase != ALONE else pick(rng, self.da_phrases_for(verb))
        context_base = replace(base, da_phrase=timed)
        type_ii_base = with_modifiers(context_base, rng, verb)  # not the answers'
        told = []  # (verb, words, template) of each context sentence
        # the context's own draws: however many it takes, the answers' draws stay the same
        told_rng = random.Random(rng.getrandbits(64))
        # a type II matrix's sentences without "da" start from one frame of theirs
        told_frame = pick(told_rng, TYPE_II_FRAMES[self.alternation])
        for index, template in enumerate(templates):
            if lexical_type == "II":
                start = type_ii_base
                if "P-NP" in template:
                    start = self._told_start(verb, type_ii_base, template, told_frame, told_rng)
                generic = self.iterated(verb, (template,))  # the one change: *le sue matite*,
                words = possessed(start, template, verb, generic, told_rng)  # or another word
                if words is start or not self.reads_well(verb, words, template):
                    change = told_rng.random() < CONTEXT_FRAME_CHANGE[self.alternation]
                    first = "frame" if change else None
                    words = self.vary_one(verb, start, template, told_rng, first=first)
                told.append((verb, words, template))
            else:
                chosen = chosen_verbs[index]
                words = self.fresh_words(
                    chosen, told_rng, frames_for(template, self.alternation), templates=(template,)
                )
                generic = self.iterated(chosen, (template,))
                words = possessed(words, template, chosen, generic, told_rng)
                modified = with_modifiers(words, told_rng, chosen)  # and reads well: *vecchio*
                words = modified if self.reads_well(chosen, modified, template) else words
                told.append((chosen, words, template))
        kind, bases = (lexical_type, paired), (base, context_base)
        answers = [
            (label, self._answer(verb, bases, label, tails[label], rng, kind))
            for label in ALTERNATION_LABELS
        ]
        context = tuple(self.sentence(*sentence) for sentence in told)
        plain = tuple(self.sentence(v, without_modifiers(w), t) for v, w, t in told)
        return Matrix(context, tuple(answers), verb=verb.lemma, plain_context=plain)

    def _told_start(self, verb, base, template, told_frame, rng) -> AlternationWords:
        """The words a type II context sentence with a P-NP starts from: the matrix's words in
        the matrix's frame for such sentences, or, where that frame does not read well, in
        another frame of the template that does (not the answers' present: *i gatti
        sfilacciano i loro cuscini a metà pomeriggio*); the base itself where none does."""
        framed = replace(base, frame=told_frame)
        if self.reads_well(verb, framed, template):
            return framed
        frames = frames_for(template, self.alternation)
        others = self._readable_variants(verb, base, "frame", frames, template)
        return pick(rng, others) if others else base

    def _readable_variants(
        self, verb, words, slot: str, values, template, for_answers: bool = False
    ) -> list[AlternationWords]:
        """``words`` with ``slot`` set to each of ``values`` that reads well in ``template``
        (:meth:`reads_well`), in the order and with the repeats of ``values`` (a frame listed n
        times is drawn n times as often); each distinct value is made and judged once."""
        made: dict = {}
        for value in values:
            if value not in made:
                variant = replace(words, **{slot: value})
                readable = self.reads_well(verb, variant, template, for_answers)
                made[value] = variant if readable else None
        return [made[value] for value in values if made[value] is not None]

    def _matched_subject(self, verb, words, template, subject: bool) -> AlternationWords:
        """Answer ``words`` by :func:`.matched_subject`, if they still read well."""
        changed = matched_subject(self.alternation, words, subject)
        return changed if self.reads_well(verb, changed, template, True) else words

    def _answer(self, verb, bases, label, tail, rng, kind) -> Sentence:
        """The answer labelled ``label`` with ``tail`` (a two-argument one goes without a tail no
        change makes read well); ``bases``: the matrix's words, with the correct answer's tail
        and with the contexts' temporal phrase; ``kind``: the lexical type and paired words."""
        (base, timed), (lexical_type, paired) = bases, kind
        fallback = "none" if tail != "none" and label not in ("Correct", "I-Int") else None
        for current in (tail, fallback):
            if current is None:
                break
            template = answer_template(self.alternation, label, current)
            try:
                if lexical_type == "III":
                    words = self.fresh_words(
                        verb, rng, DURATION_FRAMES, True, (template,), current == "alone", paired
                    )
                else:
                    start = base if current == "none" else timed
                    if current == "alone":
                        start = replace(timed, da_phrase=ALONE)
                    words = self.vary_one(verb, start, template, rng, for_answers=True)
            except NoReadableWords:
                continue
            if current == "alone":
                words = one_thing_alone(self.alternation, words)
            words = self._matched_subject(verb, words, template, label == "I-Int")
            if label in ("Correct", "I-Int"):  # *i pescatori di trote*; *per il vento*
                words = with_specialist(self.lexicon, verb, words, template, rng)
                span = self.span_of.get(words.da_phrase)  # None for *da solo*
                if self.by_day_overnight(words.agent.noun, words.da_phrase):
                    span = None  # no cause named: not *si asciugava al sole da ieri sera*
                words = with_cause(self.lexicon, verb, words, template, span)
            return self.sentence(verb, words, template)
        raise NoReadableWords(f"no {label} answer of {verb.lemma!r} reads well")
