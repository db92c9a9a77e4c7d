"""The Italian lexicon of the BLM generator: nouns, adjectives, verbs, templates, phrases.

The bundled lexicon is the JSON files in ``blm/generator/data/`` (written for this project):

* ``nouns.json``: lemma (singular), gender, plural, animacy, semantic classes, ``mass``
  (singular only), ``kinship`` (*sua madre*), ``plural_gender`` (*l'uovo, le uova*),
  ``onset`` where the spelling misleads the article rules (*chef*: ``"lo"``, as
  :data:`~poetic_eval.blm.generator.articles.ONSETS` lists), ``cause_kind`` (a cause's kind),
  ``cause_preposition`` (*al sole*, *per il vento*), ``personal`` (one owner's only: *lo
  zaino*), ``definite`` (never indefinite: *l'ombra*) and ``few`` (a relative of a known
  small count: not *alcune nonne di X*);
* ``noun_modifiers.json``: per noun lemma, the lasting modifiers of its CausI/OdI noun phrases
  (:class:`NounModifier`: *il vaso di vetro*, *il vecchio portiere*);
* ``adjectives.json``: masculine singular lemma, irregular masculine plural, ``invariable``,
  ``permanent`` (a lasting property: no future, *sarà bianco* is odd);
* ``verbs.json``: lemma, auxiliary, ``isc``, the forms the regular rules get wrong, and for
  the alternation verbs their class (``causative`` / ``object_drop``), agents and patients and
  the semantic filters of the answers, the spans of temporal "da" phrase and the P-NPs it
  takes (:class:`Verb`);
* ``agreement_templates.json``: BLM-AgrI attachments (``exclusive``: a singular head belongs
  to one dependent only), predicates (with ``objects`` for a transitive one,
  ``singular_object``, ``planned``), clause prefixes (``certain_prefixes``, ``rumour_prefixes``),
  and the verbs (``che``, ``di cui``) and subject classes of the relative clause;
* ``alternation_phrases.json``: BLM-CausI/OdI non-argument phrases (P-NP, with an ``id`` and
  ``schedule``, and temporal da-NP, with a ``span``), the ``cause_kinds`` (:class:`CauseKind`)
  and the ``habitual_spans``.

This module holds the entry types only; :func:`.lexicon_loading.load_lexicon` reads a folder of
these files and runs :mod:`.lexicon_checks` on it (the checks import these types, the loader
imports the checks, so no module imports one that imports it back).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ...checks import require_choice
from ...errors import LexiconError

ALTERNATIONS = ("causative", "object_drop")
#: the spans of the temporal "da" phrases, shortest first: da qualche minuto, da un'ora,
#: dall'alba, da un mese, da alcuni anni
DA_SPANS = ("minutes", "hours", "morning", "weeks", "years")


@dataclass(frozen=True)
class NounModifier:
    """A lasting property of a noun (``noun_modifiers.json``): an agreeing ``adjective``,
    ``before`` the noun (*il vecchio portiere*) or after it (*il cuoco francese*), or a "di"
    phrase, ``tail``, rendered once (*di vetro*, *di mele*, *della cucina*). Equal modifiers of
    two nouns are equal, so a noun that replaces another keeps the one they share."""

    adjective: Adjective | None = None
    before: bool = False
    tail: str = ""
    #: the lemma of the "di" phrase's noun (*vetro* of *di vetro*, *cucina* of *della cucina*)
    noun: str = ""
    #: a "di" phrase with the definite article, a place or an owner (*della cucina*, *del
    #: vicino*): not beside a possessive (*i loro asciugamani del bagno*)
    definite: bool = False


#: the noun classes of animals, which own only what a verb's owners say (*il cane* his rope)
ANIMAL_CLASSES = frozenset({"animal", "farm_animal", "wild_animal", "fish"})


@dataclass(frozen=True, eq=False)  # one object per entry: identity is equality
class Noun:
    lemma: str
    gender: str
    plural: str
    animacy: str
    classes: tuple[str, ...]
    mass: bool = False
    kinship: bool = False
    plural_gender: str | None = None
    onset: str | None = None  # how the noun begins, when not as spelled (chef: "lo")
    #: a natural or mechanical cause's kind (``cause_kinds`` of alternation_phrases.json: an
    #: ``event`` such as il terremoto happens once, a ``force`` such as il sole acts for
    #: minutes or hours, ...): the spans of temporal "da" phrase and the frames it takes
    cause_kind: str | None = None
    #: the preposition that names a cause after a si verb (*si scioglie al sole*, *si
    #: restringe nella lavatrice*, *si bagna sotto la pioggia*; most causes: *per il vento*)
    cause_preposition: str = "per"
    #: one owner's or one parent's only (lo zaino, la figlia): a singular one of several is
    #: odd (*lo zaino delle zie*, *la figlia di quelle cameriere*), and the AgrI counter pairs
    #: every number with every number, so it heads no attachment there
    personal: bool = False
    #: a thing spoken of as known (l'ombra, of what the sun lights; la matematica, a field):
    #: never indefinite nor demonstrative in CausI/OdI (*il sole allunga un'ombra*, *alcune
    #: ombre si accorciano*, *quella matematica*)
    definite: bool = False
    #: a relative one has only a few of, a known count (la nonna: two): an indefinite plural
    #: of them is odd (*alcune nonne di quell'infermiere*), so AgrI gives it the definite
    #: article instead (*le nonne di quell'infermiere*)
    few: bool = False
    #: its lasting modifiers (``noun_modifiers.json``), set by the loader
    modifiers: tuple[NounModifier, ...] = ()

    def form(self, number: str) -> str:
        return self.lemma if number == "sg" else self.plural

    @property
    def animal(self) -> bool:
        return not ANIMAL_CLASSES.isdisjoint(self.classes)

    @property
    def person(self) -> bool:
        """Animate, and neither an animal nor a cause."""
        return self.animacy == "animate" and self.cause_kind is None and not self.animal

    def gender_in(self, number: str) -> str:
        """The gender agreement sees: *le uova* is feminine though *l'uovo* is masculine."""
        if number == "pl" and self.plural_gender:
            return self.plural_gender
        return self.gender

    @property
    def numbers(self) -> tuple[str, ...]:
        return ("sg",) if self.mass else ("sg", "pl")


