# A fixed synthetic workload (kept as is for the published figures), not the dataset's generator.
"""BLM-AgrI-style items in the release's record format, from our own small Italian word lists.

For benchmarks only (the real generator is ``builders/blm.py``): subject, an attractor PP (N1),
a second PP (N2) from sentence 5 on, and the verb; the subject's number flips every sentence,
N1's every two sentences; the answer set has the 8 labels of BLM-AgrI, one per rule broken.
"""

from __future__ import annotations

import numpy as np

# (singular, plural) noun phrases and verbs, agreeing forms written out by hand
SUBJECTS = [
    ("la lettera", "le lettere"),
    ("il vaso", "i vasi"),
    ("la chiave", "le chiavi"),
    ("il quadro", "i quadri"),
    ("la bottiglia", "le bottiglie"),
    ("lo specchio", "gli specchi"),
    ("l'orologio", "gli orologi"),
    ("la lampada", "le lampade"),
]
FIRST_PPS = [
    ("per il direttore", "per i direttori"),
    ("della pittrice", "delle pittrici"),
    ("dello studente", "degli studenti"),
    ("sul tavolo", "sui tavoli"),
    ("nella stanza", "nelle stanze"),
    ("dell'amico", "degli amici"),
]
SECOND_PPS = [
    ("del palazzo", "dei palazzi"),
    ("della scuola", "delle scuole"),
    ("dell'albergo", "degli alberghi"),
    ("del museo", "dei musei"),
]
COORDINATED = [("e il direttore", "e i direttori"), ("e la pittrice", "e le pittrici")]
VERBS = [
    ("arriva", "arrivano"),
    ("resta", "restano"),
    ("sparisce", "spariscono"),
    ("piace", "piacciono"),
    ("cade", "cadono"),
    ("appare", "appaiono"),
]
LETTERS = "ABCDEFGH"
SG, PL = 0, 1


def _sentence(words, subject, first, second, verb, *, coordinated=False) -> str:
    subject_np, first_pp, second_pp, verb_forms = words
    parts = [subject_np[subject]]
    if first is not None:
        parts.append(COORDINATED[0][first] if coordinated else first_pp[first])
    if second is not None:
        parts.append(second_pp[second])
    parts.append(verb_forms[verb])
    return " ".join(parts)


def _words(rng: np.random.Generator):
    return (
        SUBJECTS[rng.integers(len(SUBJECTS))],
        FIRST_PPS[rng.integers(len(FIRST_PPS))],
        SECOND_PPS[rng.integers(len(SECOND_PPS))],
        VERBS[rng.integers(len(VERBS))],
    )


def agreement_item(index: int, rng: np.random.Generator) -> dict:
    """One item; every sentence draws its own words (lexical variation of type III)."""
    context = []
    for step in range(7):
        subject, first = step % 2, (step // 2) % 2
        second = None if step < 4 else (step // 2) % 2
        context.append(_sentence(_words(rng), subject, first, second, subject))
    words = _words(rng)
    answers = {
        "Correct": _sentence(words, PL, PL, PL, PL),
        "Coord": _sentence(words, PL, PL, PL, PL, coordinated=True),
        "WNA": _sentence(words, PL, PL, None, PL),
        "WN1": _sentence(words, PL, SG, PL, PL),
        "WN2": _sentence(words, PL, PL, SG, PL),
        "AEV": _sentence(words, PL, PL, PL, SG),
        "AEN1": _sentence(words, PL, SG, PL, SG),
        "AEN2": _sentence(words, PL, PL, SG, SG),
    }
    labels = list(answers)
    correct_position = index % 8
    distractors = [label for label in labels if label != "Correct"]
    rng.shuffle(distractors)
    order = distractors[:correct_position] + ["Correct"] + distractors[correct_position:]
    return {
        "ID": index,
        "Context": [f"{n}\t{sentence}" for n, sentence in enumerate(context, start=1)],
        "Answer_set": [f"{LETTERS[k]}\t{answers[label]}" for k, label in enumerate(order)],
        "Correct_option": LETTERS[correct_position],
        "Correct_answer": answers["Correct"],
        "Answer_set_annotation": [
            {"label": label, "value": label == "Correct", "option": LETTERS[k]}
            for k, label in enumerate(order)
        ],
    }


def agreement_items(count: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [agreement_item(index, rng) for index in range(count)]


def with_shared_openings(items: list, sentences: int, group: int) -> list:
    """``items`` (:class:`poetic_eval.blm.records.BlmItem`) in consecutive groups of ``group``, each
    item's first ``sentences`` context sentences replaced by those of its group's first item:
    items that repeat their contexts' openings, as the engine's issue describes BLM type II."""
    import dataclasses

    return [
        dataclasses.replace(
            item,
            context=items[index - index % group].context[:sentences] + item.context[sentences:],
        )
        for index, item in enumerate(items)
    ]
