"""The BLM generator's Italian morphology against forms written out by hand."""

from __future__ import annotations

import json
import shutil

import pytest
from italian_reference import ADJECTIVES, PHRASES, VERBS, check_phrase, noun_index

from poetic_eval.blm.generator.articles import determiner_words, join_words
from poetic_eval.blm.generator.conjugation import finite_form, infinitive_with_si, participle
from poetic_eval.blm.generator.lexicon import LexiconError
from poetic_eval.blm.generator.lexicon_loading import DATA_DIR, load_lexicon
from poetic_eval.blm.generator.noun_phrases import NounPhrase, phrase_text
from poetic_eval.blm.generator.verb_groups import FRAMES, copula_group, verb_group

LEXICON = load_lexicon()


def phrase(lemma, number, determiner="def", preposition=None):
    return NounPhrase(LEXICON.nouns[lemma], number, determiner).text(preposition)


def test_every_lexicon_verb_is_conjugated_as_the_hand_written_table():
    assert set(LEXICON.verbs) == set(VERBS), "every verb of the lexicon needs a table row"
    for lemma, verb in LEXICON.verbs.items():
        expected = VERBS[lemma]
        for (tense, number), form in expected.finite.items():
            assert finite_form(verb, tense, number) == form, (lemma, tense, number)
        for gender in ("m", "f"):
            for number in ("sg", "pl"):
                assert participle(verb, gender, number) == expected.participle_form(gender, number)


def test_every_adjective_agrees_as_the_hand_written_table():
    assert set(LEXICON.adjectives) == set(ADJECTIVES)
    for lemma, adjective in LEXICON.adjectives.items():
        for (gender, number), form in ADJECTIVES[lemma].items():
            assert adjective.form(gender, number) == form, (lemma, gender, number)


@pytest.mark.parametrize(
    ("lemma", "singular", "plural", "indefinite"),
    [
        ("studente", "lo studente", "gli studenti", "uno studente"),
        ("scienziato", "lo scienziato", "gli scienziati", "uno scienziato"),
        ("scaffale", "lo scaffale", "gli scaffali", "uno scaffale"),
        ("zaino", "lo zaino", "gli zaini", "uno zaino"),
        ("zio", "lo zio", "gli zii", "uno zio"),
        ("gnocco", "lo gnocco", "gli gnocchi", "uno gnocco"),
        ("gnu", "lo gnu", "gli gnu", "uno gnu"),
        ("psicologo", "lo psicologo", "gli psicologi", "uno psicologo"),
        ("pneumatico", "lo pneumatico", "gli pneumatici", "uno pneumatico"),
        ("xilofono", "lo xilofono", "gli xilofoni", "uno xilofono"),
        ("yogurt", "lo yogurt", "gli yogurt", "uno yogurt"),
        ("albero", "l'albero", "gli alberi", "un albero"),
        ("orologio", "l'orologio", "gli orologi", "un orologio"),
        ("ospedale", "l'ospedale", "gli ospedali", "un ospedale"),
        ("autobus", "l'autobus", "gli autobus", "un autobus"),
        ("uovo", "l'uovo", "le uova", "un uovo"),
        ("lenzuolo", "il lenzuolo", "le lenzuola", "un lenzuolo"),
        ("programma", "il programma", "i programmi", "un programma"),
        ("libro", "il libro", "i libri", "un libro"),
        ("amica", "l'amica", "le amiche", "un'amica"),
        ("isola", "l'isola", "le isole", "un'isola"),
        ("università", "l'università", "le università", "un'università"),
        ("zebra", "la zebra", "le zebre", "una zebra"),
        ("sbarra", "la sbarra", "le sbarre", "una sbarra"),
        ("sedia", "la sedia", "le sedie", "una sedia"),
    ],
)
def test_articles_agree_with_the_noun_and_fit_its_first_sound(lemma, singular, plural, indefinite):
    assert phrase(lemma, "sg") == singular
    assert phrase(lemma, "pl") == plural
    assert phrase(lemma, "sg", "indef") == indefinite