@dataclass(frozen=True, eq=False)  # one object per entry: identity is equality
class Adjective:
    lemma: str
    masculine_plural: str | None = None
    invariable: bool = False
    permanent: bool = False  # a lasting property (bianco, grande): not in the future

    def form(self, gender: str, number: str) -> str:
        """The form agreeing with ``gender`` (m/f) and ``number`` (sg/pl)."""
        return adjective_form(self.lemma, gender, number, self.masculine_plural, self.invariable)


def adjective_form(
    lemma: str,
    gender: str,
    number: str,
    masculine_plural: str | None = None,
    invariable: bool = False,
) -> str:
    """Regular adjective (and past participle) agreement from the masculine singular.

    -o: -o/-a/-i/-e, with -co/-go -> -chi/-ghi/-che/-ghe and -io -> -i/-ie (*vecchi*); -e:
    -e/-e/-i/-i. ``masculine_plural`` overrides the rule (*simpatici*).
    """
    if invariable:
        return lemma
    if lemma.endswith("e"):
        return lemma if number == "sg" else lemma[:-1] + "i"
    if not lemma.endswith("o"):
        raise LexiconError(f"adjective {lemma!r}: expected a masculine singular in -o or -e")
    stem = lemma[:-1]
    if number == "sg":
        return stem + ("o" if gender == "m" else "a")
    if gender == "m":
        if masculine_plural:
            return masculine_plural
        if stem.endswith(("c", "g")):
            return stem + "hi"
        return stem if stem.endswith("i") else stem + "i"
    return stem + ("he" if stem.endswith(("c", "g")) else "e")


