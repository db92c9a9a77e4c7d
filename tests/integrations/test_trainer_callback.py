"""PoeticDiversityCallback: trains a tiny LM and checks what it logs against a direct compute."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
from callback_training import (
    DIMENSIONS,
    EVERY_N_STEPS,
    PROMPTS,
    callback_options,
    pairs,
    references,
    tiny_llama,
    train_with_callback,
    trainer_for,
)
from encoder_doubles import CountingEncoder
from tiny_language_models import word_tokenizer
from transformers import AutoModelForCausalLM, LlamaForCausalLM

from poetic_eval.diversity import poetic_diversity
from poetic_eval.integrations import PoeticDiversityCallback, generate_poems
from poetic_eval.lm import score_pairs
from poetic_eval.lm.distributed import loopback_interface
from poetic_eval.pairs import pair_preference

pytestmark = pytest.mark.usefixtures("one_torch_thread")
TESTS = Path(__file__).resolve().parent.parent  # the shared test doubles
HERE = Path(__file__).resolve().parent


def _logged(log_history, step):
    [entry] = [e for e in log_history if e["step"] == step and "poetic/blank_poems" in e]
    return {k: v for k, v in entry.items() if k.startswith("poetic/")}


def _expected(model, tokenizer, poems):
    options = callback_options()
    kept = [poem for poem in poems if poem.strip()]  # a blank poem is counted, not scored
    scores = poetic_diversity(
        kept, references(), dimensions=DIMENSIONS, **options["diversity_options"]
    )
    good, bad = pairs()
    summary = pair_preference(*score_pairs(good, bad, (model, tokenizer), show_progress=False))
    return {
        **{f"poetic/{k}": v for k, v in scores.items()},
        "poetic/blank_poems": len(poems) - len(kept),
        "poetic/pairs_accuracy": summary["accuracy"],
        "poetic/pairs_ties": summary["ties"],
    }


def _assert_same(logged, expected):
    assert logged.keys() == expected.keys()
    for key, value in expected.items():
        assert logged[key] == pytest.approx(value, nan_ok=True, rel=1e-9, abs=1e-12), key


def test_logged_metrics_equal_a_direct_compute_and_training_is_unchanged(tmp_path, monkeypatch):
    memorization = importlib.import_module("poetic_eval.diversity.memorization")
    calls = {"references": 0}
    original = memorization._units_by_text

    def counting(poems, level):
        calls["references"] += type(poems).__name__ == "PoemCorpus"
        return original(poems, level)

    monkeypatch.setattr(memorization, "_units_by_text", counting)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer, callback = train_with_callback(tmp_path / "with", max_steps=2 * EVERY_N_STEPS)
    history = trainer.state.log_history
    assert [e["step"] for e in history if "poetic/mtld" in e] == [EVERY_N_STEPS, 2 * EVERY_N_STEPS]
    assert any("loss" in e for e in history)  # the Trainer's own logs are still there
    logged = _logged(history, 2 * EVERY_N_STEPS)  # the last evaluation: the final model
    model, tokenizer = trainer.model, trainer.processing_class
    _assert_same(logged, _expected(model, tokenizer, callback.last_poems))
    assert {
        "poetic/memorization_verse",
        "poetic/length_wasserstein",
        "poetic/mtld",
        "poetic/across_max_sim",
        "poetic/pairs_accuracy",
    } <= logged.keys()
    assert len(callback.last_poems) == 10 and len(set(callback.last_poems)) > 1
    model.eval()
    again = generate_poems(
        model,
        tokenizer,
        PROMPTS,
        10,
        generation_kwargs={"max_new_tokens": 12},
        seed=3,
        batch_size=4,
    )
    assert again == callback.last_poems  # seeded: the same model samples the same poems
    assert calls["references"] == 3  # training units of the 3 levels, at the first evaluation only
    plain, _ = train_with_callback(
        tmp_path / "without", max_steps=2 * EVERY_N_STEPS, with_callback=False
    )
    for name, weights in plain.model.state_dict().items():
        assert torch.equal(weights, trainer.model.state_dict()[name]), name
    losses = [e["loss"] for e in history if "loss" in e]
    assert losses == [e["loss"] for e in plain.state.log_history if "loss" in e]


def _selection_run(out_dir: Path, *, max_steps: int, callbacks=None, **options):
    """The tiny run evaluated and saved every 2 steps, the best checkpoint by eval_poetic/mtld."""
    trainer = trainer_for(
        _tiny_llama(),
        word_tokenizer(),
        out_dir,
        max_steps=max_steps,
        callbacks=callbacks,
        eval_strategy="steps",
        eval_steps=2,
        save_strategy="steps",
        save_steps=2,
        load_best_model_at_end=True,
        metric_for_best_model="eval_poetic/mtld",
        greater_is_better=True,
    )
    callback = PoeticDiversityCallback(
        trainer, PROMPTS, references(), **{**callback_options(), **options}
    )
    trainer.add_callback(callback)
    return trainer, callback


def _same_weights(model, checkpoint: Path) -> bool:
    from safetensors.torch import load_file

    saved = load_file(checkpoint / "model.safetensors")
    return all(torch.equal(saved[name], value) for name, value in model.state_dict().items())


def test_the_best_checkpoint_is_the_one_eval_poetic_mtld_chose(tmp_path, monkeypatch):
    generate_calls = []
    original = LlamaForCausalLM.generate

    def counting(self, *args, **kwargs):
        generate_calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LlamaForCausalLM, "generate", counting)
    trainer, _ = _selection_run(tmp_path, max_steps=10, every_n_steps=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer.train()
    history = trainer.state.log_history
    evaluated = {e["step"]: e for e in history if "eval_poetic/mtld" in e}
    logged = {e["step"]: e for e in history if "poetic/mtld" in e}
    assert sorted(evaluated) == sorted(logged) == [2, 4, 6, 8, 10]
    for step, entry in evaluated.items():  # the same numbers as the step's own log ...
        for key, value in entry.items():
            if key.startswith("eval_poetic/"):
                expected = logged[step][key.removeprefix("eval_")]
                assert value == pytest.approx(expected, nan_ok=True), (step, key)
    assert len(generate_calls) == 5 * 3  # ... sampled once per step (3 chunks of 4 poems)
    mtld = {step: entry["eval_poetic/mtld"] for step, entry in evaluated.items()}
    best = max(mtld, key=mtld.get)
    assert trainer.state.best_metric == mtld[best]
    assert trainer.state.best_model_checkpoint == str(tmp_path / f"checkpoint-{best}")
    assert _same_weights(trainer.model, tmp_path / f"checkpoint-{best}")  # loaded at the end
    losses = {e["step"]: e["eval_loss"] for e in history if "eval_loss" in e}
    assert best != min(losses, key=losses.get)  # not what the loss would have chosen


def test_early_stopping_given_to_the_trainer_first_reads_eval_poetic(tmp_path):
    from transformers import EarlyStoppingCallback

    early = EarlyStoppingCallback(early_stopping_patience=1)
    trainer, callback = _selection_run(
        tmp_path, max_steps=20, callbacks=[early], every_n_steps=None
    )
    scripted = iter([1.0, 5.0, 3.0, 2.0, 9.0])  # best at step 4, no better at step 6: stop
    callback._diversity_scores = lambda poems: {"mtld": next(scripted)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer.train()
    assert trainer.state.global_step == 6
    assert [
        e["eval_poetic/mtld"] for e in trainer.state.log_history if "eval_poetic/mtld" in e
    ] == [
        1.0,
        5.0,
        3.0,
    ]
    assert trainer.state.best_model_checkpoint == str(tmp_path / "checkpoint-4")
    assert _same_weights(trainer.model, tmp_path / "checkpoint-4")
    names = [type(c).__name__ for c in trainer.callback_handler.callbacks]
    assert names.index("PoeticDiversityCallback") < names.index("EarlyStoppingCallback")


def test_metric_for_best_model_missing_from_an_evaluation_counts_as_nan(tmp_path):
    trainer, callback = _selection_run(tmp_path, max_steps=4, every_n_steps=None)
    scripted = iter([{"mtld": 2.0}, {}])  # the second evaluation has no mtld (blank poems)
    callback._diversity_scores = lambda poems: next(scripted)
    with pytest.warns(UserWarning, match="eval_poetic/mtld could not be computed at step 4"):
        trainer.train()
    assert trainer.state.best_model_checkpoint == str(tmp_path / "checkpoint-2")


def test_a_misspelt_generation_option_fails_at_construction(tmp_path):
    trainer = trainer_for(_tiny_llama(), word_tokenizer(), tmp_path, max_steps=1)

    def build(**generation_kwargs):
        return PoeticDiversityCallback(
            trainer, PROMPTS, references(), generation_kwargs=generation_kwargs
        )

    with pytest.raises(
        ValueError, match="'max_new_token' is neither.*did you mean 'max_new_tokens'"
    ):
        build(max_new_token=12)
    with pytest.raises(ValueError, match="'temprature'.*did you mean 'temperature'"):
        build(temprature=0.7)
    with pytest.raises(ValueError, match="max_new_tokens` must be greater than 0"):
        build(max_new_tokens=0)
    with pytest.raises(ValueError, match="'attention_mask': the poem sampler sets"):
        build(attention_mask=None)
    # what generate takes: config fields, its own arguments, model inputs
    build(max_new_tokens=3, top_k=5, repetition_penalty=1.1, streamer=None, use_cache=True)
    with pytest.raises(ValueError, match="model_kwargs` are not used by the model"):
        generate_poems(  # what the check stands for: generate's own error, at sampling time
            trainer.model,
            trainer.processing_class,
            PROMPTS,
            1,
            generation_kwargs={"max_new_token": 2},
        )


def _tiny_llama():
    from callback_training import tiny_llama

    return tiny_llama()


def test_bad_settings_fail_at_construction(tmp_path):
    trainer = trainer_for(
        AutoModelForCausalLM.from_config(_config()), word_tokenizer(), tmp_path, max_steps=1
    )
    with pytest.raises(ValueError, match="unknown dimension"):
        PoeticDiversityCallback(trainer, PROMPTS, references(), dimensions=["rhythm"])
    with pytest.raises(TypeError, match="lexical has no option 'windw'"):
        PoeticDiversityCallback(
            trainer, PROMPTS, references(), diversity_options={"lexical_windw": 5}
        )
    with pytest.raises(ValueError, match="references are required for the memorization"):
        PoeticDiversityCallback(trainer, PROMPTS, None, dimensions=["memorization"])
    with pytest.raises(ValueError, match=r"prompts\[1\] is empty"):
        PoeticDiversityCallback(trainer, ["the", " "], references())
    with pytest.raises(ValueError, match="2 good texts but 1 bad"):
        PoeticDiversityCallback(trainer, PROMPTS, references(), pairs=(["a b", "c"], ["a c"]))
    without = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        None,
        num_poems=4,
        generation_kwargs={"max_new_tokens": 5},
        diversity_options={"semantic_model": CountingEncoder()},
    )
    assert without.dimensions == ("lexical", "semantic")
    with pytest.raises(ValueError, match="num_return_sequences must be 1"):
        generate_poems(
            trainer.model,
            trainer.processing_class,
            PROMPTS,
            2,
            generation_kwargs={"num_return_sequences": 2},
        )
    assert {"poetic/mtld", "poetic/within_max_sim"} <= without.compute_metrics().keys()
    # one-line poems have no quatrain: a named rhyme dimension is left out, with a warning
    rhyme = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        references(),
        num_poems=4,
        dimensions=["rhyme", "lexical"],
        generation_kwargs={"max_new_tokens": 5},
    )
    with pytest.warns(UserWarning, match="rhyme left out this time"):
        metrics = rhyme.compute_metrics()
    assert "poetic/mtld" in metrics and not any("rhyme" in key for key in metrics)


def test_a_named_unscorable_rhyme_does_not_run_the_other_dimensions_twice(tmp_path, monkeypatch):
    """Early in training no poem has 4 lines: rhyme is left out, and memorization (the costly
    dimension) and length run once per evaluation, not again in a retry without rhyme."""
    dimensions = importlib.import_module("poetic_eval.diversity.dimensions")
    calls = []
    original = dimensions.memorization

    def counting(predictions, references, **options):
        calls.append(len(predictions))
        return original(predictions, references, **options)

    monkeypatch.setattr(dimensions, "memorization", counting)
    trainer = trainer_for(
        AutoModelForCausalLM.from_config(_config()), word_tokenizer(), tmp_path, max_steps=1
    )
    callback = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        references(),
        num_poems=4,
        dimensions=["memorization", "length", "rhyme"],
        generation_kwargs={"max_new_tokens": 5},
    )
    assert calls == [2]  # the check of the options at construction, on two tiny poems
    calls.clear()
    for evaluation in (1, 2):
        with pytest.warns(UserWarning, match="rhyme left out this time: predictions has no"):
            metrics = callback.compute_metrics()
        assert len(calls) == evaluation  # once per evaluation
    kept = [poem for poem in callback.last_poems if poem.strip()]
    expected = poetic_diversity(kept, references(), dimensions=["memorization", "length"])
    assert metrics.keys() == {f"poetic/{key}" for key in [*expected, "blank_poems"]}
    assert len(calls) == 3  # the direct compute above


def _config():
    from callback_training import tiny_llama

    return tiny_llama().config


def test_two_torchrun_processes_log_the_one_process_numbers(tmp_path):
    """gloo on CPU: 2 processes each sample their chunks and score their shard of the pairs;
    the main process logs what one process computes for the same model."""
    environment = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join([str(TESTS), str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    if loopback_interface():
        environment.setdefault("GLOO_SOCKET_IFNAME", loopback_interface())
    launch = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc_per_node",
        "2",
        str(HERE / "callback_training.py"),
        str(tmp_path),
    ]
    completed = subprocess.run(
        launch, env=environment, capture_output=True, text=True, timeout=600, check=False
    )
    assert completed.returncode == 0, completed.stderr[-4000:]
    record = json.loads((tmp_path / "logged.json").read_text())
    assert record["world_size"] == 2
    model = AutoModelForCausalLM.from_pretrained(tmp_path / "model")
    tokenizer = word_tokenizer()
    trainer = trainer_for(model, tokenizer, tmp_path / "one", max_steps=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        callback = PoeticDiversityCallback(trainer, PROMPTS, references(), **callback_options())
        one_process = callback.compute_metrics()
    assert callback.last_poems == record["poems"]
    _assert_same(_logged(record["log_history"], EVERY_N_STEPS), one_process)
    [evaluated] = [e for e in record["log_history"] if "eval_poetic/mtld" in e]
    _assert_same(
        {k.removeprefix("eval_"): v for k, v in evaluated.items() if k.startswith("eval_poetic")},
        one_process,
    )
    assert record["best_metric"] == one_process["poetic/mtld"]  # selected on every process
    _assert_same(one_process, _expected(model, tokenizer, record["poems"]))


def test_pairs_from_lists_a_dataset_or_a_dataset_folder(tmp_path):
    import datasets

    from poetic_eval.integrations.callback_options import load_pairs

    good, bad = pairs()
    table = datasets.Dataset.from_dict({"sentence_good": good, "sentence_bad": bad})
    assert load_pairs(table, None, "test", None) == (good, bad)
    assert load_pairs((good, bad), None, "test", 5) == (good[:5], bad[:5])
    folder = tmp_path / "pairs"
    (folder / "data" / "one").mkdir(parents=True)
    datasets.Dataset.from_dict({"good": good, "bad": bad}).to_parquet(
        folder / "data" / "one" / "test-00000-of-00001.parquet"
    )
    card = "configs:\n- config_name: one\n  data_files:\n  - split: test\n    path: data/one/*"
    (folder / "README.md").write_text(f"---\n{card}\n---\n")
    assert load_pairs(str(folder), "one", "test", None) == (good, bad)
    with pytest.raises(ValueError, match="no minimal-pair columns"):
        load_pairs(datasets.Dataset.from_dict({"text": good}), None, "test", None)
    with pytest.raises(TypeError, match="pairs must be"):
        load_pairs(["a", "b", "c"], None, "test", None)


def test_the_semantic_encoder_runs_on_the_trainers_device(tmp_path, monkeypatch):
    """A model named by path is encoded on the trainer's device; a device the options name,
    or an encoder instance, is left as given."""
    module = importlib.import_module("poetic_eval.integrations.trainer_callback")
    seen = []

    def recording(poems, references, **options):
        seen.append(options.get("semantic_device", "unset"))
        raise StopIteration  # enough: the options are what is checked

    monkeypatch.setattr(module, "diversity_profile", recording)
    trainer = trainer_for(tiny_llama(), word_tokenizer(), tmp_path, max_steps=1)
    named = {"semantic_model": "path/to/a/model"}
    for options in (
        named,
        {**named, "semantic_device": "meta"},
        {"semantic_model": CountingEncoder()},
    ):
        callback = PoeticDiversityCallback(
            trainer, PROMPTS, references(), dimensions=["semantic"], diversity_options=options
        )
        with pytest.raises(StopIteration):
            callback._diversity_scores(["a poem\nof two lines", "another poem\nof two"])
    assert seen == [str(trainer.args.device), "meta", "unset"]


def test_bad_generation_and_diversity_values_and_long_pairs_fail_at_construction(tmp_path):
    """Issue 39: these were accepted and crashed training at the first logging step."""
    trainer = trainer_for(_tiny_llama(), word_tokenizer(), tmp_path, max_steps=1)

    def build(**options):
        options = {"generation_kwargs": {"max_new_tokens": 4}, **options}
        return PoeticDiversityCallback(trainer, PROMPTS, references(), num_poems=4, **options)

    cases = [
        ({"generation_kwargs": {"temperature": -1}}, r"`temperature` \(=-1\) has to be"),
        ({"generation_kwargs": {"num_beams": 0}}, "num_beams must be an integer >= 1, got 0"),
        ({"generation_kwargs": {"top_p": 1.5}}, "`top_p` has to be a float > 0"),
        ({"generation_kwargs": {"repetition_penalty": -2.0}}, "repetition_penalty"),
        (
            {"diversity_options": {"length_bins": 0}, "dimensions": ["length"]},
            r"diversity_options \(length\): bins must be >= 1, got 0",
        ),
        (
            {"diversity_options": {"memorization_thresholds": {"verse": 2.0}}},
            r"diversity_options \(memorization\): thresholds\['verse'\] must be in \(0, 1\]",
        ),
        ({"diversity_options": {"semantic_batch_size": 0}}, "semantic_batch_size must be >= 1"),
        (
            {"pairs": ([" ".join(["the poet"] * 40)], ["the poet"])},
            (
                r"pairs good\[0\] has 80 tokens \(\+1 start token\); LlamaForCausalLM accepts "
                "at most 64 positions"
            ),
        ),
    ]
    for options, message in cases:
        with pytest.raises(ValueError, match=message):
            build(**options)
    # greedy decoding does not use the sampling processors: their values are not checked
    build(generation_kwargs={"max_new_tokens": 4, "do_sample": False, "temperature": None})


def test_the_options_in_two_groups_equal_the_keywords_of_before(tmp_path):
    from poetic_eval.integrations.callback_options import PairScoring, PoemSampling

    trainer = trainer_for(_tiny_llama(), word_tokenizer(), tmp_path, max_steps=1)
    good, bad = pairs()
    keywords = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        references(),
        num_poems=4,
        generation_kwargs={"max_new_tokens": 5},
        generation_batch_size=2,
        seed=7,
        pairs=(good, bad),
        pairs_limit=5,
        pairs_batch_size=3,
        prefix="p/",
        dimensions=["lexical"],
    )
    grouped = PoeticDiversityCallback(
        trainer,
        PROMPTS,
        references(),
        sampling=PoemSampling(4, {"max_new_tokens": 5}, seed=7, batch_size=2),
        scoring=PairScoring((good, bad), limit=5, batch_size=3),
        prefix="p/",
        dimensions=["lexical"],
    )
    assert keywords.sampling == grouped.sampling and keywords.scoring == grouped.scoring
    assert grouped.scoring.pairs == (good[:5], bad[:5])
    assert (grouped.num_poems, grouped.generation_batch_size, grouped.pairs_batch_size) == (4, 2, 3)
    assert keywords.compute_metrics() == grouped.compute_metrics()
    assert set(grouped.compute_metrics()) >= {"p/mtld", "p/pairs_accuracy"}
    with pytest.raises(TypeError, match="'num_poem'; did you mean 'num_poems'"):
        PoeticDiversityCallback(trainer, PROMPTS, references(), num_poem=4)
    with pytest.raises(ValueError, match="sampling= was given, and num_poems too"):
        PoeticDiversityCallback(
            trainer, PROMPTS, references(), sampling=PoemSampling(), num_poems=3
        )
    with pytest.raises(ValueError, match="generation_batch_size must be >= 1"):
        PoemSampling(batch_size=0)
    with pytest.raises(TypeError, match="num_poems must be an integer"):
        PoemSampling(num_poems="4")


def test_generate_poems_process_options_are_checked_keywords():
    """process_index/num_processes/gather (a ProcessShare) stay keywords, checked by name and
    type before any sampling."""
    with pytest.raises(TypeError, match="'num_process'; did you mean 'num_processes'"):
        generate_poems(None, None, PROMPTS, 2, num_process=2)
    with pytest.raises(TypeError, match="process_index must be an integer, got str"):
        generate_poems(None, None, PROMPTS, 2, process_index="0")
