"""The learned rhyme method: graded pair scores, joint scheme inference, EM, and its accuracy.

Reference implementations written here: brute-force argmax over every partition for the
decoder, the explicit candidate enumeration for the cached scorer, and a hand-counted Bell
sequence. Accuracy floors on the shared corpora sit slightly under the figures of the rhyme_kl
card, which ``scripts/evaluate_rhyme_schemes.py`` recomputes.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from bench.synthetic_poems import SyntheticPoems
from poetic_eval.rhyme import (
    QUATRAIN_SCHEMES,
    default_model,
    load_model,
    may_rhyme,
    perfect_rhymes,
    resolve_method,
    rhyme_scheme,
    rhyme_schemes,
    rhyme_score,
    rhymes,
)
from poetic_eval.rhyme.corpora import author_key, is_held_out, read_corpora, restricted_growth
from poetic_eval.rhyme.cross_validation import random_quatrains
from poetic_eval.rhyme.evaluation import (
    collections,
    random_word_pairs,
    setting_accuracy,
    setting_chance_rate,
)
from poetic_eval.rhyme.pair_features import (
    SUFFIX_ONLY,
    evidence_cell,
    pair_candidates,
    stressed_alignment,
)
from poetic_eval.rhyme.phonetics import coda_relation, rest_relation, vowel_relation
from poetic_eval.rhyme.pronunciation import _cmudict
from poetic_eval.rhyme.rule_annotation import gold_units
from poetic_eval.rhyme.scheme_decoder import (
    beam_decode,
    decode_many,
    line_pairs,
    restricted_growth_strings,
    scheme_string,
    sequential_prior,
)
from poetic_eval.rhyme.scheme_learning import learn_model, training_units
from poetic_eval.rhyme.word_forms import word_forms, word_pronunciations

BELL = [1, 1, 2, 5, 15, 52, 203, 877, 4140]
FILLERS = ["and in the", "beneath the", "we saw a", "she kept the", "over the"]


def stanza(words: list[str]) -> str:
    return "\n".join(f"{FILLERS[i % len(FILLERS)]} {w}" for i, w in enumerate(words))


# --- phonetic relations and word forms ----------------------------------------------------------


def test_phonetic_relations():
    assert vowel_relation("IY", "IY") == 0 and vowel_relation("IY", "IH") == 1
    assert vowel_relation("AY", "AE") == 2
    assert coda_relation(("T",), ("T",)) == 0
    assert coda_relation(("Z",), ("S",)) == 1  # praise / grace
    assert coda_relation(("S", "T"), ("S",)) == 2  # guest / less
    assert coda_relation(("M",), ("N",)) == 3  # time / mine
    assert coda_relation(("K",), ("L",)) == 4
    assert rest_relation(("@", "NG"), ("@", "NG")) == 0
    assert rest_relation(("@", "N"), ("@", "NG")) == 1
    assert rest_relation(("@", "D", "IY"), ("@", "NG")) == 2


@pytest.mark.parametrize(
    "older, modern",
    [("mynde", "mind"), ("loue", "love"), ("starre", "star"), ("agayn", "again"),
     ("pitie", "pity"), ("vnto", "unto"), ("doun", "down")],
)  # fmt: skip
def test_older_spellings_read_as_modern(older, modern):
    assert set(word_pronunciations(older)) == set(_cmudict()[modern])


def test_historical_and_syllabic_r_forms():
    melody = word_forms("melody").forms
    assert any(f.historical and f.ending.vowel == "AY" for f in melody)
    assert not any(f.historical for f in word_forms("night").forms)
    (fire,) = word_forms("fire").forms  # F AY1 ER0 and F AY1 R: one syllable in verse
    assert fire.final.vowel == "AY" and fire.final.stressed
    assert word_forms("Belovèd").word == "beloved"


def test_cached_scores_equal_the_candidate_enumeration():
    """The scorer's cached path against max over pair_candidates, on seeded CMUdict pairs."""
    model = load_model()  # a fresh model: empty caches
    words = sorted(_cmudict())[::7] + ["plaine", "loue", "xqzt", "1999", "o'er"]
    rng = random.Random(0)
    checked = 0
    for _ in range(4000):
        a, b = rng.sample(words, 2)
        forms_a, forms_b = word_forms(a), word_forms(b)
        if not forms_a.word or not forms_b.word or forms_a.word == forms_b.word:
            continue
        expected = max(
            model.vowel[v] + model.shape[s] + model.evidence[e]
            for v, s, e in pair_candidates(forms_a, forms_b)
        )
        assert model.score(a, b) == pytest.approx(expected, abs=1e-9), (a, b)
        checked += 1
    assert checked > 3500