@pytest.mark.parametrize(
    ("word", "gender", "singular", "plural", "indefinite"),
    [
        ("iena", "f", "la", "le", "una"),  # i + vowel is a glide: no elision
        ("iato", "m", "lo", "gli", "uno"),
        ("hotel", "m", "l'", "gli", "un"),  # silent h
        ("scuola", "f", "la", "le", "una"),
        ("sport", "m", "lo", "gli", "uno"),
    ],
)
def test_article_rules_on_words_outside_the_lexicon(word, gender, singular, plural, indefinite):
    assert determiner_words("def", gender, "sg", word) == [singular]
    assert determiner_words("def", gender, "pl", word) == [plural]
    assert determiner_words("indef", gender, "sg", word) == [indefinite]


@pytest.mark.parametrize(("lemma", "number", "kind", "preposition", "expected"), PHRASES)
def test_phrases_of_the_hand_written_table(lemma, number, kind, preposition, expected):
    assert phrase(lemma, number, kind, preposition) == expected


def test_loanwords_take_the_article_of_their_sound_not_their_spelling():
    chef = LEXICON.nouns["chef"]
    assert chef.onset == "lo"  # /ʃ/, as in sci-: lo chef, though spelled like il chiodo
    assert determiner_words("def", "m", "sg", "chef") == ["il"]  # spelling alone
    assert determiner_words("def", "m", "sg", "chef", onset="lo") == ["lo"]
    assert determiner_words("indef", "m", "sg", "chef", onset="lo") == ["uno"]
    assert determiner_words("def", "m", "pl", "chef", onset="lo") == ["gli"]
    assert determiner_words("def", "f", "sg", "hall", onset="vowel") == ["l'"]
    assert determiner_words("dem", "m", "sg", "hall", onset="vowel") == ["quest'"]
    assert determiner_words("def", "m", "sg", "yeti", onset="consonant") == ["il"]
    with pytest.raises(ValueError, match="unknown onset .*choices: vowel, lo, consonant"):
        determiner_words("def", "m", "sg", "chef", onset="sh")
    # the noun's onset does not reach past an adjective before it: il nuovo chef
    nuovo = LEXICON.adjectives["nuovo"]
    assert NounPhrase(chef, "sg", pre_adjective=nuovo).text("da") == "dal nuovo chef"


def test_every_noun_of_the_lexicon_takes_the_reference_determiners():
    nouns = noun_index(LEXICON)
    checked = 0
    for noun in LEXICON.nouns.values():
        for number in noun.numbers:
            kinds = ["def", "dem", "that"] + (["indef"] if number == "sg" else ["some"])
            for kind in kinds:
                for preposition in (None, "di", "da", "su", "con"):
                    if kind != "def" and preposition is not None:
                        continue
                    text = phrase(noun.lemma, number, kind, preposition)
                    checked += 1
                    assert check_phrase(text, nouns, expected_number=number).lemma == noun.lemma
    assert checked > 3000


