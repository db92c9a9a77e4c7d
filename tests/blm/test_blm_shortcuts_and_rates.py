"""Issue 40: the context-blind baseline under both protocols, and the rates the release is
compared with, checked on a small seeded build (the full build's figures are in the card)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import pytest
from italian_reference import ADJECTIVES, check_phrase, noun_index, split_complement
from italian_reference import VERBS as VERB_FORMS

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator import data_profile
from poetic_eval.blm.generator.shortcut_baseline import (
    C,
    _matrix,
    _targets,
    answer_words,
    context_blind_accuracy,
    fit_logistic_regression,
    held_out_accuracy,
    split_rows,
)

LEXICON = load_lexicon()
SIZES = BlmSizes(agreement_items=600, agreement_few_shot=4, items_per_verb=16)
ALT = ("caus_ii", "caus_iii", "od_ii", "od_iii")
ALONE = data_profile.ALONE_PHRASES
NOUNS = noun_index(LEXICON)
#: every future form of the hand-written table (sarà, cadranno, si romperà ...)
VERB_FORMS_FUTURE = {
    form
    for forms in VERB_FORMS.values()
    for (tense, _), form in forms.finite.items()
    if tense == "future"
}


@cache
def rows(config: str) -> list[dict]:
    return generate_config(config, seed=3, sizes=SIZES)["test"]


def da_texts(annotation: dict) -> list[str]:
    return [c["text"] for c in annotation["chunks"] if c["tag"] == "da-NP"]


@pytest.mark.parametrize("protocol", ["random_half", "verb_split"])
def test_the_protocols_split_the_items_in_two_halves(protocol):
    items = rows("caus_ii")
    train, held_out = split_rows(items, protocol, seed=1)
    assert len(train) + len(held_out) == len(items)
    assert {r["ID"] for r in train}.isdisjoint(r["ID"] for r in held_out)
    assert 0.3 * len(items) < len(train) < 0.7 * len(items)
    if protocol == "verb_split":  # no verb on both sides
        assert {r["Verb"] for r in train}.isdisjoint(r["Verb"] for r in held_out)
    else:  # a random half shares nearly every verb
        shared = {r["Verb"] for r in train} & {r["Verb"] for r in held_out}
        assert len(shared) >= 0.9 * len({r["Verb"] for r in items}) and len(shared) > 5
    assert split_rows(items, protocol, seed=1) == (train, held_out)  # seeded
    assert split_rows(items, protocol, seed=2) != (train, held_out)


def sklearn_held_out_accuracy(train: list[dict], held_out: list[dict]) -> float:
    """The same baseline by scikit-learn (an independent implementation)."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    def texts(items):
        return [" ".join(sorted(answer_words(s))) for item in items for s in item["Answer_set"]]

    gold = [[a["value"] for a in sorted(i["Answer_set_annotation"], key=lambda a: a["option"])]
            for i in train]  # fmt: skip
    vectorizer = CountVectorizer(binary=True, token_pattern=r"\S+")
    # fitted to its minimum: with its default tol of 1e-4 it stops a little short, and on the
    # small held-out sides here a few near-ties then go the other way (up to 0.023 apart)
    model = LogisticRegression(max_iter=20000, tol=1e-10).fit(
        vectorizer.fit_transform(texts(train)), [int(v) for g in gold for v in g]
    )
    scores = model.decision_function(vectorizer.transform(texts(held_out))).reshape(-1, 8)
    correct = np.array(["ABCDEFGH".index(i["Correct_option"]) for i in held_out])
    return float(np.mean(scores.argmax(axis=1) == correct))


