"""BLM items and models for the evaluation tests, written here.

The items are our own Italian sentences in the BLM record format (with and without the
release's number/letter prefixes); the models are tiny random Llamas over a word-level
vocabulary of exactly these texts, built in memory.
"""

from __future__ import annotations

import copy

import numpy as np
import torch
from tiny_language_models import bigram_causal_lm, tiny_causal_lm, word_tokenizer_over
from transformers import PreTrainedTokenizerFast

from poetic_eval.blm import LETTERS, as_items
from poetic_eval.blm.evaluation import blm_prompt, candidate_continuations, running_context

AGREEMENT_ITEM = {
    "ID": "agr-1",
    "Context": [
        "1\tla lettera per il sindaco arriva",
        "2\tle lettere per il sindaco arrivano",
        "3\tla lettera per i sindaci arriva",
        "4\tle lettere per i sindaci arrivano",
        "5\tla lettera per il sindaco del comune arriva",
        "6\tle lettere per il sindaco del comune arrivano",
        "7\tla lettera per i sindaci del comune arriva",
    ],
    "Answer_set": [
        "A\tle lettere per i sindaci arrivano",
        "B\tle lettere per i sindaci del comune arriva",
        "C\tle lettere per i sindaci del comune arrivano",
        "D\tle lettere e i sindaci del comune arrivano",
        "E\tle lettere per il sindaco del comune arrivano",
        "F\tle lettere per i sindaci dei comuni arrivano",
        "G\tle lettere per il sindaco del comune arriva",
        "H\tle lettere per i sindaci dei comuni arriva",
    ],
    "Correct_option": "C",
    "Correct_answer": "le lettere per i sindaci del comune arrivano",
    "Answer_set_annotation": [
        {"label": label, "value": label == "Correct", "option": letter}
        for letter, label in zip(
            LETTERS, ["WNA", "AEV", "Correct", "Coord", "WN1", "WN2", "AEN1", "AEN2"]
        )
    ],
}
CAUSATIVE_ITEM = {
    "ID": "caus-7",
    "Verb": "rompere",
    "Context": [
        "1\til bambino rompe il vaso con un martello",
        "2\til bambino rompe il vaso da pochi minuti",
        "3\til vaso è rotto dal bambino con un martello",
        "4\til vaso è rotto dal bambino da pochi minuti",
        "5\til vaso è rotto con un martello",
        "6\til vaso è rotto da pochi minuti",
        "7\til vaso si rompe con un martello",
    ],
    "Answer_set": [
        "A\til vaso rompe il bambino",
        "B\til bambino è rotto dal vaso",
        "C\til bambino è rotto da pochi minuti",
        "D\til bambino rompe il vaso",
        "E\til vaso si rompe dal bambino",
        "F\til vaso si rompe da pochi minuti",
        "G\til bambino si rompe da pochi minuti",
        "H\til vaso si rompe il bambino",
    ],
    "Correct_option": "F",
    "Correct_answer": "il vaso si rompe da pochi minuti",
    "Answer_set_annotation": [
        {"label": label, "value": label == "Correct", "option": letter}
        for letter, label in zip(
            LETTERS,
            ["IR-trans", "IER-pass", "ER-pass", "R-trans", "E-WrBy", "Correct", "I-Int", "IE-WrBy"],
        )
    ],
}
# as in the original release: no number/letter prefixes, an integer ID, no annotation
RELEASE_ITEM = {
    "ID": 215,
    "Verb": "aprire",
    "Context": [
        "la ragazza apre la finestra in silenzio",
        "la ragazza apre la finestra da un'ora",
        "la finestra è aperta dalla ragazza in silenzio",
        "la finestra è aperta dalla ragazza da un'ora",
        "la finestra è aperta in silenzio",
        "la finestra è aperta da un'ora",
        "la finestra si apre in silenzio",
    ],
    "Answer_set": [
        "la finestra si apre da un'ora",
        "la finestra apre la ragazza",
        "la ragazza è aperta dalla finestra",
        "la ragazza apre da un'ora",
        "la finestra si apre dalla ragazza",
        "la ragazza si apre da un'ora",
        "la ragazza è aperta da un'ora",
        "la finestra si apre la ragazza",
    ],
    "Correct_option": "A",
    "Correct_answer": "la finestra si apre da un'ora",
}
RECORDS = [AGREEMENT_ITEM, CAUSATIVE_ITEM, RELEASE_ITEM]


def _all_texts() -> list[str]:
    items = as_items(RECORDS)
    texts = []
    for item in items:
        for language in ("en", "it"):
            texts.append(blm_prompt(item, language, items[0]))
        texts += [running_context(item), *candidate_continuations(item)]
    return texts


def italian_tokenizer() -> PreTrainedTokenizerFast:
    """Word-level tokenizer over every word of the test items and prompts."""
    return word_tokenizer_over(_all_texts())


def italian_lm(seed: int = 0, max_positions: int = 1024):
    """A random 2-layer Llama over :func:`italian_tokenizer`, on the CPU in float32."""
    return tiny_causal_lm(seed, max_positions=max_positions, tokenizer=italian_tokenizer())


def bigram_lm(bonus: dict[str, float]):
    """A Llama whose next-token logits are 0 except ``bonus[word]`` for the listed words,
    whatever came before."""
    tokenizer = italian_tokenizer()
    logits = torch.zeros(len(tokenizer), len(tokenizer))  # [next, previous]
    vocab = tokenizer.get_vocab()
    for word, value in bonus.items():
        logits[vocab[word], :] = value
    return bigram_causal_lm(logits, tokenizer=tokenizer, max_positions=1024)


def full_text_scores(lm, prefix: str, continuations: list[str]) -> np.ndarray:
    """Independent reference: one forward per full text, log-probs summed over the
    continuation's tokens only."""
    tokenizer = lm.tokenizer
    prefix_ids = [tokenizer.bos_token_id, *tokenizer(prefix, add_special_tokens=False).input_ids]
    scores = []
    for text in continuations:
        ids = prefix_ids + tokenizer(text, add_special_tokens=False).input_ids
        with torch.no_grad():
            log_probs = lm.model(torch.tensor([ids])).logits[0].log_softmax(-1)
        scores.append(
            sum(log_probs[k - 1, ids[k]].item() for k in range(len(prefix_ids), len(ids)))
        )
    return np.array(scores)


# --- bad input -----------------------------------------------------------------------------------


def broken(**changes):
    record = copy.deepcopy(AGREEMENT_ITEM)
    record.update(changes)
    return record