@pytest.mark.parametrize(
    ("lemma", "number", "kind", "expected"),
    [
        ("amica", "sg", "dem", "quest'amica"),
        ("sedia", "sg", "dem", "questa sedia"),
        ("albero", "pl", "dem", "questi alberi"),
        ("libro", "sg", "that", "quel libro"),
        ("zaino", "sg", "that", "quello zaino"),
        ("albero", "sg", "that", "quell'albero"),
        ("libro", "pl", "that", "quei libri"),
        ("albero", "pl", "that", "quegli alberi"),
        ("zaino", "pl", "that", "quegli zaini"),
        ("amica", "pl", "that", "quelle amiche"),
        ("libro", "sg", "poss", "il suo libro"),
        ("zaino", "sg", "poss", "il suo zaino"),
        ("amica", "sg", "poss", "la sua amica"),
        ("zio", "pl", "poss", "i suoi zii"),
        ("amica", "pl", "poss", "le sue amiche"),
        ("zio", "sg", "poss", "suo zio"),  # singular kinship noun: no article
        ("madre", "sg", "poss", "sua madre"),
        ("madre", "pl", "poss", "le sue madri"),
        ("libro", "pl", "poss_pl", "i loro libri"),
        ("madre", "sg", "poss_pl", "la loro madre"),  # loro takes the article
        ("amica", "sg", "poss_pl", "la loro amica"),
        ("ragazzo", "pl", "some", "alcuni ragazzi"),
        ("ape", "pl", "some", "alcune api"),
        ("uovo", "pl", "some", "alcune uova"),
        ("giorno", "pl", "few", "pochi giorni"),
        ("ora", "pl", "few", "poche ore"),
        ("tempo", "sg", "many", "molto tempo"),
        ("settimana", "pl", "card:due", "due settimane"),
        ("minuto", "sg", "qualche", "qualche minuto"),
        ("libro", "pl", "partitive", "dei libri"),
        ("zaino", "pl", "partitive", "degli zaini"),
    ],
)
def test_other_determiners_agree(lemma, number, kind, expected):
    assert phrase(lemma, number, kind) == expected


FUSED = {
    "di": "del libro, dello zaino, dell'albero, della sedia, dei libri, degli zaini, "
    "degli alberi, delle sedie",
    "a": "al libro, allo zaino, all'albero, alla sedia, ai libri, agli zaini, agli alberi, "
    "alle sedie",
    "da": "dal libro, dallo zaino, dall'albero, dalla sedia, dai libri, dagli zaini, "
    "dagli alberi, dalle sedie",
    "in": "nel libro, nello zaino, nell'albero, nella sedia, nei libri, negli zaini, "
    "negli alberi, nelle sedie",
    "su": "sul libro, sullo zaino, sull'albero, sulla sedia, sui libri, sugli zaini, "
    "sugli alberi, sulle sedie",
    "con": "con il libro, con lo zaino, con l'albero, con la sedia, con i libri, "
    "con gli zaini, con gli alberi, con le sedie",
}


@pytest.mark.parametrize("preposition", list(FUSED))
def test_prepositions_fuse_with_the_definite_article(preposition):
    made = [
        phrase(lemma, number, preposition=preposition)
        for lemma, number in [
            ("libro", "sg"),
            ("zaino", "sg"),
            ("albero", "sg"),
            ("sedia", "sg"),
            ("libro", "pl"),
            ("zaino", "pl"),
            ("albero", "pl"),
            ("sedia", "pl"),
        ]
    ]
    assert ", ".join(made) == FUSED[preposition]


def test_prepositions_before_other_determiners():
    assert phrase("amica", "pl", "poss", "da") == "dalle sue amiche"
    assert phrase("madre", "sg", "poss", "da") == "da sua madre"
    assert phrase("zio", "sg", "that", "di") == "di quello zio"
    assert phrase("ora", "sg", "indef", "da") == "da un'ora"
    with pytest.raises(ValueError, match="partitive"):
        phrase("libro", "pl", "partitive", "da")