@pytest.mark.parametrize("config", [*ALT, "agr_ii", "agr_iii"])
@pytest.mark.parametrize("protocol", ["random_half", "verb_split"])
def test_the_baseline_agrees_with_scikit_learn(config, protocol):
    """The card's baseline is the model a reader would fit with scikit-learn's
    ``LogisticRegression(C=1)`` (its defaults but the tolerance, which stops a little short of
    the minimum: up to 0.023 apart on this small build's seed-0 splits). Fitted to its minimum,
    scikit-learn's picks are ours on every config and protocol of this build. The 400
    gradient steps used before issue 40's round 4 were 0.165 below on od_ii with no shared verb
    (0.511 against 0.676)."""
    train, held_out = split_rows(rows(config), protocol, seed=0)
    ours, reference = held_out_accuracy(train, held_out), sklearn_held_out_accuracy(train, held_out)
    assert abs(ours - reference) <= 0.01, (ours, reference)


def test_the_baseline_s_fit_is_scikit_learn_s_minimum():
    """Weight by weight, the fit is the minimum scikit-learn reaches with a tight tolerance:
    an under-converged fit (few gradient steps, a loose tolerance) or another penalty is not."""
    from sklearn.linear_model import LogisticRegression

    train = split_rows(rows("od_ii"), "verb_split", seed=0)[0]
    words = sorted({w for row in train for s in row["Answer_set"] for w in answer_words(s)})
    features = _matrix(train, {word: index for index, word in enumerate(words)})
    targets = _targets(train)
    weights = fit_logistic_regression(features, targets)
    assert C == 1.0
    model = LogisticRegression(C=C, tol=1e-10, max_iter=20000).fit(features[:, :-1], targets)
    assert np.max(np.abs(weights[:-1] - model.coef_[0])) < 1e-3
    assert abs(weights[-1] - model.intercept_[0]) < 1e-3
    assert np.max(np.abs(weights)) > 1.0  # the words weigh, so the check is not vacuous


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
@pytest.mark.parametrize("protocol", ["random_half", "verb_split"])
def test_agri_baseline_stays_below_the_issue_s_bound(config, protocol):
    assert context_blind_accuracy(rows(config), protocol) <= 0.20


@pytest.mark.parametrize("config", ALT)
def test_no_da_phrase_marks_the_correct_answer(config):
    """A baseline that sees only each answer's "da" phrase (its words, or none) stays near
    chance: temporal phrases and *da solo* are in wrong answers too. Before issue 40 only the
    correct answer and I-Int had them, and this baseline scored about 0.5."""
    tails = []
    for item in rows(config):
        answers = []
        for sentence, annotation in zip(item["Answer_set"], item["Answer_set_annotation"]):
            da = da_texts(annotation)
            answers.append(f"{sentence.split(chr(9))[0]}\t{da[0] if da else 'nessuna'}")
        tails.append({**item, "Answer_set": answers})
    assert context_blind_accuracy(tails, "random_half") < 0.36


#: the bounds this build kept under the card's earlier, under-converged baseline (400 gradient
#: steps), which scored this small build CausI 0.643-0.680 / 0.521-0.537, OdI 0.599-0.611 /
#: 0.502-0.528 (random half / no shared verb). The converged baseline reads more of the
#: answers' form; it measured OdI's random half at 0.723 / 0.711 until OdI's one-argument
#: answers named both roles for most verbs (kinds of doer, *i pescatori di trote* / *le trote
#: di pescatori*, a mass noun's doer singular in both); now CausI 0.546 / 0.534 (caus_ii),
#: 0.561 / 0.486 (caus_iii), OdI 0.541 / 0.475 (od_ii), 0.557 / 0.499 (od_iii). A bound
#: missed would be a strict xfail with the measured value
KEPT_BOUNDS = {"caus": (0.70, 0.60), "od": (0.66, 0.58)}
KEPT_UNMET: dict[tuple[str, str], str] = {}


def xfailing(cases, unmet: dict) -> list:
    """``cases`` (a config, or a tuple of parameters), each a strict xfail where ``unmet`` gives
    its measured value."""
    return [
        pytest.param(*(case if isinstance(case, tuple) else (case,)),
                     marks=pytest.mark.xfail(strict=True, reason=unmet[case]))
        if case in unmet else case
        for case in cases
    ]  # fmt: skip


def strict_xfails(unmet: dict[tuple[str, str], str]) -> list:
    """(config, protocol) over CausI/OdI and both protocols, a strict xfail where ``unmet``."""
    return xfailing([(c, p) for c in ALT for p in ("random_half", "verb_split")], unmet)


