"""An independent reference for the BLM tests: Italian forms written out by hand, and a parser
that re-derives gender, number and determiner of a generated noun phrase.

Nothing here imports the generator's morphology (poetic_eval.blm.articles, .conjugation,
.verb_groups): the tables are typed in, and the article rules are restated as regular
expressions, so a mistake in the generator cannot be mirrored here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Third-person forms of every verb of the bundled lexicon:
# present sg/pl, imperfect sg/pl, future sg/pl, past participle (masculine singular).
VERB_TABLE = """
essere      è sono | era erano | sarà saranno | stato
avere       ha hanno | aveva avevano | avrà avranno | avuto
venire      viene vengono | veniva venivano | verrà verranno | venuto
potere      può possono | poteva potevano | potrà potranno | potuto
dovere      deve devono | doveva dovevano | dovrà dovranno | dovuto
arrivare    arriva arrivano | arrivava arrivavano | arriverà arriveranno | arrivato
partire     parte partono | partiva partivano | partirà partiranno | partito
tornare     torna tornano | tornava tornavano | tornerà torneranno | tornato
uscire      esce escono | usciva uscivano | uscirà usciranno | uscito
lavorare    lavora lavorano | lavorava lavoravano | lavorerà lavoreranno | lavorato
parlare     parla parlano | parlava parlavano | parlerà parleranno | parlato
sorridere   sorride sorridono | sorrideva sorridevano | sorriderà sorrideranno | sorriso
telefonare  telefona telefonano | telefonava telefonavano | telefonerà telefoneranno | telefonato
dormire     dorme dormono | dormiva dormivano | dormirà dormiranno | dormito
protestare  protesta protestano | protestava protestavano | protesterà protesteranno | protestato
ridere      ride ridono | rideva ridevano | riderà rideranno | riso
correre     corre corrono | correva correvano | correrà correranno | corso
scappare    scappa scappano | scappava scappavano | scapperà scapperanno | scappato
giocare     gioca giocano | giocava giocavano | giocherà giocheranno | giocato
saltare     salta saltano | saltava saltavano | salterà salteranno | saltato
cadere      cade cadono | cadeva cadevano | cadrà cadranno | caduto
sparire     sparisce spariscono | spariva sparivano | sparirà spariranno | sparito
funzionare  funziona funzionano | funzionava funzionavano | funzionerà funzioneranno | funzionato
crescere    cresce crescono | cresceva crescevano | crescerà cresceranno | cresciuto
aprire      apre aprono | apriva aprivano | aprirà apriranno | aperto
chiudere    chiude chiudono | chiudeva chiudevano | chiuderà chiuderanno | chiuso
rompere     rompe rompono | rompeva rompevano | romperà romperanno | rotto
spezzare    spezza spezzano | spezzava spezzavano | spezzerà spezzeranno | spezzato
bruciare    brucia bruciano | bruciava bruciavano | brucerà bruceranno | bruciato
sciogliere  scioglie sciolgono | scioglieva scioglievano | scioglierà scioglieranno | sciolto
asciugare   asciuga asciugano | asciugava asciugavano | asciugherà asciugheranno | asciugato
bagnare     bagna bagnano | bagnava bagnavano | bagnerà bagneranno | bagnato
piegare     piega piegano | piegava piegavano | piegherà piegheranno | piegato
gonfiare    gonfia gonfiano | gonfiava gonfiavano | gonfierà gonfieranno | gonfiato
svuotare    svuota svuotano | svuotava svuotavano | svuoterà svuoteranno | svuotato
riempire    riempie riempiono | riempiva riempivano | riempirà riempiranno | riempito
raffreddare raffredda raffreddano | raffreddava raffreddavano | raffredderà raffredderanno | raffreddato
riscaldare  riscalda riscaldano | riscaldava riscaldavano | riscalderà riscalderanno | riscaldato
accendere   accende accendono | accendeva accendevano | accenderà accenderanno | acceso
spegnere    spegne spengono | spegneva spegnevano | spegnerà spegneranno | spento
muovere     muove muovono | muoveva muovevano | muoverà muoveranno | mosso
fermare     ferma fermano | fermava fermavano | fermerà fermeranno | fermato
rovesciare  rovescia rovesciano | rovesciava rovesciavano | rovescerà rovesceranno | rovesciato
strappare   strappa strappano | strappava strappavano | strapperà strapperanno | strappato
allargare   allarga allargano | allargava allargavano | allargherà allargheranno | allargato
restringere restringe restringono | restringeva restringevano | restringerà restringeranno | ristretto
allungare   allunga allungano | allungava allungavano | allungherà allungheranno | allungato
accorciare  accorcia accorciano | accorciava accorciavano | accorcerà accorceranno | accorciato
svegliare   sveglia svegliano | svegliava svegliavano | sveglierà sveglieranno | svegliato
alzare      alza alzano | alzava alzavano | alzerà alzeranno | alzato
abbassare   abbassa abbassano | abbassava abbassavano | abbasserà abbasseranno | abbassato
spostare    sposta spostano | spostava spostavano | sposterà sposteranno | spostato
staccare    stacca staccano | staccava staccavano | staccherà staccheranno | staccato
sbriciolare sbriciola sbriciolano | sbriciolava sbriciolavano | sbriciolerà sbricioleranno | sbriciolato
frantumare  frantuma frantumano | frantumava frantumavano | frantumerà frantumeranno | frantumato
incrinare   incrina incrinano | incrinava incrinavano | incrinerà incrineranno | incrinato
mangiare    mangia mangiano | mangiava mangiavano | mangerà mangeranno | mangiato
bere        beve bevono | beveva bevevano | berrà berranno | bevuto
disegnare   disegna disegnano | disegnava disegnavano | disegnerà disegneranno | disegnato
dipingere   dipinge dipingono | dipingeva dipingevano | dipingerà dipingeranno | dipinto
scrivere    scrive scrivono | scriveva scrivevano | scriverà scriveranno | scritto
leggere     legge leggono | leggeva leggevano | leggerà leggeranno | letto
cantare     canta cantano | cantava cantavano | canterà canteranno | cantato
cucinare    cucina cucinano | cucinava cucinavano | cucinerà cucineranno | cucinato
studiare    studia studiano | studiava studiavano | studierà studieranno | studiato
pulire      pulisce puliscono | puliva pulivano | pulirà puliranno | pulito
stirare     stira stirano | stirava stiravano | stirerà stireranno | stirato
cucire      cuce cuciono | cuciva cucivano | cucirà cuciranno | cucito
suonare     suona suonano | suonava suonavano | suonerà suoneranno | suonato
guidare     guida guidano | guidava guidavano | guiderà guideranno | guidato
fumare      fuma fumano | fumava fumavano | fumerà fumeranno | fumato
lavare      lava lavano | lavava lavavano | laverà laveranno | lavato
ricamare    ricama ricamano | ricamava ricamavano | ricamerà ricameranno | ricamato
recitare    recita recitano | recitava recitavano | reciterà reciteranno | recitato
insegnare   insegna insegnano | insegnava insegnavano | insegnerà insegneranno | insegnato
cacciare    caccia cacciano | cacciava cacciavano | caccerà cacceranno | cacciato
pescare     pesca pescano | pescava pescavano | pescherà pescheranno | pescato
seminare    semina seminano | seminava seminavano | seminerà semineranno | seminato
tradurre    traduce traducono | traduceva traducevano | tradurrà tradurranno | tradotto
comporre    compone compongono | componeva componevano | comporrà comporranno | composto
correggere  corregge correggono | correggeva correggevano | correggerà correggeranno | corretto
copiare     copia copiano | copiava copiavano | copierà copieranno | copiato
impastare   impasta impastano | impastava impastavano | impasterà impasteranno | impastato
potare      pota potano | potava potavano | poterà poteranno | potato
scolpire    scolpisce scolpiscono | scolpiva scolpivano | scolpirà scolpiranno | scolpito
fotografare fotografa fotografano | fotografava fotografavano | fotograferà fotograferanno | fotografato
tessere     tesse tessono | tesseva tessevano | tesserà tesseranno | tessuto
spolverare  spolvera spolverano | spolverava spolveravano | spolvererà spolvereranno | spolverato
"""

# masculine singular, feminine singular, masculine plural, feminine plural
ADJECTIVE_TABLE = """
stanco stanca stanchi stanche
contento contenta contenti contente
felice felice felici felici
nervoso nervosa nervosi nervose
pronto pronta pronti pronte
gentile gentile gentili gentili
tranquillo tranquilla tranquilli tranquille
affamato affamata affamati affamate
nuovo nuova nuovi nuove
vecchio vecchia vecchi vecchie
rotto rotta rotti rotte
sporco sporca sporchi sporche
pulito pulita puliti pulite
pesante pesante pesanti pesanti
bianco bianca bianchi bianche
lungo lunga lunghi lunghe
vuoto vuota vuoti vuote
piccolo piccola piccoli piccole
grande grande grandi grandi
freddo fredda freddi fredde
caldo calda caldi calde
luminoso luminosa luminosi luminose
silenzioso silenziosa silenziosi silenziose
famoso famosa famosi famose
moderno moderna moderni moderne
efficiente efficiente efficienti efficienti
antico antica antichi antiche
scorso scorsa scorsi scorse
ultimo ultima ultimi ultime
primo prima primi prime
simpatico simpatica simpatici simpatiche
accanto accanto accanto accanto
"""

TENSES = ("present", "imperfect", "future")


@dataclass(frozen=True)
class VerbForms:
    lemma: str
    finite: dict[tuple[str, str], str]  # (tense, number) -> form
    participle: str

    def participle_form(self, gender: str, number: str) -> str:
        stem = self.participle[:-1]
        return stem + {("m", "sg"): "o", ("f", "sg"): "a", ("m", "pl"): "i", ("f", "pl"): "e"}[
            (gender, number)
        ]


def verb_table() -> dict[str, VerbForms]:
    table = {}
    for line in VERB_TABLE.strip().splitlines():
        lemma, rest = line.split(maxsplit=1)
        present, imperfect, future, participle = (part.split() for part in rest.split("|"))
        finite = {}
        for tense, forms in zip(TENSES, (present, imperfect, future)):
            finite[(tense, "sg")], finite[(tense, "pl")] = forms
        table[lemma] = VerbForms(lemma, finite, participle[0])
    return table


def adjective_table() -> dict[str, dict[tuple[str, str], str]]:
    table = {}
    for line in ADJECTIVE_TABLE.strip().splitlines():
        ms, fs, mp, fp = line.split()
        table[ms] = {("m", "sg"): ms, ("f", "sg"): fs, ("m", "pl"): mp, ("f", "pl"): fp}
    return table


VERBS = verb_table()
ADJECTIVES = adjective_table()
#: finite form -> [(lemma, tense, number)]
FINITE_FORMS: dict[str, list[tuple[str, str, str]]] = {}
for _verb in VERBS.values():
    for (_tense, _number), _form in _verb.finite.items():
        FINITE_FORMS.setdefault(_form, []).append((_verb.lemma, _tense, _number))

# --- articles and prepositions, restated
_VOWELS = "aeiouàèéìíòóù"
_LO = re.compile(r"^(s[^aeiouàèéìíòóù]|z|gn|ps|pn|x|y|i[aeiou])", re.IGNORECASE)
FUSED = {
    "di": ["del", "dello", "dell'", "della", "dei", "degli", "delle"],
    "a": ["al", "allo", "all'", "alla", "ai", "agli", "alle"],
    "da": ["dal", "dallo", "dall'", "dalla", "dai", "dagli", "dalle"],
    "in": ["nel", "nello", "nell'", "nella", "nei", "negli", "nelle"],
    "su": ["sul", "sullo", "sull'", "sulla", "sui", "sugli", "sulle"],
}
ARTICLES = ["il", "lo", "l'", "la", "i", "gli", "le"]
FUSED_TO_ARTICLE = {
    fused: (preposition, article)
    for preposition, forms in FUSED.items()
    for fused, article in zip(forms, ARTICLES)
}
POSSESSIVE_FORMS = {("m", "sg"): "suo", ("f", "sg"): "sua", ("m", "pl"): "suoi", ("f", "pl"): "sue"}
POSSESSIVES = set(POSSESSIVE_FORMS.values())
PREPOSITIONS = {"di", "a", "da", "in", "su", "con", "per", "sotto", "durante", "dopo", "e"}


def vowel_initial(word: str) -> bool:
    """A vowel sound first: h is silent, and i + vowel is a glide (la iena)."""
    word = word.lower().removeprefix("h")
    return word[:1] in _VOWELS and word[:1] != "" and not re.match(r"^i[aeiou]", word)


def expected_definite(gender: str, number: str, next_word: str) -> str:
    if gender == "f":
        return "le" if number == "pl" else ("l'" if vowel_initial(next_word) else "la")
    lo = bool(_LO.match(next_word))
    if number == "pl":
        return "gli" if lo or vowel_initial(next_word) else "i"
    return "lo" if lo else "l'" if vowel_initial(next_word) else "il"


def expected_determiner(kind: str, gender: str, number: str, next_word: str) -> list[str]:
    """The determiner words a noun phrase of this kind should have (reference rules)."""
    article = expected_definite(gender, number, next_word)
    ending = {("m", "sg"): "o", ("f", "sg"): "a", ("m", "pl"): "i", ("f", "pl"): "e"}[
        (gender, number)
    ]
    if kind == "def":
        return [article]
    if kind == "indef":
        if gender == "m":
            return ["uno" if _LO.match(next_word) else "un"]
        return ["un'" if vowel_initial(next_word) else "una"]
    if kind == "dem":
        return ["quest'"] if number == "sg" and vowel_initial(next_word) else ["quest" + ending]
    if kind == "that":
        return [{"il": "quel", "lo": "quello", "l'": "quell'", "la": "quella", "i": "quei",
                 "gli": "quegli", "le": "quelle"}[article]]
    if kind == "some":
        return ["alcun" + ending]
    raise ValueError(kind)


@dataclass(frozen=True)
class ParsedPhrase:
    preposition: str | None
    determiner: list[str]
    noun_form: str
    kind: str


def tokens(text: str) -> list[str]:
    """Words, an elided form kept with its apostrophe (``dall'alba`` -> ``dall'``, ``alba``)."""
    return text.replace("'", "' ").split()


def parse_phrase(text: str) -> ParsedPhrase:
    """[preposition] determiner noun, as generated for arguments and attractors."""
    words = tokens(text)
    if words[0] in FUSED and words[1] in ARTICLES:
        raise AssertionError(f"{words[0]!r} + article not fused in {text!r}")
    preposition = None
    if words[0] in FUSED_TO_ARTICLE:
        preposition, article = FUSED_TO_ARTICLE[words[0]]
        words = [article, *words[1:]]
    elif words[0] in PREPOSITIONS:
        preposition, words = words[0], words[1:]
    *determiner, noun = words
    if determiner and determiner[0] in POSSESSIVES:
        kind = "poss-kin"
    elif not determiner:
        raise AssertionError(f"no determiner in {text!r}")
    elif determiner[0] in ARTICLES:
        kind = "poss" if len(determiner) == 2 else "def"
    elif determiner[0] in ("un", "uno", "una", "un'"):
        kind = "indef"
    elif determiner[0].startswith("quest"):
        kind = "dem"
    elif determiner[0].startswith("que"):
        kind = "that"
    elif determiner[0].startswith("alcun"):
        kind = "some"
    else:
        raise AssertionError(f"unknown determiner in {text!r}")
    return ParsedPhrase(preposition, determiner, noun, kind)


def noun_index(lexicon) -> dict[str, list[tuple[object, str]]]:
    """Noun form -> [(noun entry, number)] over a lexicon's nouns (invariable: both numbers)."""
    index: dict[str, list[tuple[object, str]]] = {}
    for noun in lexicon.nouns.values():
        index.setdefault(noun.lemma, []).append((noun, "sg"))
        if not noun.mass:
            index.setdefault(noun.plural, []).append((noun, "pl"))
    return index


