"""OdI's one-argument answers that name both roles (issue 40's random half): the correct answer
and I-Int of a verb with kinds of doer (:attr:`.Verb.specialists`) hold the same words, a
mass noun's doer included (*il mietitore di grano* / *il grano di mietitore*), and the verbs
whose answers cannot name both roles are kept to type III contexts where a bag of words over
the answers alone picked every one of their correct answers."""

from __future__ import annotations

import random
from functools import cache

from poetic_eval.blm import BlmSizes, generate_config, load_lexicon
from poetic_eval.blm.generator.alternation_matrices import AlternationGenerator

LEXICON = load_lexicon()
SIZES = BlmSizes(items_per_verb=4, few_shot_verbs=1)


@cache
def od_rows(config: str) -> list[dict]:
    return [row for split in generate_config(config, seed=3, sizes=SIZES).values() for row in split]


def subject(row: dict, label: str) -> list[str]:
    """The words of the subject chunk (with its "di" phrase) of ``row``'s answer ``label``."""
    answer = next(a for a in row["Answer_set_annotation"] if a["label"] == label)
    return answer["chunks"][0]["text"].replace("'", "' ").split()


MASS = {noun.lemma for noun in LEXICON.nouns.values() if noun.mass}
SINGULAR = {noun.lemma for noun in LEXICON.nouns.values()}
PLURAL = {noun.plural for noun in LEXICON.nouns.values()}


def around_di(words: list[str]) -> tuple[str, str]:
    """The subject noun and the bare noun after "di" (*pescatori*, *trote*)."""
    at = words.index("di")
    return words[at - 1], words[at + 1]


def test_paired_answers_name_both_roles_in_the_same_forms_mass_doers_included():
    """The correct answer names a kind of doer by its patients (bare plural, or a mass noun),
    I-Int its patient by the doers in the subject's number: a mass noun's doer is singular in
    both (*il mietitore di grano* / *il grano di mietitore*), so that the number of the noun and
    of the verb is the same in both answers. Drawn plural, *mietitori* had marked I-Int."""
    paired = mass = 0
    for config in ("od_ii", "od_iii"):
        for row in od_rows(config):
            correct, wrong = subject(row, "Correct"), subject(row, "I-Int")
            if "di" not in correct:
                continue
            paired += 1
            assert "di" in wrong, (correct, wrong)
            doer, patients = around_di(correct)
            thing, doers = around_di(wrong)
            if thing in MASS:
                mass += 1
                assert doers in SINGULAR, wrong  # *il grano di mietitore*
            else:
                assert doers in PLURAL, wrong  # *le trote di pescatori*
            if patients in MASS:
                assert doer in SINGULAR, correct  # *il mietitore di grano*
            else:
                assert doer in PLURAL and patients in PLURAL, correct
    assert paired > 50 and mass > 3, (paired, mass)


def test_a_mass_noun_s_doer_is_singular_in_both_answers():
    generator = AlternationGenerator(LEXICON, "object_drop")
    rng = random.Random(7)
    seen = 0
    for lemma in ("mietere", "insegnare", "ballare"):
        for _ in range(8):
            answers = dict(generator.matrix(LEXICON.verb(lemma), rng, "II").answers)
            correct = answers["Correct"].chunks[0].text.replace("'", "' ").split()
            wrong = answers["I-Int"].chunks[0].text.replace("'", "' ").split()
            if "di" not in correct or around_di(wrong)[0] not in MASS:
                continue
            seen += 1
            # *il ballerino di tango* / *il tango di ballerino*: one number for both, the mass
            # noun in its singular after the correct answer's doer
            assert {around_di(correct)[0], around_di(wrong)[1]} <= SINGULAR, (correct, wrong)
            assert around_di(correct)[1] in MASS, correct
    assert seen > 5


def test_kinds_of_doer_share_their_answers_first_word():
    """A kind of doer is drawn with a patient of its gender where the verb has one, so both
    one-argument answers begin with the same article (*le allevatrici di capre* / *le capre di
    allevatrici*, not *i pastori di capre* / *le capre di pastori*)."""
    same = total = 0
    for row in od_rows("od_ii"):
        correct, wrong = subject(row, "Correct"), subject(row, "I-Int")
        if "di" in correct:
            total += 1
            same += correct[0] == wrong[0]
    assert same / total > 0.75, (same, total)
    tosare = [row for row in od_rows("od_ii") if row["Verb"] == "tosare"]
    assert tosare and all(subject(r, "Correct")[0] == subject(r, "I-Int")[0] for r in tosare)


def test_chores_that_name_no_kind_of_doer_stay_in_type_iii_contexts():
    generator = AlternationGenerator(LEXICON, "object_drop")
    for lemma in ("spolverare", "spazzare"):
        assert lemma not in {verb.lemma for verb in generator.verbs}
        assert lemma in {verb.lemma for verb in generator.context_only}
        assert not LEXICON.verb(lemma).specialists
