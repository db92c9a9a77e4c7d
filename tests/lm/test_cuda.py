"""On a CUDA machine: scores, choices and the Trainer callback's generation on the GPU equal
those on the CPU (skipped where torch sees no GPU, as in CI).

The CPU and GPU copies of each tiny model are built from the same seed, so any difference is
the device's arithmetic. float32 on the GPU must match to rounding; bfloat16 must keep the
ranking of clearly separated texts.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tiny_language_models import (
    random_minimal_pairs,
    random_sentences,
    tiny_causal_lm,
    tiny_masked_lm,
    word_tokenizer_over,
)

from poetic_eval.blm import as_items, choice_scores
from poetic_eval.blm.evaluation import blm_prompt, candidate_continuations, running_context
from poetic_eval.blm.generator.configs import BlmSizes, generate_config
from poetic_eval.integrations import generate_poems
from poetic_eval.lm import load_language_model, score_pairs, score_texts

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

PROMPTS = ["the poet", "a guard who", "once there was"]


def _on_gpu(lm, dtype=torch.float32):
    return load_language_model(lm, device="cuda", dtype=dtype)


@pytest.fixture(autouse=True)
def exact_float32_matmul():
    """TF32 would round float32 products to 10 mantissa bits; the parity checks want float32."""
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    yield
    torch.backends.cuda.matmul.allow_tf32 = previous


@pytest.mark.parametrize("share_prefixes", [True, False])
@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_causal_scores_on_the_gpu_equal_the_cpu(share_prefixes, reduction):
    texts = random_sentences(300, seed=5, min_words=1, max_words=40)
    cpu = score_texts(
        texts,
        tiny_causal_lm(3),
        reduction=reduction,
        share_prefixes=share_prefixes,
        show_progress=False,
    )
    gpu_lm = _on_gpu(tiny_causal_lm(3))
    assert gpu_lm.device.type == "cuda"
    gpu = score_texts(
        texts,
        gpu_lm,
        reduction=reduction,
        share_prefixes=share_prefixes,
        batch_size=64,
        show_progress=False,
    )
    np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-3)


def test_masked_scores_on_the_gpu_equal_the_cpu():
    texts = random_sentences(120, seed=6, min_words=1, max_words=20)
    cpu = score_texts(texts, tiny_masked_lm(4), show_progress=False)
    gpu = score_texts(texts, _on_gpu(tiny_masked_lm(4)), batch_size=256, show_progress=False)
    np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-3)


def test_bfloat16_keeps_clear_preferences():
    good, bad = random_minimal_pairs(400, seed=7)
    cpu_good, cpu_bad = score_pairs(good, bad, tiny_causal_lm(8), show_progress=False)
    gpu_good, gpu_bad = score_pairs(
        good, bad, _on_gpu(tiny_causal_lm(8), torch.bfloat16), show_progress=False
    )
    assert gpu_good.dtype == np.float64 and np.isfinite(gpu_good).all()
    cpu_margin, gpu_margin = cpu_good - cpu_bad, gpu_good - gpu_bad
    clear = np.abs(cpu_margin) > 1.0
    assert clear.sum() > 100
    assert np.mean(np.sign(cpu_margin[clear]) == np.sign(gpu_margin[clear])) > 0.97
    assert np.corrcoef(cpu_good, gpu_good)[0, 1] > 0.99


def _blm_items():
    records = generate_config("agr_ii", seed=1, sizes=BlmSizes(agreement_items=12))["test"]
    return as_items(records[:6])


@pytest.mark.parametrize("method", ["prompt", "candidates"])
def test_blm_choice_scores_on_the_gpu_equal_the_cpu(method):
    items = _blm_items()
    texts = []
    for item in items:
        texts += [blm_prompt(item, "en"), running_context(item), *candidate_continuations(item)]
    tokenizer = word_tokenizer_over(texts)

    def lm():
        return tiny_causal_lm(9, max_positions=2048, tokenizer=tokenizer)

    cpu = choice_scores(items, lm(), method=method, show_progress=False)
    gpu = choice_scores(items, _on_gpu(lm()), method=method, show_progress=False)
    assert gpu.shape == (len(items), 8)
    np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-3)


def test_poem_generation_on_the_gpu_is_seeded_and_leaves_the_callers_rng():
    lm = _on_gpu(tiny_causal_lm(2))
    model, tokenizer = lm.model.eval(), lm.tokenizer
    options = {"generation_kwargs": {"max_new_tokens": 10}, "batch_size": 4}
    first = generate_poems(model, tokenizer, PROMPTS, 9, seed=11, **options)
    again = generate_poems(model, tokenizer, PROMPTS, 9, seed=11, **options)
    assert len(first) == 9 and first == again
    torch.manual_seed(0)
    before = torch.cuda.random.get_rng_state()
    generate_poems(model, tokenizer, PROMPTS, 3, seed=12, **options)
    assert torch.equal(torch.cuda.random.get_rng_state(), before)  # the caller's GPU stream


def test_trainer_callback_on_the_gpu_logs_what_a_direct_compute_gives(tmp_path):
    """The Trainer puts the model on the GPU; the callback samples and scores it there."""
    import warnings

    from encoder_doubles import CountingEncoder
    from tiny_language_models import word_tokenizer
    from transformers import (
        DataCollatorForLanguageModeling,
        LlamaForCausalLM,
        Trainer,
        TrainingArguments,
    )

    from poetic_eval.diversity import poetic_diversity
    from poetic_eval.integrations import PoeticDiversityCallback
    from poetic_eval.pairs import pair_preference

    tokenizer = word_tokenizer()
    model = LlamaForCausalLM(tiny_causal_lm(12).model.config)
    train = [tokenizer(text) for text in random_sentences(64, seed=20, min_words=3)]
    trainer = Trainer(
        model=model,
        args=TrainingArguments(
            output_dir=str(tmp_path),
            max_steps=2,
            per_device_train_batch_size=8,
            learning_rate=5e-3,
            logging_steps=1,
            report_to=[],
            save_strategy="no",
            seed=0,
            disable_tqdm=True,
        ),
        train_dataset=train,
        data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),
        processing_class=tokenizer,
    )
    references = random_sentences(40, seed=21, min_words=4, max_words=10)
    good, bad = random_minimal_pairs(24, seed=22)
    options = {"semantic_model": CountingEncoder(), "semantic_cache": False}
    dimensions = ["memorization", "length", "lexical", "semantic"]
    callback = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        references,
        every_n_steps=2,
        num_poems=10,
        dimensions=dimensions,
        generation_kwargs={"max_new_tokens": 12},
        generation_batch_size=4,
        seed=3,
        diversity_options=options,
        pairs=(good, bad),
    )
    trainer.add_callback(callback)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer.train()
    assert trainer.model.device.type == "cuda"
    [logged] = [e for e in trainer.state.log_history if "poetic/mtld" in e]
    poems = [poem for poem in callback.last_poems if poem.strip()]
    expected = poetic_diversity(poems, references, dimensions=dimensions, **options)
    for key, value in expected.items():
        assert logged[f"poetic/{key}"] == pytest.approx(value, nan_ok=True, rel=1e-9), key
    direct = pair_preference(
        *score_pairs(good, bad, (trainer.model, tokenizer), show_progress=False)
    )
    assert logged["poetic/pairs_accuracy"] == pytest.approx(direct["accuracy"])


_SHARDED_JOB = """
import json, sys
import numpy as np
from tiny_language_models import random_minimal_pairs, tiny_causal_lm
from poetic_eval.lm.distributed import score_pairs_sharded
from poetic_eval.lm.distributed import end_process_group, process_group
device = sys.argv[2]
rank, world = process_group(device)
good, bad = random_minimal_pairs(9, seed=1)
scores = score_pairs_sharded(good, bad, tiny_causal_lm(1), device=device, show_progress=False)
import torch.distributed as dist
backend = dist.get_backend() if dist.is_initialized() else None
end_process_group()
if rank == 0:
    record = {"backend": backend, "world": world, "good": scores[0].tolist()}
    json.dump(record, open(sys.argv[1], "w"))
