"""German rhyme: spelling rules on word pairs written here, the language option, the learned
German model on stanzas written here, and its accuracy by cross-validation over the gold poems.

The word pairs and stanzas are this file's own; the gold poems are read from ../shared/data
(tests marked ``needs_shared_data``) and never copied.
"""

from __future__ import annotations

import ast
import json
import runpy
import sys
from pathlib import Path

import pytest

from poetic_eval.rhyme import (
    german_pronunciation,
    rhyme_scheme,
    rhyme_schemes,
    rhyme_score,
    rhymes,
    stress_pattern,
    syllable_count,
)
from poetic_eval.rhyme.corpora import read_german_gold
from poetic_eval.rhyme.cross_validation import cross_validate, poem_folds, random_quatrains
from poetic_eval.rhyme.german_sounds import modern_spelling, normalize_german
from poetic_eval.rhyme.pair_model import default_model
from poetic_eval.rhyme.pronunciation import stressed_syllable

# Pairs German verse rhymes, each for the rule named beside it.
PERFECT_PAIRS = [
    ("Tag", "Schlag"),  # long vowel before one final consonant, final -g devoiced
    ("Rad", "Rat"),  # final devoicing: -d = -t
    ("gab", "Trab"),  # final -b devoiced
    ("Meer", "mehr"),  # doubled vowel = vowel + h
    ("Sieg", "Krieg"),  # ie long
    ("Stunde", "Munde"),  # feminine rhyme on -unde, schwa ending
    ("Leben", "geben"),  # open syllable long, -en schwa
    ("Himmel", "Gewimmel"),  # doubled consonant short, -el schwa
    ("Mutter", "Futter"),  # -er schwa
    ("Zeit", "Einsamkeit"),  # ei, and -keit carries the rhyme
    ("seyn", "Wein"),  # old ey = ei
    ("Thal", "Zahl"),  # old th = t, long a
    ("todt", "Brot"),  # old dt after a long vowel
    ("Glück", "Blick"),  # ü rhymes with i
    ("tönen", "Sehnen"),  # ö rhymes with e
    ("König", "wenig"),  # -ig read as -ich after the same stressed vowel
    ("Fluß", "Kuss"),  # old ß after a short vowel = ss
    ("grüßen", "fließen"),  # ß after a long vowel, ü ~ ie
    ("Nacht", "Pracht"),  # ch
    ("Schiff", "Riff"),
    ("Nation", "schon"),  # -tion stressed on -on
    ("läge", "Wege"),  # ä = e
]
NOT_RHYMING = [
    ("Tag", "Tuch"),
    ("Stunde", "Stande"),  # vowels differ
    ("Himmel", "Hummel"),
    ("Liebe", "Leben"),  # same onset, different rhyme
    ("Nacht", "Nackt"),  # ch is not k
    ("Wein", "Wien"),  # ei is not ie
    ("Horden", "Wesen"),  # only the schwa syllable -en agrees
    ("singen", "sagen"),
]


@pytest.mark.parametrize("a, b", PERFECT_PAIRS)
def test_german_rules_make_these_rhyme(a, b):
    assert rhymes(a, b, method="perfect", language="de"), (german_pronunciation(a),
                                                            german_pronunciation(b))  # fmt: skip
    assert rhymes(a, b, language="de")  # the learned model accepts them too


@pytest.mark.parametrize("a, b", NOT_RHYMING)
def test_german_rules_keep_these_apart(a, b):
    assert not rhymes(a, b, method="perfect", language="de")
    assert not rhymes(a, b, language="de")


def test_widened_german_rhymes():
    # eu ~ ei and short ~ long vowels: accepted by `near`, not by perfect rhyme
    assert not rhymes("Leiden", "Freuden", method="perfect", language="de")
    assert rhymes("Leiden", "Freuden", method="perfect", near=True, language="de")
    assert rhymes("Wahn", "an", method="perfect", near=True, language="de")
    # a weak rhyme: the unstressed -lich on a stressed -ich
    assert not rhymes("säuberlich", "dich", method="perfect", language="de")
    assert rhymes("säuberlich", "dich", method="perfect", weak=True, language="de")
    assert rhymes("Leiden", "Freuden", language="de")  # the learned model's convention