def test_graded_scores_order_rhymes_sensibly():
    """Scores are evidence of an intended rhyme, not of a perfect one: "love" / "prove" is rarer
    by chance than "night" / "light", so it can score higher; both are rhymes."""
    threshold = default_model().threshold
    assert min(rhyme_score("night", "light"), rhyme_score("love", "prove")) > threshold
    assert rhyme_score("cat", "dog") < 0 < threshold
    assert rhyme_score("eye", "symmetry") > rhyme_score("eye", "table")
    assert rhyme_score("light", "hat") < 0  # consonance is not rhyme
    assert rhyme_score("a", "b") == rhyme_score("b", "a")


def test_pairwise_rhymes_by_method():
    assert rhymes("love", "prove") and not rhymes("love", "prove", method="perfect")
    assert rhymes("eye", "symmetry")
    assert not rhymes("cat", "dog") and not rhymes("day", "Day")
    assert not rhymes("", "day")
    with pytest.raises(ValueError, match="belong|widen"):
        rhymes("a", "b", method="learned", weak=True)
    with pytest.raises(ValueError, match="unknown rhyme method"):
        rhyme_scheme("a\nb", method="exact")
    assert resolve_method(None, near=True) == "perfect" and resolve_method(None) == "learned"


def test_may_rhyme_is_the_widest_test():
    rng = random.Random(1)
    words = [w for w in sorted(_cmudict()) if w.isalpha()][::11]
    for _ in range(3000):
        a, b = rng.sample(words, 2)
        if perfect_rhymes(a, b, weak=True, near=True, historical=True) or rhymes(a, b):
            assert may_rhyme(a, b), (a, b)
    assert may_rhyme("love", "glove") and not may_rhyme("love", "table")