@pytest.mark.parametrize(("config", "protocol"), strict_xfails(KEPT_UNMET))
def test_the_baseline_stays_below_what_this_build_reached(config, protocol):
    random_half, no_shared_verb = KEPT_BOUNDS[config.split("_")[0]]
    bound = random_half if protocol == "random_half" else no_shared_verb
    assert context_blind_accuracy(rows(config), protocol) < bound


@pytest.mark.parametrize("config", ["od_ii", "od_iii"])
def test_odi_one_argument_answers_share_their_subject_s_number(config):
    """OdI's I-Int takes the correct answer's subject's number: drawn as the plural patients of
    the other sentences, it was plural in 80 % of the items against 55 %, and the articles alone
    told the two one-argument answers apart. An item whose I-Int subject is a mass noun (*la
    storia di studentesse studia*), which has no plural, is left out."""
    plural = {"Correct": [], "I-Int": []}
    for item in rows(config):
        subjects = {
            a["label"]: check_phrase(split_complement(a["chunks"][0]["text"])[0], NOUNS)
            for a in item["Answer_set_annotation"]
            if a["label"] in plural
        }
        if LEXICON.nouns[subjects["I-Int"].lemma].mass:
            continue
        for label, phrase in subjects.items():
            plural[label].append(phrase.number == "pl")
    shares = {label: float(np.mean(values)) for label, values in plural.items()}
    assert abs(shares["Correct"] - shares["I-Int"]) < 0.1, shares


@cache
def full_rows(config: str) -> list[dict]:
    """The test split of ``config`` as the seed-0 build makes it (the card's figures)."""
    return generate_config(config, seed=0)["test"]


#: issue 40's bounds on the full seed-0 build (the card's table): at most 0.65 with no shared
#: verb and 0.70 with a random half. The converged baseline (random half / no shared verb):
#: caus_ii 0.631 / 0.495, caus_iii 0.606 / 0.488, od_ii 0.672 / 0.535, od_iii 0.668 / 0.524.
#: OdI's random half was 0.861 / 0.843 while most OdI verbs' one-argument answers named one
#: role only, so that the baseline learnt which nouns of a verb are its agents. A bound missed
#: is a strict xfail with the measured value, so that the test says when it is met
UNMET: dict[tuple[str, str], str] = {}
ISSUE_40_BOUNDS = strict_xfails(UNMET)


@pytest.mark.parametrize(("config", "protocol"), ISSUE_40_BOUNDS)
def test_causi_odi_baseline_meets_issue_40_s_bounds_on_the_full_build(config, protocol):
    bound = {"random_half": 0.70, "verb_split": 0.65}[protocol]
    assert context_blind_accuracy(full_rows(config), protocol) <= bound


@pytest.mark.parametrize("config", ALT)
def test_da_solo_and_temporal_phrases_at_the_release_s_rates(config):
    assert 0.25 <= data_profile.alone_share_of_correct(rows(config)) <= 0.50
    assert 0.2 <= data_profile.temporal_share_of_wrong(rows(config)) <= 0.5
    i_int = [a for r in rows(config) for a in r["Answer_set_annotation"] if a["label"] == "I-Int"]
    alone = sum(bool(set(da_texts(a)) & ALONE) for a in i_int) / len(i_int)
    assert abs(alone - data_profile.alone_share_of_correct(rows(config))) < 0.1


@pytest.mark.parametrize("config", ALT)
def test_da_solo_only_in_answers_and_where_the_verb_takes_it(config):
    for item in rows(config):
        for annotation in item["Context_annotation"]:
            assert not set(da_texts(annotation)) & ALONE, annotation  # contexts: time only
        for annotation in item["Answer_set_annotation"]:
            verb = LEXICON.verbs[annotation["verb"]]
            if set(da_texts(annotation)) & ALONE:
                assert verb.alone, annotation
                # da solo agrees with the subject (*le finestre si aprono da sole*)
                subject = check_phrase(annotation["chunks"][0]["text"], NOUNS)
                expected = {("m", "sg"): "solo", ("f", "sg"): "sola", ("m", "pl"): "soli",
                            ("f", "pl"): "sole"}[(subject.gender, subject.number)]  # fmt: skip
                assert da_texts(annotation)[0] == f"da {expected}", annotation
                if annotation["label"] == "I-Int":  # *le macchine guidano da sole* is natural
                    assert not verb.others_act_alone, annotation


