"""A CausI/OdI sentence made from its words (:class:`AlternationWords`) and its template.

The template (:mod:`.alternation_templates`) gives the chunks in order: the subject's role, the
verb's voice tag (``Akt`` active, ``Pass`` passive, ``Intr`` the si form for CausI or the verb
without object for OdI), then roles, ``P-NP``, ``da-NP`` or "da" + a role (``da-Ag``,
``da-Pat``). A ``da-NP`` is the words' temporal phrase, or *da solo* agreeing with the subject
when the words say :data:`ALONE`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lexicon import Lexicon, Verb, adjective_form
from .matrices import Chunk, Sentence
from .noun_phrases import NounPhrase
from .verb_groups import verb_group

#: the ``da_phrase`` of words whose "da" phrase says the subject is alone (*da solo*, *da
#: sole*, agreeing with it when the sentence is made)
ALONE = "<alone>"


@dataclass(frozen=True)
class AlternationWords:
    agent: NounPhrase
    patient: NounPhrase
    other_phrase: str
    da_phrase: str
    frame: str


def alternation_sentence(
    lexicon: Lexicon,
    alternation: str,
    verb: Verb,
    words: AlternationWords,
    template: tuple[str, ...],
) -> Sentence:
    """The sentence of ``words`` in ``template`` for ``verb`` of ``alternation``."""
    roles = {"Ag": words.agent, "Pat": words.patient}
    subject = roles[template[0]]
    voice = {
        "Akt": "active",
        "Pass": "passive",
        "Intr": "si" if alternation == "causative" else "active",
    }[template[1]]
    chunks = [
        Chunk(template[0], subject.text()),
        Chunk(
            template[1],
            verb_group(lexicon, verb, words.frame, voice, subject.number, subject.gender),
        ),
    ]
    for tag in template[2:]:
        if tag in roles:
            chunks.append(Chunk(tag, roles[tag].text()))
        elif tag == "P-NP":
            chunks.append(Chunk(tag, words.other_phrase))
        elif tag == "da-NP" and words.da_phrase == ALONE:
            alone = adjective_form("solo", subject.gender, subject.number)
            chunks.append(Chunk(tag, f"da {alone}"))
        elif tag == "da-NP":
            chunks.append(Chunk(tag, words.da_phrase))
        else:  # da-Ag, da-Pat
            chunks.append(Chunk(tag, roles[tag[3:]].text("da")))
    text = " ".join(c.text for c in chunks)
    return Sentence(" ".join(template), tuple(chunks), text, verb.lemma)