def test_chance_rhymes_of_common_words_stay_rare():
    """Seeded pairs of common English words (wordfreq, not verse, many of them polysyllables
    with weak "-y", "-ed", "-al" endings): measured 2.7 %, against 1.6-1.8 % for line-final words
    of verse (the card's figure); the ceiling guards against regressions."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 5000) if w.isalpha() and len(w) > 2]
    rng = random.Random(2)
    pairs = [tuple(rng.sample(words, 2)) for _ in range(5000)]
    rate = sum(rhymes(a, b) for a, b in pairs) / len(pairs)
    print(f"common-word pairs called rhymes: {rate:.4f}")
    assert rate <= 0.035


# --- joint decoding -----------------------------------------------------------------------------


def test_partitions_are_the_bell_numbers():
    for n, count in enumerate(BELL):
        partitions = restricted_growth_strings(n)
        assert len(partitions) == count == len(set(partitions))
    assert sorted(scheme_string(p) for p in restricted_growth_strings(4)) == list(QUATRAIN_SCHEMES)


def _brute_force(scores, length, prior_of):
    best, best_total = None, -np.inf
    for partition in restricted_growth_strings(length):
        pairs = zip(line_pairs(length), scores)
        total = prior_of(partition) + sum(v for (i, j), v in pairs if partition[i] == partition[j])
        if total > best_total + 1e-12:
            best, best_total = partition, total
    return scheme_string(best), best_total


def test_decoder_is_the_brute_force_argmax():
    rng = np.random.default_rng(0)
    join, new = np.log(np.array([0.3, 0.2, 0.05, 0.02])), float(np.log(0.4))
    for length in range(2, 9):
        schemes = [scheme_string(p) for p in restricted_growth_strings(length)]
        table = rng.normal(size=len(schemes)) if length <= 6 else None
        rows = rng.normal(scale=3, size=(6, length * (length - 1) // 2))
        decoded = decode_many(rows, length, table, join, new)
        for row, scheme in zip(rows, decoded):
            if table is None:
                expected, _ = _brute_force(row, length, lambda p: sequential_prior(p, join, new))
            else:
                lookup = dict(zip(schemes, table))
                expected, _ = _brute_force(row, length, lambda p, t=lookup: t[scheme_string(p)])
            assert scheme == expected


def test_beam_search_finds_the_optimum_of_long_stanzas():
    rng = np.random.default_rng(1)
    join, new = np.log(np.array([0.3, 0.2, 0.05, 0.02])), float(np.log(0.4))
    for _ in range(12):
        truth = rng.integers(0, 4, size=9)
        scores = np.array([5.0 if truth[i] == truth[j] else -5.0 for i, j in line_pairs(9)])
        scores += rng.normal(scale=1.5, size=len(scores))
        found = beam_decode(scores, 9, join, new)
        _, optimum = _brute_force(scores, 9, lambda p: sequential_prior(p, join, new))
        groups = [found.index(ch) for ch in found]
        relabel = {g: k for k, g in enumerate(dict.fromkeys(groups))}
        partition = tuple(relabel[g] for g in groups)
        total = sequential_prior(partition, join, new) + sum(
            v for (i, j), v in zip(line_pairs(9), scores) if partition[i] == partition[j]
        )
        assert total == pytest.approx(optimum)


def test_a_weak_pair_is_carried_by_the_scheme():
    """ABAB with one eye rhyme and one perfect rhyme beats ABAC (the issue's failure)."""
    poem = stanza(["love", "night", "prove", "light"])
    assert rhyme_scheme(poem) == "ABAB"
    assert rhyme_scheme(poem, method="perfect") == "ABCB"
    historical = stanza(["eye", "day", "symmetry", "away"])
    assert rhyme_scheme(historical) == "ABAB"


def test_a_shared_unstressed_suffix_is_no_written_evidence():
    """'singing' / 'trusting' share only '-ing' after stressed syllables that differ: the pair
    counts as written apart (it scored 10.9, a sure rhyme, before SUFFIX_ONLY)."""
    a, b = word_forms("singing"), word_forms("trusting")
    assert stressed_alignment(a.forms[0].ending, b.forms[0].ending)[2] == SUFFIX_ONLY
    assert evidence_cell(SUFFIX_ONLY, 0, False) == evidence_cell(0, 3, False)
    assert rhyme_score("singing", "trusting") < 0 < rhyme_score("singing", "bringing")


def test_a_scheme_of_resemblances_alone_pays_its_cost():
    """A lone historical '-y' rhyme in a rare place is read ABCD; with no scheme cost ABCA.
    Beside a perfect rhyme, or strong enough in a common place, a resemblance still links."""
    words = [["sky", "river", "table", "society"], ["night", "love", "light", "prove"],
             ["river", "love", "table", "prove"]]  # fmt: skip
    shipped = default_model()
    assert shipped.uncertain_scheme_cost > 0
    assert shipped.schemes(words) == ["ABCD", "ABAB", "ABCB"]
    free = load_model()
    free.uncertain_scheme_cost = 0.0
    assert free.schemes(words) == ["ABCA", "ABAB", "ABCB"]
    assert shipped.certain_pairs(["night", "light", "Night", "prove"]) == [
        True, True, False, True, False, False,
    ]  # fmt: skip


@pytest.mark.parametrize(
    "scheme, words",
    [("AABB", ["night", "light", "stone", "alone"]), ("ABAB", ["day", "heart", "way", "apart"]),
     ("ABCB", ["river", "sing", "table", "king"]), ("ABBA", ["fire", "sea", "free", "desire"]),
     ("ABCD", ["river", "table", "window", "garden"]),
     ("AABBA", ["quay", "key", "crust", "thrust", "sea"])],
)  # fmt: skip
def test_natural_schemes(scheme, words):
    assert rhyme_scheme(stanza(words)) == scheme


def test_repetitions_and_edge_cases():
    assert rhyme_scheme("the sky\na cat\nthe sky\na dog") == "ABAC"
    assert rhyme_scheme("the sky\na cat\nthe sky\na dog", link_repetitions=False) == "ABCD"
    assert rhyme_scheme("") == "" and rhyme_scheme("one line") == "A"
    assert rhyme_scheme("ends in dashes --\nand a number 42") == "AB"
    long_poem = "\n".join(f"line {i}" for i in range(40))
    assert len(rhyme_scheme(long_poem)) == 40
    poems = [stanza(["night", "light", "stone", "alone"]), "a\nb", ""]
    assert rhyme_schemes(poems) == [rhyme_scheme(p) for p in poems]


def test_model_file_is_small_and_round_trips(tmp_path):
    model = default_model()
    data = model.to_json()
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    again = load_model(path)
    assert again.to_json() == data
    assert len(json.dumps(data)) < 64_000
    data["format"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="format"):
        load_model(path)


# --- learning (EM) ------------------------------------------------------------------------------

GROUPS = [
    ["cat", "hat", "mat", "flat", "sat", "that"], ["day", "way", "play", "grey", "stay", "away"],
    ["night", "light", "sight", "bright", "white", "flight"], ["stone", "alone", "bone", "grown"],
    ["heart", "part", "art", "start", "apart"], ["sing", "ring", "king", "spring", "thing"],
    ["fire", "desire", "higher", "entire"], ["door", "more", "floor", "shore", "before"],
    ["love", "above", "dove", "glove"], ["cold", "old", "told", "gold", "hold"],
]  # fmt: skip


SCHEMES = ["ABAB"] * 5 + ["AABB"] * 4 + ["ABCB"] * 3 + ["ABBA"]


def test_em_learns_schemes_and_rhymes_without_labels():
    poems = SyntheticPoems(3)
    train = poems.scheme_end_words(1500, schemes=SCHEMES, groups=GROUPS)
    words = [w for group in GROUPS for w in group]
    others = [tuple(poems.rng.sample(words, 2)) for _ in range(3000)]
    model = learn_model(
        training_units(w for _, w in train), others, iterations=8, show_progress=False
    )
    test = poems.scheme_end_words(300, schemes=SCHEMES, groups=GROUPS)
    decoded = model.schemes([w for _, w in test])
    accuracy = sum(d == s for d, (s, _) in zip(decoded, test)) / len(test)
    assert accuracy >= 0.95
    prior = dict(zip([scheme_string(p) for p in restricted_growth_strings(4)], model.prior(4)))
    assert max(prior, key=prior.get) == "ABAB"
    assert prior["ABAB"] > prior["ABAC"] + 2


# --- corpora and accuracy on the shared data (skipped without ../shared/data) --------------------


def test_author_split_is_by_surname():
    assert author_key("Alfred, Lord Tennyson") == author_key("AlfredLordTennyson") == "tennyson"
    assert is_held_out("John Keats") == is_held_out("JohnKeats")


# Floors a little under the figures measured by scripts/evaluate_rhyme_schemes.py (rhyme_kl card):
# (part, gold set) -> (exact scheme, pairwise precision, pairwise recall) of the learned default.
LEARNED_FLOORS = {
    (False, "EPG64 quatrains (human gold)"): (0.79, 0.86, 0.93),
    (False, "EPG64 all stanzas (human gold)"): (0.63, 0.85, 0.92),
    (False, "sonnet quatrains (rule)"): (0.95, 0.97, 0.97),
    (False, "couplet quatrains (rule)"): (0.96, 0.97, 0.97),
    (False, "all quatrains"): (0.94, 0.97, 0.97),
    (True, "EPG64 quatrains (human gold)"): (0.91, 0.95, 0.94),
    (True, "EPG64 all stanzas (human gold)"): (0.60, 0.80, 0.92),
    (True, "all quatrains"): (0.95, 0.97, 0.97),
}
# Random line-final pairs of two different poems called rhymes, each part (card: <= 2 %).
CHANCE_CEILING = 0.02


@pytest.fixture(scope="module")
def corpora(shared_data):
    poems = read_corpora(shared_data)
    return poems, gold_units(poems)


@pytest.mark.needs_shared_data
@pytest.mark.parametrize("key", sorted(LEARNED_FLOORS))
def test_learned_accuracy_floors(corpora, key):
    held_out, name = key
    _, units = corpora
    members = collections([u for u in units if u.held_out == held_out])[name]
    accuracy = setting_accuracy(members, {"method": "learned"})
    print(
        f"{name} ({'held-out' if held_out else 'dev'}): learned {accuracy.exact_share:.3f} "
        f"P {accuracy.precision:.3f} R {accuracy.recall:.3f}"
    )
    exact, precision, recall = LEARNED_FLOORS[key]
    assert accuracy.exact_share >= exact
    assert accuracy.precision >= precision and accuracy.recall >= recall


@pytest.mark.needs_shared_data
@pytest.mark.parametrize("held_out", [False, True])
def test_random_line_final_pairs_rarely_rhyme(corpora, held_out):
    poems, _ = corpora
    pairs = random_word_pairs([p.lines for p in poems if p.held_out == held_out], 20_000, seed=0)
    rate = setting_chance_rate(pairs, {"method": "learned"})
    print(f"random pairs called rhymes ({'held-out' if held_out else 'dev'}): {rate:.4f}")
    assert rate <= CHANCE_CEILING


@pytest.mark.needs_shared_data
@pytest.mark.parametrize("held_out", [False, True])
def test_random_quatrains_are_rarely_called_rhyming(corpora, held_out):
    """4 lines of 4 different poems get a scheme other than ABCD in 5.72 % (development) and
    5.90 % (held-out) of 5,000 seeded quatrains, 5.29 % and 5.46 % of 20,000 (9.3 % / 10.0 %
    of the 5,000 before issue 41's changes; perfect rhyme alone, by chance rhymes and repeated
    words, 5.8-6.0 %). Issue 41's bound is 6 %."""
    poems, _ = corpora
    part = [poem for poem in poems if poem.held_out == held_out]
    quatrains = ["\n".join(q) for q in random_quatrains(part, 20_000, seed=1)]
    called = [scheme != "ABCD" for scheme in rhyme_schemes(quatrains)]
    rates = sum(called[:5_000]) / 5_000, sum(called) / len(called)
    print(f"random quatrains called rhyming ({'held-out' if held_out else 'dev'}): {rates}")
    assert max(rates) <= 0.06


@pytest.mark.needs_shared_data
def test_gold_units_cover_every_rule(corpora):
    _, units = corpora
    sets = collections(units)
    assert len(sets["EPG64 all stanzas (human gold)"]) == 155  # 162 annotated, 7 of one line
    assert len(sets["EPG64 quatrains (human gold)"]) == 57
    assert len(sets["sonnet quatrains (rule)"]) >= 900
    assert len(sets["couplet quatrains (rule)"]) >= 1400
    for unit in units:
        assert len(unit.gold) == len(unit.lines)
        assert restricted_growth(unit.gold) == unit.gold  # lettered by first occurrence


@pytest.mark.slow  # about 90 s: EM over 14,257 units and 100,000 random pairs
@pytest.mark.needs_shared_data
def test_shipped_model_is_what_the_script_learns(shared_data, tmp_path, repo_root):
    """scripts/learn_rhyme_model.py is deterministic and produced the shipped table."""
    import runpy
    import sys

    out = tmp_path / "model.json"
    script = repo_root / "scripts" / "learn_rhyme_model.py"
    argv = sys.argv
    sys.argv = [str(script), "--data", str(shared_data), "--out", str(out)]
    try:
        with pytest.raises(SystemExit) as exit_code:
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    assert exit_code.value.code == 0
    shipped = json.loads((repo_root / "src/poetic_eval/rhyme/rhyme_model.json").read_text())
    assert json.loads(out.read_text()) == shipped


def test_pairs_of_lines_are_in_decoder_order():
    assert line_pairs(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