"""


def test_torchrun_on_a_gpu_machine_cpu_jobs_use_gloo_and_gpu_jobs_one_gpu_each(tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "job.py"
    script.write_text(_SHARDED_JOB)
    tests = Path(__file__).resolve().parent.parent
    environment = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")]),
    }

    def launch(processes: int, device: str, out: Path):
        command = [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            str(processes),
            str(script),
            str(out),
            device,
        ]
        return subprocess.run(
            command, env=environment, capture_output=True, text=True, timeout=300, check=False
        )

    good, bad = random_minimal_pairs(9, seed=1)
    single = score_pairs(good, bad, tiny_causal_lm(1), show_progress=False)[0]
    on_cpu = launch(2, "cpu", tmp_path / "cpu.json")
    assert on_cpu.returncode == 0, on_cpu.stderr[:6000]
    record = json.loads((tmp_path / "cpu.json").read_text())
    assert record["backend"] == "gloo" and record["world"] == 2
    np.testing.assert_allclose(record["good"], single, atol=1e-4)
    gpus = torch.cuda.device_count()
    too_many = launch(gpus + 1, "cuda", tmp_path / "many.json")
    assert too_many.returncode != 0
    assert f"torch sees {gpus} GPU(s) here" in too_many.stderr
    on_gpu = launch(gpus, "cuda", tmp_path / "gpu.json")
    assert on_gpu.returncode == 0, on_gpu.stderr[:6000]
    record = json.loads((tmp_path / "gpu.json").read_text())
    assert record["world"] == gpus and record["backend"] == ("nccl" if gpus > 1 else None)
    np.testing.assert_allclose(record["good"], single, rtol=1e-4, atol=1e-3)


def test_token_budget_follows_free_memory_and_slots_equal_the_cpu():
    from poetic_eval.lm import document_start_token_id
    from poetic_eval.lm.budget import CUDA_BUDGET_RANGE, bytes_per_position, cuda_token_budget

    gpu_lm = _on_gpu(tiny_causal_lm(11))
    free, _ = torch.cuda.mem_get_info(gpu_lm.device)
    expected = cuda_token_budget(free, bytes_per_position(gpu_lm))
    assert gpu_lm.tokens_per_forward == expected
    assert CUDA_BUDGET_RANGE[0] <= expected <= CUDA_BUDGET_RANGE[1]
    cpu_lm = tiny_causal_lm(11)
    start = document_start_token_id(cpu_lm)
    rows = [
        [start, *cpu_lm.tokenizer(text, add_special_tokens=False).input_ids]
        for text in random_sentences(50, seed=12)
    ]
    cpu = torch.cat([batch for _, batch in cpu_lm.slot_log_probs(rows)])
    gpu = torch.cat([batch.cpu() for _, batch in gpu_lm.slot_log_probs(rows)])
    torch.testing.assert_close(gpu, cpu, rtol=1e-4, atol=1e-3)


def test_roots_shared_across_packs_on_the_gpu_equal_the_cpu():
    """Groups of sequences sharing 24-token openings across packs (rows after roots of
    different lengths in one forward): the GPU's scores equal the CPU's."""
    rng = np.random.default_rng(31)
    cpu_lm = tiny_causal_lm(9, max_positions=128)
    vocabulary = cpu_lm.model.config.vocab_size
    sequences = []
    for opening in (20, 24, 30):
        shared = [0, *rng.integers(5, vocabulary, opening - 1)]
        sequences += [shared + list(rng.integers(5, vocabulary, 10)) for _ in range(5)]
    from poetic_eval.lm.causal import sequence_log_probs

    cpu = sequence_log_probs(cpu_lm, sequences, pack_tokens=24)
    gpu = sequence_log_probs(
        _on_gpu(tiny_causal_lm(9, max_positions=128)), sequences, pack_tokens=24
    )
    assert np.abs(cpu - gpu).max() < 1e-4


# --- placed models on the GPU (issue 37) ----------------------------------------------------------


def _saved_model(lm, folder):
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return str(folder)


def test_a_model_split_over_the_gpu_and_cpu_memory_scores_like_the_cpu(tmp_path):
    """device_map: the embeddings and first layer on the GPU, the rest offloaded to CPU memory
    (run on the GPU by accelerate's hooks): the CPU model's scores to 1e-4 nats, nothing moved."""
    cpu = tiny_causal_lm(5)
    mapping = {"model.embed_tokens": 0, "model.rotary_emb": 0, "model.layers.0": 0,
               "model.layers.1": "cpu", "model.norm": "cpu", "lm_head": "cpu"}  # fmt: skip
    placed = load_language_model(_saved_model(cpu, tmp_path), device_map=mapping)
    assert placed.placed and placed.device == torch.device("cuda", 0)
    devices = {name: str(p.device) for name, p in placed.model.named_parameters()}
    good, bad = random_minimal_pairs(40, seed=6)
    for found, expected in zip(placed.score_pairs(good, bad), cpu.score_pairs(good, bad)):
        np.testing.assert_allclose(found, expected, atol=1e-4, rtol=0)
    assert {name: str(p.device) for name, p in placed.model.named_parameters()} == devices


@pytest.mark.parametrize("quantization", ["int8", "bnb-8bit", "bnb-4bit"])
def test_a_quantized_model_scores_on_the_gpu_without_moving(tmp_path, quantization):
    pytest.importorskip("torchao" if quantization == "int8" else "bitsandbytes")
    cpu = tiny_causal_lm(7)
    placed = load_language_model(
        _saved_model(cpu, tmp_path), quantization=quantization, device="cuda"
    )
    assert placed.placed and placed.device.type == "cuda"
    kinds = {name: (type(p).__name__, str(p.device)) for name, p in placed.model.named_parameters()}
    good, bad = random_minimal_pairs(40, seed=8)
    found, expected = placed.score_pairs(good, bad), cpu.score_pairs(good, bad)
    assert all(np.isfinite(side).all() for side in found)
    # quantized: close to float32 on these random weights, not equal
    assert (
        max(np.abs(f - e).max() for f, e in zip(found, expected)) < 0.1 * np.abs(expected[0]).max()
    )
    assert {
        n: (type(p).__name__, str(p.device)) for n, p in placed.model.named_parameters()
    } == kinds
