"""A tiny causal-LM training run with PoeticDiversityCallback, shared by the one-process test
and the torchrun job (``python -m torch.distributed.run ... callback_training.py OUT``)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import datasets
import torch
from encoder_doubles import CountingEncoder
from tiny_language_models import (
    random_minimal_pairs,
    random_sentences,
    vocabulary_size,
    word_tokenizer,
)
from transformers import (
    DataCollatorForLanguageModeling,
    LlamaConfig,
    LlamaForCausalLM,
    Trainer,
    TrainingArguments,
)

from poetic_eval.integrations import PoeticDiversityCallback

DIMENSIONS = ["memorization", "length", "lexical", "semantic"]
PROMPTS = ["the poet", "a guard who", "once there was"]
EVERY_N_STEPS = 2


def tiny_llama(seed: int = 0) -> LlamaForCausalLM:
    """A 2-layer Llama with dropout, so that the training run's random state matters."""
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=vocabulary_size(),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        attention_dropout=0.2,
        tie_word_embeddings=False,
    )
    return LlamaForCausalLM(config)


def references() -> list[str]:
    """One-line 'poems' of the tiny vocabulary (its tokenizer has no newline)."""
    return random_sentences(40, seed=21, min_words=4, max_words=10)


def pairs() -> tuple[list[str], list[str]]:
    return random_minimal_pairs(24, seed=22)


def callback_options() -> dict:
    return {
        "every_n_steps": EVERY_N_STEPS,
        "num_poems": 10,
        "dimensions": DIMENSIONS,
        "generation_kwargs": {"max_new_tokens": 12},
        "generation_batch_size": 4,
        "seed": 3,
        "diversity_options": {"semantic_model": CountingEncoder(), "semantic_cache": False},
        "pairs": pairs(),
    }


def trainer_for(
    model,
    tokenizer,
    out_dir: Path,
    *,
    max_steps: int,
    batch_size: int = 4,
    callbacks=None,
    **arguments,
) -> Trainer:
    """The tiny run; ``arguments`` override the TrainingArguments (with an ``eval_strategy``,
    an evaluation set of 8 sentences is given)."""

    def tokenized(texts):
        return datasets.Dataset.from_dict({"text": texts}).map(
            lambda row: tokenizer(row["text"]), remove_columns=["text"]
        )

    train = tokenized(random_sentences(64, seed=20, min_words=3, max_words=10))
    evaluated = arguments.get("eval_strategy", "no") != "no"
    options = {
        "output_dir": str(out_dir),
        "max_steps": max_steps,
        "per_device_train_batch_size": batch_size,
        "learning_rate": 5e-3,
        "logging_steps": 1,
        "report_to": [],
        "save_strategy": "no",
        "use_cpu": True,
        "seed": 0,
        "disable_tqdm": True,
        "dataloader_num_workers": 0,
        "ddp_backend": "gloo" if int(os.environ.get("WORLD_SIZE", "1")) > 1 else None,
    }
    arguments = TrainingArguments(**{**options, **arguments})
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
    return Trainer(
        model=model,
        args=arguments,
        train_dataset=train,
        eval_dataset=tokenized(random_sentences(8, seed=23, min_words=3, max_words=10))
        if evaluated
        else None,
        data_collator=collator,
        processing_class=tokenizer,
        callbacks=callbacks,
    )


def train_with_callback(out_dir: Path, *, max_steps: int, with_callback: bool = True, **arguments):
    tokenizer = word_tokenizer()
    trainer = trainer_for(tiny_llama(), tokenizer, out_dir, max_steps=max_steps, **arguments)
    callback = None
    if with_callback:
        callback = PoeticDiversityCallback(trainer, PROMPTS, references(), **callback_options())
        trainer.add_callback(callback)
    trainer.train()
    return trainer, callback


def main(out: str) -> None:
    """The torchrun job: train (evaluated at the end, every process selecting on
    eval_poetic/mtld), then the main process saves the model and what was logged."""
    out_dir = Path(out)
    trainer, callback = train_with_callback(
        out_dir / "run",
        max_steps=EVERY_N_STEPS,
        eval_strategy="steps",
        eval_steps=EVERY_N_STEPS,
        metric_for_best_model="eval_poetic/mtld",
    )
    if trainer.is_world_process_zero():
        trainer.save_model(str(out_dir / "model"))
        record = {
            "log_history": trainer.state.log_history,
            "poems": callback.last_poems,
            "world_size": trainer.accelerator.num_processes,
            "best_metric": trainer.state.best_metric,
        }
        (out_dir / "logged.json").write_text(json.dumps(record))


if __name__ == "__main__":
    main(sys.argv[1])