@pytest.mark.parametrize("config", ["caus_ii", "caus_iii"])
def test_no_si_rompe_with_a_durative_da(config):
    """*i vetri si rompono dalla settimana scorsa*: the si form of an ``alone_only`` verb
    (rompere, spezzare, ...) takes *da solo*, never a temporal phrase."""
    assert LEXICON.verbs["rompere"].alone_only
    seen = 0
    for item in rows(config):
        for annotation in [*item["Context_annotation"], *item["Answer_set_annotation"]]:
            verb = LEXICON.verbs[annotation["verb"]]
            tags = annotation["pattern"].split()
            if verb.alone_only and tags[1] == "Intr" and "da-NP" in tags:
                seen += 1
                assert set(da_texts(annotation)) <= ALONE, annotation
    assert seen > 0


@pytest.mark.parametrize("config", ALT)
def test_contexts_have_modals_and_passati_remoti(config):
    """The release: modals in 55-60 % of the context sentences, the passato remoto in 17-20 %.
    This small build: modals CausI 57.1 % and 57.1 %, OdI 56.3 % and 57.1 % (no modal with a
    temporal "da"; a CausI mishap or wear only might happen or must, may or might have
    happened, *potrebbe rompersi*, *deve essersi rotto*, *dovette rompersi*), passato remoto
    17.5-19.1 % (the seed-0 build: 17.5-19.0 %). That they are there at all; the release's
    modal share is checked below."""
    shares = data_profile.context_form_shares(rows(config), LEXICON)
    assert 0.1 <= shares["modal"] <= 0.6, shares
    assert 0.15 <= shares["remote"] <= 0.25, shares


@pytest.mark.parametrize("config", ALT)
def test_contexts_have_the_release_s_modal_share(config):
    """Three of the seven context templates hold a temporal "da", which takes no modal, so at
    most 4 in 7 (57.1 %) can have one: nearly every other sentence has one, as in the release.
    Before CausI told its mishaps as inferences (*il vaso deve essersi rotto*), caus_ii and
    caus_iii had 14.4 % and 28.6 % here."""
    shares = data_profile.context_form_shares(rows(config), LEXICON)
    assert 0.55 <= shares["modal"] <= 0.60, shares


@pytest.mark.parametrize("config", ALT)
def test_contexts_have_possessives(config):
    """The release: possessives in 7-25 % of the context sentences. This small build: OdI
    8.5 % and 11.4 %, CausI 15.2 % and 7.1 % (6.1 % and 4.9 % before a habit or wear over a
    span could be on one's own, *il ragazzo deforma le sue scarpe da anni*, and a mass or a
    person where the verb's owners name it, *la cuoca scalda la sua minestra*); now CausI
    15.1 % and 7.5 %, OdI 8.5 % and 11.4 %. The seed-0 build: caus_ii 15.7 %, caus_iii 8.5 %
    (7.0 % before the context agents, who own what the verb's owners say, *il barista
    rompe la sua tazza*), od_ii 9.0 %, od_iii 11.3 %."""
    shares = data_profile.context_form_shares(rows(config), LEXICON)
    assert 0.07 <= shares["possessive"] <= 0.25, shares


