"""Zero- and one-shot BLM prompts in English and Italian, and the text the candidates are read in.

The prompts follow the structure of the BLM-It challenge's prompts (Markdown sections for the
task, the output format, an optional solved example, then the question with its **Context** and
**Answer set**, and the instruction to answer with only the letter); the wording is ours. A prompt
ends with the answer header and a newline, so the model's answer is the letter on the next line:
the letters are scored as the bare strings ``"A"`` .. ``"H"`` after that newline, the same way the
one-shot example shows its correct letter.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...checks import require_choice
from ..answer_labels import LETTERS
from ..records import BlmItem

PROMPT_LANGUAGES = ("en", "it")
SENTENCE_END = ".!?"


@dataclass(frozen=True)
class PromptWording:
    """The fixed text of a prompt in one language (``{count}``: number of context sentences)."""

    task: str
    output: str
    context: str
    answers: str
    example: str
    example_answer: str
    question: str
    answer: str


WORDINGS = {
    "en": PromptWording(
        task="# TASK\n"
        "Here is a puzzle in Italian. You get a list of sentences numbered from 1 to {count}, "
        "the **Context**, and a list of sentences marked with letters, the **Answer set**. "
        "Choose from the **Answer set** the sentence that can come next in the **Context**.",
        output="# OUTPUT\n"
        "Write **only** the letter of the best answer, with no other text before or after it.",
        context="**Context**",
        answers="**Answer set**",
        example="# SOLVED EXAMPLE",
        example_answer="**Correct answer**",
        question="# PUZZLE",
        answer="**Your answer**",
    ),
    "it": PromptWording(
        task="# COMPITO\n"
        "Ecco un rompicapo in italiano. Ricevi un elenco di frasi numerate da 1 a {count}, il "
        "**Contesto**, e un elenco di frasi contrassegnate da lettere, le **Risposte**. "
        "Scegli tra le **Risposte** la frase che può venire dopo nel **Contesto**.",
        output="# RISPOSTA\n"
        "Scrivi **solo** la lettera della risposta migliore, senza altro testo né prima né dopo.",
        context="**Contesto**",
        answers="**Risposte**",
        example="# ESEMPIO RISOLTO",
        example_answer="**Risposta corretta**",
        question="# ROMPICAPO",
        answer="**La tua risposta**",
    ),
}


def require_language(language: str) -> PromptWording:
    return WORDINGS[require_choice(language, PROMPT_LANGUAGES, "prompt language")]


def _problem(item: BlmItem, wording: PromptWording) -> list[str]:
    context = [f"{number}\t{sentence}" for number, sentence in enumerate(item.context, start=1)]
    answers = [f"{letter}\t{sentence}" for letter, sentence in zip(LETTERS, item.answers)]
    return [wording.context, *context, "", wording.answers, *answers, ""]


def blm_prompt(item: BlmItem, language: str = "en", example: BlmItem | None = None) -> str:
    """The prompt for ``item``; with ``example``, a one-shot prompt showing it solved.

    The prompt ends with the answer header and a newline; the letter comes next.
    """
    wording = require_language(language)
    parts = [wording.task.format(count=len(item.context)), "", wording.output, ""]
    if example is not None:
        parts += [wording.example, *_problem(example, wording)]
        parts += [wording.example_answer, example.correct_option, ""]
    parts += [wording.question, *_problem(item, wording), wording.answer, ""]
    return "\n".join(parts)


def _as_sentence(text: str) -> str:
    return text if text[-1] in SENTENCE_END else f"{text}."


def running_context(item: BlmItem) -> str:
    """The context sentences as running text: each ends with a full stop (added when it has no
    final ``.``, ``!`` or ``?``, as BLM sentences do not), joined by single spaces."""
    return " ".join(_as_sentence(sentence) for sentence in item.context)


def candidate_continuations(item: BlmItem) -> list[str]:
    """Each answer as the next sentence of :func:`running_context`: a leading space and the
    same full stop the context sentences get (so its log-probability includes ending there)."""
    return [f" {_as_sentence(answer)}" for answer in item.answers]