def test_every_template_phrase_renders_as_written():
    expected = [
        # the place, speed and occasion phrases (sul balcone, in pochi secondi, durante lo
        # sciopero, ...) left with issue 21: they do not fit every event (*le strade venivano
        # allungate sul balcone*, *i busti vengono scolpiti in pochi secondi*), and durante la
        # notte (*il sole allunga quell'ombra durante la notte*)
        "nel pomeriggio",
        # issue 40: more times of day, each given to the verbs its twin has (the vocabulary)
        "a metà pomeriggio",
        "nel tardo pomeriggio",
        "dopo cena",
        "dopo pranzo",
        "dopo colazione",
        "prima di cena",
        "prima di pranzo",
        "alla fine della giornata",
        "in serata",
        "sotto gli occhi di tutti",
        "per la prima volta",
        # a sudden mishap, an occasion at which it might happen of itself (issue 40)
        "all'improvviso",
        "all'alba",
        "alle prime luci dell'alba",
        "al tramonto",
        "verso sera",
        "durante la mattinata",
        "a metà mattina",
        "in tarda mattinata",
        "dopo il lavaggio",
        "al primo lavaggio",
        "nel corso della mattinata",
        # issue 40: times of day with words of their own (the vocabulary of caus_iii)
        "nelle prime ore del pomeriggio",
        "di primo mattino",
        "verso mezzogiorno",
        "poco dopo cena",
        "subito dopo colazione",
        # the seasons, for changes over weeks or more (issue 40: deformare, logorare)
        "durante l'estate",
        "durante l'inverno",
        "durante l'autunno",
        # issue 40's last round: occasions of things, told with no agent (the vocabulary)
        "durante il trasloco",
        "durante la festa",
        "durante il viaggio",
        "durante la gita",
        "durante la cena",
        "durante le pulizie",
        "durante la lezione",
        "durante il temporale",
        "durante la cottura",
        "in cucina",
        "nello studio",
        "in biblioteca",
        "in laboratorio",
        "in classe",
        "nella stalla",
        "in piazza",
        "per strada",
        "a mano",
        "a memoria",
        "a orecchio",
        "a fondo",
        "al telaio",
        "in silenzio",
        "con cura",
        "con precisione",
        "con pazienza",
        "con metodo",
        # manners for object-drop chores and pastimes (issue 40)
        "in fretta",
        "in compagnia",
        "con attenzione",
        "con calma",
        "con appetito",
        "con gusto",
        "con passione",
        "con sentimento",
        "con amore",
        "con impegno",
        "con eleganza",
        "con fermezza",
        "con prudenza",
        "senza pietà",
        # places, only for verbs all of whose agents and patients fit them (issue 40)
        "in giardino",
        "in cortile",
        "in salotto",
        "in lavanderia",
        "sul balcone",
        "sul terrazzo",
        "al mare",
        "in spiaggia",
        "al porto",
        "in barca",
        "da un mese",
        "da pochi giorni",
        "da qualche minuto",
        "da pochi minuti",
        "da cinque minuti",
        "da dieci minuti",
        "da due settimane",
        "da un anno circa",
        "da molto tempo",
        "da tre ore",
        "da un'ora",
        "da alcuni anni",
        "dalla settimana scorsa",
        "dal mese scorso",
        "dallo scorso inverno",
        "dalla scorsa estate",
        "dall'inizio dell'anno",
        "dall'alba",
        "dall'ultimo inverno",
        "dalle prime ore del mattino",
        "dal primo pomeriggio",
        "dal mattino presto",
        "dall'inizio del mese",
        "dall'inizio della settimana",
        "dall'anno scorso",
        "dalla primavera scorsa",
        "dallo scorso autunno",
        # issue 40: more spans of each kind (the vocabulary of the release's contexts)
        "da venti minuti",
        "da quindici minuti",
        "da un quarto d'ora",
        "da un paio di minuti",
        # issue 40, fifth round: more spans
        "da una ventina di minuti",
        "da due ore",
        "da quattro ore",
        "da un paio d'ore",
        "da ieri",
        "da ieri sera",
        "da stamattina",
        "da questa mattina",
        "dalle sette",
        "dalle otto",
        "dalle nove",
        "da lunedì",
        "da martedì",
        "da mercoledì",
        "da giovedì",
        "da venerdì",
        "da sabato",
        "da domenica",
        "da qualche settimana",
        "da tre settimane",
        "da una decina di giorni",
        "da quindici giorni",
        "da una quindicina di giorni",
        "da un paio di settimane",
        "da gennaio",
        "da febbraio",
        "da marzo",
        "da aprile",
        "da maggio",
        "da giugno",
        "da luglio",
        "da agosto",
        "da settembre",
        "da ottobre",
        "da novembre",
        "da dicembre",
        "da anni",
        "da due anni",
        "da molti anni",
        "da qualche anno",
        "da una decina d'anni",
        "da Natale",
        "da Pasqua",
    ]
    made = [phrase_text(LEXICON, spec) for spec in LEXICON.other_phrases + LEXICON.da_phrases]
    assert made == expected


