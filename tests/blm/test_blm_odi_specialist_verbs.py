"""The OdI item verbs whose doers are named by what they act on (issue 40): *le allevatrici di
mucche mungono da un'ora*, *i coltivatori di pomodori raccolgono dall'alba*, *gli accordatori di
pianoforti*, *i domatori di leoni*, *i cercatori di tartufi* (*tradurre*, added with them, is
kept to type III contexts: its E-WrBy reads as translating from a text, *traducono dai romanzi*).

Their correct answer and I-Int hold the same words (*le mucche di allevatrici mungono da
un'ora*), so a context-blind bag of words cannot tell the two apart; verbs without such pairs
were told at 1.00 by it (seed-0 od_ii, scripts/diagnose_blm_baseline.py).
"""

from __future__ import annotations

from functools import cache

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator

LEXICON = load_lexicon()
#: the item verbs this change added, each with specialists (verbs.json)
NEW_ITEM_VERBS = ("mungere", "raccogliere", "accordare", "addestrare", "cercare")
SIZES = BlmSizes(items_per_verb=3, few_shot_verbs=1)


@cache
def od_ii() -> dict:
    return generate_config("od_ii", seed=2, sizes=SIZES)


def _answers(row: dict) -> dict[str, list[dict]]:
    """The answers of ``row`` by label, each its list of chunks."""
    return {answer["label"]: answer["chunks"] for answer in row["Answer_set_annotation"]}


def test_new_verbs_are_item_verbs_with_specialists():
    generator = AlternationGenerator(LEXICON, "object_drop")
    item_verbs = {verb.lemma for verb in generator.verbs}
    gender = {lemma: noun.gender for lemma, noun in LEXICON.nouns.items()}
    for lemma in NEW_ITEM_VERBS:
        verb = LEXICON.verb(lemma)
        assert lemma in item_verbs, lemma
        assert verb.specialists, lemma
        # some kind of doer has a patient of its own gender, so both one-argument answers
        # begin with the same article (*le allevatrici di mucche* / *le mucche di allevatrici*)
        assert any(
            any(gender[p] == gender[agent] for p in patients)
            for agent, patients in verb.specialists.items()
        ), lemma


def test_new_verbs_appear_in_od_ii_and_their_one_argument_answers_name_both_roles():
    rows = [row for split in od_ii().values() for row in split]
    seen = set()
    for row in rows:
        if row["Verb"] not in NEW_ITEM_VERBS:
            continue
        seen.add(row["Verb"])
        verb = LEXICON.verb(row["Verb"])
        agents = {LEXICON.nouns[a].plural for a in verb.specialists}
        patients = {LEXICON.nouns[p].plural for ps in verb.specialists.values() for p in ps}
        answers = _answers(row)
        correct = answers["Correct"][0]["text"].split()
        wrong = answers["I-Int"][0]["text"].split()
        # *le allevatrici di mucche*; I-Int *le mucche di allevatrici*
        assert "di" in correct and "di" in wrong, (correct, wrong)
        assert agents & set(correct) and patients & set(correct), correct
        assert agents & set(wrong) and patients & set(wrong), wrong
        assert correct.index("di") > max(correct.index(w) for w in agents & set(correct))
        assert wrong.index("di") > max(wrong.index(w) for w in patients & set(wrong))
    assert seen == set(NEW_ITEM_VERBS)