@dataclass(frozen=True, eq=False)  # one object per entry: identity is equality
class Verb:
    lemma: str
    aux: str = "avere"
    isc: bool = False
    present: tuple[str, str] | None = None
    imperfect: tuple[str, str] | None = None
    future: tuple[str, str] | None = None
    remote: tuple[str, str] | None = None  # passato remoto, where irregular (ruppe, ruppero)
    participle: str | None = None
    alternation: str | None = None
    agents: tuple[str, ...] = ()
    patients: tuple[str, ...] = ()
    #: a punctual event (rompere): with a temporal "da" phrase only an iterated one reads
    #: naturally, so its patients are plural
    punctual: bool = False
    #: agents whose "si" form of this verb is a natural reflexive (*il bambino si bagna*): the
    #: answers never use them, so that the I-Int distractor stays wrong
    reflexive_agents: tuple[str, ...] = ()
    #: agents only the contexts name (also in :attr:`agents`): the trades and people around
    #: the event (*il facchino ha rotto lo specchio*), which give the contexts a vocabulary as
    #: varied as the release's; no answer uses them, so the answers keep their agents
    context_agents: tuple[str, ...] = ()
    #: patients a "da" reads as the source of (*studiano dal libro*): the answers never use
    #: them, so that the E-WrBy distractor stays wrong
    source_patients: tuple[str, ...] = ()
    #: patients that do it themselves as the intransitive's subject (*le sigarette fumano*:
    #: they give off smoke): the answers never use them, so that OdI's I-Int stays wrong
    acting_patients: tuple[str, ...] = ()
    #: agents that can act on some patients only (*il sole* shortens a shadow, not a dress)
    agent_patients: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the spans of temporal "da" phrase (:data:`DA_SPANS`) the verb's events take naturally:
    #: a quick process minutes only (*la torta si brucia da qualche minuto*, not *da tre ore*),
    #: a slow one hours too (*la piscina si svuota da tre ore*), an iterated punctual event
    #: weeks (*i vasi si rompono da alcuni giorni*, not *da alcuni anni*), an activity most
    da_spans: tuple[str, ...] = ()
    #: the ids of the P-NPs (``other_phrases`` of alternation_phrases.json) its events take:
    #: the sun lengthens shadows in the afternoon, not after dinner; a vase that breaks does
    #: not break *per la prima volta*; a spoon does not bend *all'alba*
    p_phrases: tuple[str, ...] = ()
    #: the agents (not causes: their kind says it) whose doing it again and again is a habit
    #: (*il gatto rompe i vasi da un mese*); None: every agent; the others take no habitual
    #: span (not *gli operai incrinano le pareti dal mese scorso*)
    habitual_agents: tuple[str, ...] | None = None
    #: a punctual event people do as a routine (aprire, chiudere, accendere, spegnere): its
    #: repetition is no news, so a habitual span reads only as a named habitual agent's habit
    #: (*il portiere chiude i cancelli da un mese*), never with the thing alone as subject
    #: (*le porte si chiudono da un mese*, *i cancelli venivano chiusi da due settimane*); no
    #: span then fits the correct answer (patient + si + verb + "da"), so the verb is no item
    #: verb, only a verb of type III contexts
    routine: bool = False
    #: a CausI verb whose one-argument answers give the correct answer away: its person
    #: agents read as reflexive (*il cuoco si brucia*, *il tecnico si riscalda*), so that its
    #: answers name only causes and a context-blind baseline scored 0.90-1.0 on it; or whose
    #: I-Int is natural Italian with a person (*il muratore si allarga*, "takes liberties");
    #: or an object-drop verb whose named patient takes no span (*infornare*: not *le torte
    #: venivano infornate da cinque minuti*), so its type II contexts cannot be told.
    #: No item verb, only a verb of type III contexts, like a routine verb
    context_only: bool = False
    #: patients no person changes so on purpose (*il sole allunga le ombre*, *il cuoco brucia
    #: l'arrosto* by mishap): a passive without agent implies a person did it (*le ombre
    #: venivano allungate*, *il biscotto viene bruciato da cinque minuti*), so they take none
    cause_patients: tuple[str, ...] = ()
    #: its patients are portions one consumer takes one at a time (mangiare, bere), or vehicles
    #: one drives one at a time (guidare): a single agent with a temporal "da" has no plural
    #: patient (*il ragazzo mangiava i panini da qualche minuto*, *i succhi vengono bevuti da
    #: questo nonno dall'alba*, *le moto vengono guidate da questo ragazzo da pochi minuti*)
    portions: bool = False
    #: an event that happens by mishap (bruciare, bagnare, rompere): no one does it on purpose
    #: over a span, so an agent that is no cause takes a temporal "da" only as a habitual
    #: agent's habit (not *il fornaio brucia quella torta da cinque minuti*), and no one
    #: plans it, so with a P-NP it might happen or must, may or might have happened
    #: (*potrebbe bruciare*, *deve essersi bruciata*, *la torta dovette bruciarsi*; not *il
    #: fuoco brucerà i biscotti nel pomeriggio*, *i chiodi si piegheranno*, *il cucchiaio può
    #: piegarsi*, *il cuoco dovette bruciare la torta*)
    mishap: bool = False
    #: what one eats, drinks or smokes (mangiare, bere, fumare): no modal passive, as if it
    #: were a duty or a chance to be consumed (not *l'acqua deve essere bevuta dalla
    #: studentessa*, *il vino poté essere bevuto*, *le sigarette dovevano essere fumate*)
    consumed: bool = False
    #: a change no one makes on purpose, worn in over time (logorare, sfilacciare, deformare):
    #: no one can or must make it (not *il gatto dovette logorare la tenda*), nor is it
    #: expected (not *il tappeto dovrebbe sfilacciarsi*)
    wear: bool = False
    #: patients one person handles alone (a bottle, a bucket, a ball): several agents never act
    #: on a single one (not *gli idraulici svuotavano la bottiglia*, *quei marinai sgonfiavano
    #: il materassino*)
    small_patients: tuple[str, ...] = ()
    #: the modifiers its patient never takes in a context (an adjective's lemma or the noun of
    #: a "di" phrase, :data:`.noun_modifiers`): no age on what it creates (not *le vecchie
    #: melodie venivano composte*), no material it cannot change (not *i cucchiai di legno
    #: sono stati piegati*)
    patient_refuses: tuple[str, ...] = ()
    #: an object-drop verb whose patients are other people's (the pupils' homework one
    #: corrects, the customer's car one repairs): its agent never owns them (not *i maestri
    #: correggevano i loro errori*); the others' agents own what they act on
    others_things: bool = False
    #: an object-drop verb whose named object is a field one practises for years (*insegnare
    #: la matematica da anni*): a named patient takes the habitual spans, which are then its
    #: only ones (not *insegnava la matematica da tre ore*, nor *da cinque minuti*)
    habitual_objects: bool = False
    #: an object-drop agent and the patients that name its kind as "agent di patient" (*il
    #: pescatore di trote*, *la professoressa di storia*): OdI's one-argument answers may name
    #: it so (:func:`.alternation_sentences.with_specialist`)
    specialists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: a causative agent and the patients it owns, uses or makes (*i piatti del cameriere*,
    #: *la torta del fornaio*): CausI's one-argument answers may name it so
    owners: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: an object-drop verb whose doer does it, without object, as a job or a pastime over weeks
    #: and years (*la pittrice dipinge da anni*, *il tassista guida da anni*); the others, the
    #: everyday chores (*spolverare*, *impastare*, *lavare*), take no habitual span without
    #: their object (not *il custode spolverava da un anno circa*)
    habitual_intransitive: bool = False
    #: the subject the alternation keeps can do it or undergo it alone, so an answer's "da"
    #: phrase may be *da solo* (*le finestre si aprono da sole*, *la pittrice disegna da sola*)
    alone: bool = False
    #: its si form takes "da solo" and no temporal "da" (*i vetri si rompono da soli*, not
    #: *i vetri si rompono dalla settimana scorsa*): the correct answer and I-Int say "da solo"
    alone_only: bool = False
    #: the other role with "da solo" reads as natural (*le macchine guidano da sole*, of cars
    #: that drive themselves): I-Int never takes "da solo", so that it stays wrong
    others_act_alone: bool = False

    def can_act_on(self, agent: str, patient: str) -> bool:
        """Whether ``agent`` can do this verb's action to ``patient``."""
        return agent not in self.agent_patients or patient in self.agent_patients[agent]

    @property
    def plural_patients(self) -> bool:
        """Whether the patients are plural (when countable), so that a temporal "da" reads as
        iterated or habitual: a punctual event (*i vasi si rompono da un mese*) and an
        object-drop activity (*lava i piatti da un'ora*, not *mangia il panino dall'alba*)."""
        return self.punctual or self.alternation == "object_drop"

    def answer_agents(self) -> tuple[str, ...]:
        excluded = (*self.reflexive_agents, *self.context_agents)
        return tuple(a for a in self.agents if a not in excluded)

    def answer_patients(self) -> tuple[str, ...]:
        excluded = (*self.source_patients, *self.acting_patients)
        return tuple(p for p in self.patients if p not in excluded)


@dataclass(frozen=True, eq=False)  # one object per entry: identity is equality
class Attachment:
    """A noun of class ``head`` takes ``preposition`` + a noun of class ``dependent``."""

    head: str
    preposition: str
    dependent: str
    #: a singular head belongs to one dependent only (a pencil in one box, a nurse of one
    #: hospital, a coat worn by one person): with several it is odd (*una matita in alcune
    #: scatole*); the AgrI counter pairs every number with every number, so an exclusive
    #: attachment is not used there
    exclusive: bool = False


@dataclass(frozen=True, eq=False)  # one object per entry: identity is equality
class Predicate:
    """An AgrI predicate: a verb (``voice`` "active" or "si"), or essere + an adjective."""

    subjects: tuple[str, ...]
    verb: str | None = None
    adjective: str | None = None
    voice: str = "active"
    objects: tuple[str, ...] = ()  # noun lemmas a transitive predicate takes as its object
    #: the object is singular (*aspetta il treno*, not *aspetta alcuni treni*)
    singular_object: bool = False
    #: its future reads as a plan (*partirà*, *il libro uscirà*): told in the future after any
    #: prefix or none; an unplanned one (*le oche scapperanno*) only after a rumour prefix
    planned: bool = False

    @property
    def lemma(self) -> str:
        return self.verb if self.verb else "essere"


@dataclass(frozen=True)
class PhraseSpec:
    """A prepositional phrase of the templates: preposition + determiner + noun (+ tail)."""

    preposition: str
    determiner: str
    noun: str
    number: str = "sg"
    pre_adjective: str | None = None
    post_adjective: str | None = None
    tail: PhraseSpec | str | None = None
    #: a temporal "da" phrase's span, one of :data:`DA_SPANS` (da un'ora: "hours")
    span: str | None = None
    #: a P-NP's name, which the verbs' ``p_phrases`` list (al tramonto: "sunset")
    id: str | None = None
    #: a temporal "da" phrase whose span takes in a night (da ieri sera): no cause that acts by
    #: day only (:attr:`CauseKind.daylight`) acts over it
    night: bool = False
    #: a P-NP of people's times and doings (dopo cena, all'alba, sotto gli occhi di tutti): a
    #: cause names it only if its kind
    #: keeps time (*il sole*, *la sveglia*; not *il vento chiude i cancelli dopo cena*)
    schedule: bool = False
    #: a P-NP of a time of day (nel pomeriggio, al tramonto), not of an occasion or a season
    #: (al primo lavaggio, durante l'inverno): what might happen of itself is foreseen at an
    #: occasion, not at a time of day (*la camicia potrebbe strapparsi al primo lavaggio*, not
    #: *i vasi potrebbero rompersi nel pomeriggio*)
    clock: bool = False
    #: a P-NP of a place or a manner (in cucina, con cura), not of a time: like a time of day,
    #: no occasion at which a mishap is foreseen of itself (not *i vasi potrebbero rompersi in
    #: cucina*; *il bambino potrebbe rompere i vasi in cucina*)
    setting: bool = False
    #: a manner of one's own liking (con gusto, con passione): no one is obliged to do
    #: anything so (not *i bambini dovettero mangiare la minestra con gusto*)
    feeling: bool = False
    #: a manner of doing (con cura, a mano, in fretta): what one did is told with it, or what
    #: one must do, not what one can (not *la nonna poté ricamare con metodo*, *gli arazzi
    #: possono essere tessuti al telaio*); a ``feeling`` is none (it takes no *dovere*)
    manner: bool = False
    #: an occasion of things, told with no agent (*i vasi potrebbero rompersi durante il
    #: trasloco*, *la torta deve essere stata bruciata durante la cottura*): who was there is
    #: listed for no agent (not *i pescatori potrebbero aggrovigliare le lenze durante il
    #: trasloco*, *il traslocatore deve aver rotto gli specchi durante le pulizie*)
    agentless: bool = False


@dataclass(frozen=True)
class CauseKind:
    """What a kind of cause (:attr:`Noun.cause_kind`) takes: the spans of temporal "da" phrase
    over which it acts and the frames it is told in (an event once: *il terremoto ha incrinato
    le pareti*, not *il terremoto incrina le pareti dal mese scorso*); no frames: it acts at no
    time of day, so never with a P-NP (wear: *l'umidità stacca le piastrelle*, not *nel
    pomeriggio*)."""

    spans: tuple[str, ...]
    frames: tuple[str, ...]
    keeps_time: bool = False  # it can act at a ``schedule`` P-NP's time (il sole all'alba)
    #: it acts by day only, so over no span that takes in a night (``night`` da phrases: not
    #: *il sole asciuga il bucato da ieri sera*)
    daylight: bool = False


@dataclass(frozen=True)
class Lexicon:
    nouns: Mapping[str, Noun]
    adjectives: Mapping[str, Adjective]
    verbs: Mapping[str, Verb]
    attachments: tuple[Attachment, ...]
    predicates: tuple[Predicate, ...]
    prefixes: tuple[str, ...]
    relative_verbs: tuple[str, ...]
    relative_subjects: tuple[str, ...]  # noun classes of the relative clause's subject
    other_phrases: tuple[PhraseSpec, ...]
    da_phrases: tuple[PhraseSpec, ...]
    #: the kinds of cause (``event``, ``force``, ...) by name
    cause_kinds: Mapping[str, CauseKind] = field(default_factory=dict)
    #: the spans that read as a habit or an iteration (da un mese, da alcuni anni): with them
    #: an object-drop verb's patient stays implicit (*il turista beve queste spremute dallo
    #: scorso inverno* is odd) and an iterated event's patient is generic (*i vasi*)
    habitual_spans: tuple[str, ...] = ()
    #: the AgrI prefixes that state a fact as known (*Sappiamo che*, *È vero che*): no future
    #: after them (not *È vero che il vaso cadrà*, a future accident told as known)
    certain_prefixes: tuple[str, ...] = ()
    #: the AgrI prefixes that pass on hearsay (*Si dice che*): the only ones before the future
    #: of an unplanned predicate (*Si dice che le oche scapperanno*, not bare or *Sappiamo che*)
    rumour_prefixes: tuple[str, ...] = ()
    #: (lemma, voice) of the verbs of AgrI's *di cui* relative clauses (*di cui i nonni
    #: parlano*, *di cui le zie si ricordano*)
    di_cui_verbs: tuple[tuple[str, str], ...] = ()
    files: tuple[Path, ...] = ()
    _classes: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def nouns_of_class(self, name: str) -> tuple[str, ...]:
        """Lemmas of the nouns in class ``name``, in file order."""
        if name not in self._classes:
            self._classes[name] = tuple(n.lemma for n in self.nouns.values() if name in n.classes)
        return self._classes[name]

    def alternation_verbs(self, alternation: str) -> list[Verb]:
        """The verbs of one alternation class, in file order."""
        require_choice(alternation, ALTERNATIONS, "alternation")
        return [verb for verb in self.verbs.values() if verb.alternation == alternation]

    def verb(self, lemma: str) -> Verb:
        if lemma not in self.verbs:
            raise LexiconError(f"verb {lemma!r} is not in the lexicon")
        return self.verbs[lemma]