APRIRE = {  # frame: (active, passive, si) for a feminine singular, then masculine plural subject
    "present": ("apre", "viene aperta", "si apre", "aprono", "vengono aperti", "si aprono"),
    "imperfect": (
        "apriva",
        "veniva aperta",
        "si apriva",
        "aprivano",
        "venivano aperti",
        "si aprivano",
    ),
    "future": ("aprirà", "sarà aperta", "si aprirà", "apriranno", "saranno aperti", "si apriranno"),
    "perfect": (
        "ha aperto",
        "è stata aperta",
        "si è aperta",
        "hanno aperto",
        "sono stati aperti",
        "si sono aperti",
    ),
    "remote": (
        "aprì",
        "fu aperta",
        "si aprì",
        "aprirono",
        "furono aperti",
        "si aprirono",
    ),
    "can": (
        "può aprire",
        "può essere aperta",
        "può aprirsi",
        "possono aprire",
        "possono essere aperti",
        "possono aprirsi",
    ),
    "can_past": (
        "poteva aprire",
        "poteva essere aperta",
        "poteva aprirsi",
        "potevano aprire",
        "potevano essere aperti",
        "potevano aprirsi",
    ),
    "must": (
        "deve aprire",
        "deve essere aperta",
        "deve aprirsi",
        "devono aprire",
        "devono essere aperti",
        "devono aprirsi",
    ),
    "can_future": (
        "potrà aprire",
        "potrà essere aperta",
        "potrà aprirsi",
        "potranno aprire",
        "potranno essere aperti",
        "potranno aprirsi",
    ),
    "can_remote": (
        "poté aprire",
        "poté essere aperta",
        "poté aprirsi",
        "poterono aprire",
        "poterono essere aperti",
        "poterono aprirsi",
    ),
    "could": (
        "potrebbe aprire",
        "potrebbe essere aperta",
        "potrebbe aprirsi",
        "potrebbero aprire",
        "potrebbero essere aperti",
        "potrebbero aprirsi",
    ),
    "must_past": (
        "doveva aprire",
        "doveva essere aperta",
        "doveva aprirsi",
        "dovevano aprire",
        "dovevano essere aperti",
        "dovevano aprirsi",
    ),
    "must_future": (
        "dovrà aprire",
        "dovrà essere aperta",
        "dovrà aprirsi",
        "dovranno aprire",
        "dovranno essere aperti",
        "dovranno aprirsi",
    ),
    "must_remote": (
        "dovette aprire",
        "dovette essere aperta",
        "dovette aprirsi",
        "dovettero aprire",
        "dovettero essere aperti",
        "dovettero aprirsi",
    ),
    "should": (
        "dovrebbe aprire",
        "dovrebbe essere aperta",
        "dovrebbe aprirsi",
        "dovrebbero aprire",
        "dovrebbero essere aperti",
        "dovrebbero aprirsi",
    ),
    "must_can": (
        "deve poter aprire",
        "deve poter essere aperta",
        "deve potersi aprire",
        "devono poter aprire",
        "devono poter essere aperti",
        "devono potersi aprire",
    ),
    # the perfect infinitive of an inference: what must, may or might have happened
    "must_have": (
        "deve aver aperto",
        "deve essere stata aperta",
        "deve essersi aperta",
        "devono aver aperto",
        "devono essere stati aperti",
        "devono essersi aperti",
    ),
    "must_had": (
        "doveva aver aperto",
        "doveva essere stata aperta",
        "doveva essersi aperta",
        "dovevano aver aperto",
        "dovevano essere stati aperti",
        "dovevano essersi aperti",
    ),
    "may_have": (
        "può aver aperto",
        "può essere stata aperta",
        "può essersi aperta",
        "possono aver aperto",
        "possono essere stati aperti",
        "possono essersi aperti",
    ),
    "might_have": (
        "potrebbe aver aperto",
        "potrebbe essere stata aperta",
        "potrebbe essersi aperta",
        "potrebbero aver aperto",
        "potrebbero essere stati aperti",
        "potrebbero essersi aperti",
    ),
}


