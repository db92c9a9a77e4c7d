"""Marvin & Linzen (2018) template families, in their release's names and case notation.

Case names: ``sing_MS_MV_plur_ES`` is a singular main subject and verb with a plural embedded
subject; ``IS``/``IV`` mark an inanimate main subject and verb, ``BS`` the matrix subject of a
sentential complement, ``ES``/``EV`` the embedded subject and verb, ``LMV`` a long VP.
Definite "the" noun phrases, every number combination. In ``obj_rel_within_*`` the embedded
verb varies and the label refers to the embedded subject.
"""

from __future__ import annotations

from .agreement_pairs import LABEL_NAMES
from .lexicon import Predicate
from .templates import Family, PhraseInventory, Variant, number_pairs, short_number, varied


def _simple_agrmt(g: PhraseInventory) -> list[Variant]:
    def variant(n: str) -> Variant:
        def render(choice):
            subject, predicate = choice
            return varied(["the", subject.form(n)], predicate, n)

        return Variant(
            f"{short_number(n)}_MS_MV", n, (g.lex.person_nouns, g.person_predicates), render
        )

    return [variant(n) for n in LABEL_NAMES]


def _sent_comp(g: PhraseInventory) -> list[Variant]:
    def variant(n: str, m: str) -> Variant:
        def render(choice):
            matrix, verb, subject, predicate = choice
            if matrix == subject:
                return None
            prefix = ["the", matrix.form(m), verb, "the", subject.form(n)]
            return varied(prefix, predicate, n)

        slots = (
            g.lex.person_nouns,
            g.lex.complement_verbs,
            g.lex.person_nouns,
            g.person_predicates,
        )
        return Variant(f"{short_number(n)}_MS_MV_{short_number(m)}_BS", n, slots, render)

    return [variant(n, m) for n, m in number_pairs()]


def _vp_coord(g: PhraseInventory) -> list[Variant]:
    def variant(n: str) -> Variant:
        def render(choice):
            subject, first, second = choice
            if first == second:
                return None
            prefix = ["the", subject.form(n), first.agreeing(n), "and"]
            return varied(prefix, Predicate(second.singular, second.base), n)

        verbs = g.lex.intransitive_verbs
        return Variant(f"{short_number(n)}_MS_MV_MV", n, (g.lex.person_nouns, verbs, verbs), render)

    return [variant(n) for n in LABEL_NAMES]


def _long_vp_coord(g: PhraseInventory) -> list[Variant]:
    def variant(n: str) -> Variant:
        def render(choice):
            subject, first, second = choice
            if first.rest == second.rest:
                return None
            prefix = ["the", subject.form(n), first.agreeing(n), *first.rest, "and"]
            return varied(prefix, second, n)

        phrases = g.lex.long_verb_phrases
        return Variant(
            f"{short_number(n)}_MS_LMV_LMV", n, (g.lex.person_nouns, phrases, phrases), render
        )

    return [variant(n) for n in LABEL_NAMES]


def _prep(g: PhraseInventory, animate: bool) -> list[Variant]:
    heads = g.lex.person_nouns if animate else g.lex.work_nouns
    prepositions = g.lex.person_prepositions if animate else g.lex.work_prepositions
    predicates = g.person_predicates if animate else g.work_predicates
    main = "MS_MV" if animate else "IS_IV"

    def variant(n: str, m: str) -> Variant:
        def render(choice):
            head, preposition, attractor, predicate = choice
            if head == attractor:
                return None
            # split: a sentence is a token list, and prepositions such as "in front of" are phrases
            prefix = ["the", head.form(n), *preposition.split(), "the", attractor.form(m)]
            return varied(prefix, predicate, n)

        slots = (heads, prepositions, g.lex.person_nouns, predicates)
        return Variant(f"{short_number(n)}_{main}_{short_number(m)}_ES", n, slots, render)

    return [variant(n, m) for n, m in number_pairs()]


def _prep_anim(g: PhraseInventory) -> list[Variant]:
    return _prep(g, animate=True)


def _prep_inanim(g: PhraseInventory) -> list[Variant]:
    return _prep(g, animate=False)


def _subj_rel(g: PhraseInventory) -> list[Variant]:
    def variant(n: str, m: str) -> Variant:
        def render(choice):
            head, verb, attractor, predicate = choice
            if head == attractor:
                return None
            prefix = ["the", head.form(n), "that", verb.agreeing(n), "the", attractor.form(m)]
            return varied(prefix, predicate, n)

        slots = (
            g.lex.person_nouns,
            g.lex.person_transitive_verbs,
            g.lex.person_nouns,
            g.person_predicates,
        )
        return Variant(f"{short_number(n)}_MS_EV_MV_{short_number(m)}_ES", n, slots, render)

    return [variant(n, m) for n, m in number_pairs()]