@dataclass(frozen=True)
class CheckedPhrase:
    lemma: str
    number: str
    gender: str
    kind: str
    preposition: str | None


def check_phrase(text: str, nouns, expected_number: str | None = None) -> CheckedPhrase:
    """Re-derive a generated noun phrase and assert its determiner agrees with its noun.

    ``nouns`` is :func:`noun_index` of the lexicon. Raises AssertionError naming the phrase
    when no reading of the noun (number, gender) gives exactly these determiner words.
    """
    parsed = parse_phrase(text)
    readings = nouns.get(parsed.noun_form)
    assert readings, f"{parsed.noun_form!r} of {text!r} is not a noun form of the lexicon"
    for noun, number in readings:
        if expected_number is not None and number != expected_number:
            continue
        gender = noun.plural_gender if number == "pl" and noun.plural_gender else noun.gender
        possessive = POSSESSIVE_FORMS[(gender, number)]
        if parsed.kind == "poss-kin":
            expected = [possessive] if noun.kinship and number == "sg" else None
        elif parsed.kind == "poss":
            expected = [expected_definite(gender, number, possessive), possessive]
        elif parsed.kind in ("indef",) and number == "pl":
            expected = None
        else:
            expected = expected_determiner(parsed.kind, gender, number, parsed.noun_form)
        if parsed.determiner == expected:
            return CheckedPhrase(noun.lemma, number, gender, parsed.kind, parsed.preposition)
    raise AssertionError(
        f"determiner of {text!r} agrees with no reading of {parsed.noun_form!r} "
        f"(expected number {expected_number})"
    )