@pytest.mark.parametrize("frame", FRAMES)
def test_verb_groups_agree_in_every_frame_and_voice(frame):
    verb = LEXICON.verb("aprire")
    made = [
        verb_group(LEXICON, verb, frame, voice, number, gender)
        for number, gender in (("sg", "f"), ("pl", "m"))
        for voice in ("active", "passive", "si")
    ]
    assert tuple(made) == APRIRE[frame]


def test_perfect_takes_the_verb_s_own_auxiliary_and_agrees_with_essere():
    arrive, draw, melt = (LEXICON.verb(v) for v in ("arrivare", "disegnare", "sciogliere"))
    assert verb_group(LEXICON, arrive, "perfect", "active", "pl", "f") == "sono arrivate"
    assert verb_group(LEXICON, draw, "perfect", "active", "pl", "f") == "hanno disegnato"
    assert verb_group(LEXICON, melt, "perfect", "si", "sg", "f") == "si è sciolta"
    # the perfect infinitive too: *deve essere arrivata*, *devono aver disegnato*
    assert verb_group(LEXICON, arrive, "must_have", "active", "sg", "f") == "deve essere arrivata"
    assert verb_group(LEXICON, draw, "must_have", "active", "pl", "f") == "devono aver disegnato"
    assert verb_group(LEXICON, LEXICON.verb("rompere"), "perfect", "si", "pl", "f") == (
        "si sono rotte"  # le uova si sono rotte: the plural is feminine
    )
    eggs = NounPhrase(LEXICON.nouns["uovo"], "pl")
    assert eggs.gender == "f"
    assert infinitive_with_si(LEXICON.verb("tradurre")) == "tradursi"
    stanco = LEXICON.adjectives["stanco"]
    assert copula_group(LEXICON, stanco, "imperfect", "pl", "f") == "erano stanche"
    assert copula_group(LEXICON, stanco, "perfect", "sg", "m") == "è stato stanco"
    assert join_words(["l'", "alba"]) == "l'alba"


def test_lexicon_errors_name_the_file_and_the_entry(tmp_path):
    folder = tmp_path / "lexicon"
    shutil.copytree(DATA_DIR, folder)
    verbs = json.loads((folder / "verbs.json").read_text(encoding="utf-8"))
    aprire = next(v for v in verbs["verbs"] if v["lemma"] == "aprire")
    aprire["patients"].append("unicorno")
    (folder / "verbs.json").write_text(json.dumps(verbs), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"verbs.json, 'aprire': patient 'unicorno'"):
        load_lexicon(folder)
    with pytest.raises(FileNotFoundError, match="nouns.json"):
        load_lexicon(tmp_path)


def test_a_noun_onset_outside_the_known_ones_is_a_lexicon_error(tmp_path):
    folder = tmp_path / "lexicon"
    shutil.copytree(DATA_DIR, folder)
    nouns = json.loads((folder / "nouns.json").read_text(encoding="utf-8"))
    next(n for n in nouns["nouns"] if n["lemma"] == "chef")["onset"] = "sh"
    (folder / "nouns.json").write_text(json.dumps(nouns), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"nouns.json, 'chef': unknown onset"):
        load_lexicon(folder)