def _obj_rel(
    g: PhraseInventory, animate: bool, complementizer: bool, within: bool
) -> list[Variant]:
    heads = g.lex.person_nouns if animate else g.lex.work_nouns
    verbs = g.lex.person_transitive_verbs if animate else g.lex.work_transitive_verbs
    predicates = g.person_predicates if animate else g.work_predicates
    main = "MS_MV" if animate else "IS_IV"
    that = ["that"] if complementizer else []

    def variant(n: str, m: str) -> Variant:
        # n: number of the head noun, m: number of the embedded subject
        def render(choice):
            head, subject, verb, predicate = choice
            if head == subject:
                return None
            start = ["the", head.form(n), *that, "the", subject.form(m)]
            # the embedded verb varies, agreeing with the embedded subject (m); the main predicate
            # follows unchanged
            if within:
                return varied(
                    start,
                    Predicate(verb.singular, verb.base),
                    m,
                    [predicate.agreeing(n), *predicate.rest],
                )
            return varied(start + [verb.agreeing(m)], predicate, n)

        slots = (heads, g.lex.person_nouns, verbs, predicates)
        if within:
            case = f"{short_number(m)}_ES_EV_{short_number(n)}_{main}"
            return Variant(case, m, slots, render)
        return Variant(f"{short_number(n)}_{main}_{short_number(m)}_ES_EV", n, slots, render)

    order = number_pairs()
    if within:  # the embedded subject's number comes first, as in the M&L case names
        order = [(n, m) for m, n in number_pairs()]
    return [variant(n, m) for n, m in order]


def _obj_rel_across_anim(g: PhraseInventory):
    return _obj_rel(g, animate=True, complementizer=True, within=False)


def _obj_rel_across_inanim(g: PhraseInventory):
    return _obj_rel(g, animate=False, complementizer=True, within=False)


def _obj_rel_no_comp_across_anim(g: PhraseInventory):
    return _obj_rel(g, animate=True, complementizer=False, within=False)


def _obj_rel_no_comp_across_inanim(g: PhraseInventory):
    return _obj_rel(g, animate=False, complementizer=False, within=False)


def _obj_rel_within_anim(g: PhraseInventory):
    return _obj_rel(g, animate=True, complementizer=True, within=True)


def _obj_rel_within_inanim(g: PhraseInventory):
    return _obj_rel(g, animate=False, complementizer=True, within=True)


def _obj_rel_no_comp_within_anim(g: PhraseInventory):
    return _obj_rel(g, animate=True, complementizer=False, within=True)


def _obj_rel_no_comp_within_inanim(g: PhraseInventory):
    return _obj_rel(g, animate=False, complementizer=False, within=True)


MARVIN_LINZEN: dict[str, Family] = {
    family.name: family
    for family in (
        Family("simple_agrmt", "The poets sleep.", _simple_agrmt),
        Family("sent_comp", "The baker said the poets sleep.", _sent_comp),
        Family("vp_coord", "The poets sing and dance.", _vp_coord),
        Family("long_vp_coord", "The poets own a house ... and write letters ...", _long_vp_coord),
        Family("prep_anim", "The poets next to the baker sleep.", _prep_anim),
        Family("prep_inanim", "The poems by the baker are famous.", _prep_inanim),
        Family("subj_rel", "The poets that admire the baker sleep.", _subj_rel),
        Family(
            "obj_rel_across_anim", "The poets that the baker admires sleep.", _obj_rel_across_anim
        ),
        Family(
            "obj_rel_across_inanim",
            "The poems that the baker admires are famous.",
            _obj_rel_across_inanim,
        ),
        Family(
            "obj_rel_no_comp_across_anim",
            "The poets the baker admires sleep.",
            _obj_rel_no_comp_across_anim,
        ),
        Family(
            "obj_rel_no_comp_across_inanim",
            "The poems the baker admires are famous.",
            _obj_rel_no_comp_across_inanim,
        ),
        Family(
            "obj_rel_within_anim",
            "The poets that the baker admires sleep (embedded verb varies).",
            _obj_rel_within_anim,
        ),
        Family(
            "obj_rel_within_inanim",
            "The poems that the baker admires are famous (embedded verb varies).",
            _obj_rel_within_inanim,
        ),
        Family(
            "obj_rel_no_comp_within_anim",
            "The poets the baker admires sleep (embedded verb varies).",
            _obj_rel_no_comp_within_anim,
        ),
        Family(
            "obj_rel_no_comp_within_inanim",
            "The poems the baker admires are famous (embedded verb varies).",
            _obj_rel_no_comp_within_inanim,
        ),
    )
}