def test_same_word_is_a_repetition_not_a_rhyme():
    assert not rhymes("Nacht", "nacht", language="de")
    assert not rhymes("Nacht", "Nacht", method="perfect", language="de")
    assert rhyme_scheme("Die Nacht\nist Nacht", language="de") == "AA"  # linked repetition
    assert rhyme_scheme("Die Nacht\nist Nacht", language="de", link_repetitions=False) == "AB"


def test_spelling_normalisation():
    assert normalize_german("Hätt'") == "hätt"
    assert normalize_german("Grâl-Rîche") == "rieche"  # compound: last part; circumflex long
    assert modern_spelling("seyn") == "sein"
    assert modern_spelling("laege") == "läge"
    assert modern_spelling("feuer") == "feuer"  # no umlaut read into eu + e
    assert modern_spelling("quelle") == "quelle"


@pytest.mark.parametrize(
    "word, syllables, pattern",
    [
        ("Tag", 1, "1"),
        ("Leben", 2, "10"),
        ("gewesen", 3, "010"),
        ("vereint", 2, "01"),
        ("Einsamkeit", 3, "122"),
        ("Hoffnung", 2, "10"),
        ("Ruhe", 2, "10"),
        ("Feuer", 2, "10"),
        ("Melodie", 3, "122"),
    ],
)
def test_german_syllables_and_stress(word, syllables, pattern):
    assert syllable_count(word, language="de") == syllables
    assert stress_pattern(word, language="de") == pattern
    assert stressed_syllable(word, language="de") == pattern.index("1")


def test_english_syllables_unchanged_by_the_option():
    assert syllable_count("beautiful") == syllable_count("beautiful", language="en") == 3
    assert stress_pattern("again", language="en") == stress_pattern("again")
    assert stressed_syllable("again") == 1
    assert syllable_count("123", language="de") == 0
    assert stress_pattern("", language="de") is None


@pytest.mark.parametrize(
    "call",
    [
        lambda lang: rhymes("Tag", "Schlag", language=lang),
        lambda lang: rhyme_scheme("a\nb", language=lang),
        lambda lang: rhyme_schemes(["a\nb"], language=lang),
        lambda lang: rhyme_score("Tag", "Schlag", language=lang),
        lambda lang: syllable_count("Tag", language=lang),
        lambda lang: stress_pattern("Tag", language=lang),
        lambda lang: default_model(lang),
    ],
)
def test_unknown_language_names_the_choices(call):
    with pytest.raises(
        ValueError, match=r"unknown language 'dee'; did you mean 'de'\? choices: en, de"
    ):
        call("dee")
    with pytest.raises(ValueError, match="choices: en, de"):
        call("fr")
    call("DE")  # codes are case-insensitive


# Stanzas written for this test, with the schemes a German reader hears.
STANZAS = [
    (
        (
            "Der Abend sinkt auf stille Felder,\nDer Nebel zieht durchs tiefe Tal,\n"
            "Es rauschen leise dunkle Wälder,\nDer Mond erscheint zum ersten Mal."
        ),
        "ABAB",
    ),
    (
        (
            "Ich ging allein am grünen Rhein,\nDie Wellen sangen mir ein Lied,\n"
            "Da fiel ein letzter Sonnenschein,\nAuf jedes Dach, das man dort sieht."
        ),
        "ABAB",
    ),
    (
        (
            "Die Glocken läuten durch die Nacht,\nDas Dorf liegt still und sacht,\n"
            "Im Garten blüht der Flieder,\nDie Amsel singt schon wieder."
        ),
        "AABB",
    ),
    (
        (
            "Wir wandern durch den kühlen Wald,\nWo Vogelsang im Grünen klingt,\n"
            "Ein Bach, der hell zu Tale springt,\nUnd uns're Stimme widerhallt."
        ),
        "ABBA",
    ),
    (
        (
            "Am Fenster sitzt die alte Frau,\nSie strickt an einem roten Schal,\n"
            "Der Himmel draußen wird schon grau,\nUnd leer und still ist nun der Saal."
        ),
        "ABAB",
    ),
    (
        (
            "Es war ein König in der Stadt,\nDer hatte Gold und Silber viel,\n"
            "Doch war er seines Lebens matt,\nUnd nichts gefiel ihm, auch kein Spiel."
        ),
        "ABAB",
    ),
    (
        (
            "Der Zug fährt ab um sieben Uhr,\nIch warte noch am kalten Gleis,\n"
            "Die Koffer stehen auf dem Flur,\nDer Schaffner pfeift, der Rauch steigt weiß."
        ),
        "ABAB",
    ),
    (
        (
            "Die Kinder spielen vor dem Haus,\nDer Hund bellt laut und springt herum,\n"
            "Die Mutter ruft zum Essen aus,\nDoch niemand hört und keiner kommt."
        ),
        "ABAC",
    ),
]