#: the release's distinct words / lemmas per 100 context sentences are the floors of
#: data_profile.RELEASE_VOCABULARY (caus_ii's are not given), its lemmas as issue 40 counted
#: them (data_profile.LEMMA_OFFSET: 6 and 8 fewer than this measure on the same rows). The
#: seed-0 build: caus_ii 337 / 244, caus_iii 409 / 317, od_ii 351 / 278, od_iii 398 / 312 in
#: this measure (seeds 1-3: caus_iii 406-413 / 315-321, od_ii 351-353 / 278-279), so caus_iii
#: 311 and od_ii 270 in issue 40's (the release: 308 and 269-275). Before the context agents,
#: the occasions and a modifier on every context noun that has some: caus_iii 300, od_ii 274.
#: A floor missed is a strict xfail with the measured value
THINNER_THAN_THE_RELEASE: dict[str, str] = {}


@pytest.mark.parametrize(
    "config", xfailing(data_profile.RELEASE_VOCABULARY, THINNER_THAN_THE_RELEASE)
)
def test_contexts_are_as_varied_as_the_release_s(config):
    words, lemmas = data_profile.RELEASE_VOCABULARY[config]
    measured = data_profile.vocabulary(full_rows(config), LEXICON)
    comparable = data_profile.release_comparable_lemmas(config, measured["lemmas_per_100"])
    assert measured["words_per_100"] >= words and comparable >= lemmas, measured


def test_the_vocabulary_measure_counts_distinct_words_and_lemmas():
    made = [{"Context": [f"{i}\tle pittrici disegnano i ritratti"] * 7, "Context_annotation":
             [{"verb": "disegnare"}] * 7} for i in range(20)]  # fmt: skip
    measured = data_profile.vocabulary(made, LEXICON)
    assert measured["words_per_100"] == 5  # le pittrici disegnano i ritratti
    assert measured["lemmas_per_100"] == 5
    assert measured["nouns"] == 2 and measured["verbs"] == 1


def test_a_verb_s_infinitives_after_a_modal_are_its_lemma():
    """*dovette rompersi*, *deve aver rotto*, *deve essersi rotto*, *poter aprire*: one lemma
    each, not a new one per form (the sixth round's modals told CausI's lemmas 7 too many)."""
    index = data_profile.lemma_index(LEXICON)
    expected = {"rompersi": "rompere", "rompere": "rompere", "aver": "avere", "essersi": "essere",
                "poter": "potere", "asciugarsi": "asciugare", "aprirsi": "aprire"}  # fmt: skip
    assert {form: index[form] for form in expected} == expected
    sentences = ["il vaso può rompersi", "il vaso si rompe"]
    made = [{"Context": [f"{i}\t{s}" for s in sentences], "Context_annotation":
             [{"verb": "rompere"}] * 2} for i in range(60)]  # fmt: skip
    measured = data_profile.vocabulary(made, LEXICON)
    # il vaso può rompersi si rompe: 6 words; il vaso potere rompere si: 5 lemmas
    assert measured["words_per_100"] == 6 and measured["lemmas_per_100"] == 5


def predicate_is_planned(annotation: dict, chunks: dict[str, str]) -> bool:
    """Whether the AgrI predicate of a sentence is ``planned`` (its subject's class, its verb or
    adjective and whether it has an object tell the lexicon's predicate)."""
    subject = LEXICON.nouns[check_phrase(chunks["Subj"], NOUNS).lemma]
    last = chunks["V"].split()[-1]
    matches = [
        p
        for p in LEXICON.predicates
        if set(p.subjects) & set(subject.classes)
        and bool(p.objects) == ("Obj" in chunks)
        and (
            p.verb == annotation["verb"]
            if p.verb
            else last in ADJECTIVES.get(p.adjective, {}).values()
        )
    ]
    assert matches, annotation
    return all(p.planned for p in matches)


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_an_unplanned_future_is_only_hearsay_in_agri(config):
    """*È vero che le oche scapperanno* (the issue's reading), *Le oche scapperanno*: a future
    accident told as a known fact or as a bare forecast. A planned event may be known (*Sappiamo
    che le zie partiranno*), an unplanned one only passed on (*Si dice che le oche scapperanno*)."""
    certain, rumours = set(LEXICON.certain_prefixes), set(LEXICON.rumour_prefixes)
    assert {"Sappiamo che", "È vero che"} <= certain and not certain & rumours
    told = Counter()
    for item in rows(config):
        for annotation in [*item["Context_annotation"], *item["Answer_set_annotation"]]:
            chunks = {c["tag"]: c["text"] for c in annotation["chunks"]}
            if not set(chunks["V"].split()) & VERB_FORMS_FUTURE:
                continue
            prefix = chunks.get("Prefix", "")
            planned = predicate_is_planned(annotation, chunks)
            assert planned or prefix in rumours, annotation
            told["certain" if prefix in certain else "rumour" if prefix in rumours else "bare"] += (
                planned
            )
            told["unplanned"] += not planned
    # both kinds of future are told: planned ones after known-fact openings, unplanned ones
    assert told["certain"] > 100 and told["bare"] > 100 and told["unplanned"] > 100, told