@pytest.mark.parametrize("text, scheme", STANZAS)
def test_learned_german_schemes_of_stanzas_written_here(text, scheme):
    assert rhyme_scheme(text, language="de") == scheme


def test_english_rules_misread_german():
    """The reason for the option: the English default on the same German stanzas is worse."""
    texts = [text for text, _ in STANZAS]
    golds = [scheme for _, scheme in STANZAS]
    german = sum(a == b for a, b in zip(rhyme_schemes(texts, language="de"), golds))
    english = sum(a == b for a, b in zip(rhyme_schemes(texts), golds))
    assert german == len(golds) and english < german


def test_rhyme_package_has_no_import_circle():
    """Issue 38: no module of poetic_eval.rhyme imports (at any depth, function-level imports
    included) a module that imports it back."""
    folder = Path(__file__).resolve().parents[2] / "src" / "poetic_eval" / "rhyme"
    graph = {}
    for path in folder.glob("*.py"):
        if path.stem == "__init__":
            continue
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                imported.add(node.module.split(".")[0])
        graph[path.stem] = imported

    def reaches(start, goal, seen=()):
        return any(n == goal or (n not in seen and reaches(n, goal, (*seen, n)))
                   for n in graph.get(start, ()))  # fmt: skip

    circles = sorted(m for m in graph if reaches(m, m))
    assert not circles, f"modules on an import circle: {circles}"


# --- the gold poems (../shared/data/german_rhyme_gold, read in place) ---


@pytest.fixture(scope="module")
def german_poems(shared_data):
    poems = read_german_gold(shared_data)
    if not poems:
        pytest.skip("no german_rhyme_gold under the shared data")
    return poems


@pytest.mark.needs_shared_data
def test_folds_split_poems_not_stanzas(german_poems):
    folds = poem_folds(german_poems, 10, seed=0)
    assert sorted(i for fold in folds for i in fold) == list(range(len(german_poems)))
    assert max(map(len, folds)) - min(map(len, folds)) <= 1
    lines = random_quatrains(german_poems[:4], 20, seed=0)
    for quatrain in lines:  # four lines of four different poems
        owners = [next(i for i, p in enumerate(german_poems[:4]) if line in p.lines)
                  for line in quatrain]  # fmt: skip
        assert len(set(owners)) == 4


@pytest.mark.needs_shared_data
def test_cross_validated_german_accuracy(german_poems):
    """Issue 41's bar: >= 90 % exact schemes on stanzas of any length the model was not fitted
    to, <= 6 % random quatrains called rhyming (measured: 95.1 % and 4.3 %, seed 0)."""
    cv = cross_validate(german_poems, folds=10, seed=0, quatrains_per_fold=500)
    assert cv.accuracy().units >= 380
    assert cv.accuracy().exact_share >= 0.93
    assert cv.accuracy(4).exact_share >= 0.94
    assert cv.random_rhyming <= 0.055


@pytest.mark.needs_shared_data
def test_shipped_german_model_is_what_the_script_learns(shared_data, tmp_path, repo_root):
    out = tmp_path / "model_de.json"
    script = repo_root / "scripts" / "learn_rhyme_model.py"
    argv = sys.argv
    sys.argv = [str(script), "--language", "de", "--data", str(shared_data), "--out", str(out)]
    try:
        with pytest.raises(SystemExit) as exit_code:
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    assert exit_code.value.code == 0
    shipped = json.loads((repo_root / "src/poetic_eval/rhyme/rhyme_model_de.json").read_text())
    assert json.loads(out.read_text()) == shipped
    assert shipped["language"] == "de"