def test_the_issue_s_good_italian_distractors_are_filtered_out():
    # E-WrBy *recitava da queste parti* ("around here"), I-Int *le sigarette fumano da un'ora*
    assert "parte" not in LEXICON.verbs["recitare"].answer_patients()
    assert "sigaretta" not in LEXICON.verbs["fumare"].answer_patients()
    # *quella cera viene ammorbidita dal pasticciere*; *i bottoni possono staccarsi*
    assert not LEXICON.verbs["ammorbidire"].can_act_on("pasticciere", "cera")
    assert LEXICON.verbs["staccare"].mishap
    for config in ALT:
        for item in rows(config):
            for text in item["Answer_set"]:
                assert "da queste parti" not in text and "sigarette fumano" not in text


@pytest.mark.parametrize("config", ["agr_ii", "agr_iii"])
def test_agri_attractors_go_beyond_di(config):
    """The release: *di* in about 77 % of the attractors, also *con*, *per*, *su*, *di cui*
    relatives and inanimate heads (*il pacco per la zia*, *il libro sui vulcani*). Drawn
    uniformly, the templates' chains gave *di* 70-71 %; weighted, 76-77 % on this test's small
    build and the seed-0 one."""
    shares = data_profile.attractor_prepositions(rows(config))
    assert 0.74 <= shares["di"] <= 0.80, shares
    found = {p for p, share in shares.items() if share > 0.01}
    assert {"con", "per", "su", "di cui"} <= found, shares
    subjects = [
        LEXICON.nouns[check_phrase(c["text"], NOUNS).lemma]
        for item in rows(config)
        for a in item["Context_annotation"]
        for c in a["chunks"]
        if c["tag"] == "Subj"
    ]
    inanimate = sum(noun.animacy == "inanimate" for noun in subjects) / len(subjects)
    assert inanimate > 0.1


@pytest.mark.parametrize("config", ALT)
def test_one_argument_answers_name_the_other_role_only_where_it_reads_well(config):
    """*i pescatori di trote pescano dall'alba*, *i piatti del cameriere si rompono da soli*:
    the correct answer names the other role after its subject, as the other answers name both
    roles, only for the pairs the lexicon lists (OdI ``specialists``, CausI ``owners``)."""
    seen = 0
    for item in rows(config):
        for annotation in item["Answer_set_annotation"]:
            if annotation["label"] not in ("Correct", "I-Int"):
                assert split_complement(annotation["chunks"][0]["text"])[1] is None
                continue
            head, complement = split_complement(annotation["chunks"][0]["text"])
            if complement is None:
                continue
            seen += annotation["label"] == "Correct"
            verb = LEXICON.verbs[annotation["verb"]]
            subject = check_phrase(head, NOUNS).lemma
            other = tokens_lemma(complement)
            agent, patient = (subject, other) if annotation["chunks"][0]["tag"] == "Ag" else (
                other, subject)  # fmt: skip
            pairs = verb.specialists if config.startswith("od") else verb.owners
            assert patient in pairs.get(agent, ()), annotation
    assert seen > 10


def tokens_lemma(complement: str) -> str:
    """The lemma of a "di" complement's noun (*di trote*, *del cameriere*)."""
    form = complement.replace("'", "' ").split()[-1]
    return NOUNS[form][0][0].lemma
