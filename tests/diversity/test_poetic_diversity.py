"""poetic_diversity: equals its parts, option routing, the human protocol, training-loop and
distributed use of the evaluate module, bad input."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from encoder_doubles import CountingEncoder

import poetic_eval
from bench.synthetic_poems import SyntheticPoems
from poetic_eval.diversity import (
    length_comparison,
    lexical_diversity,
    max_similarity,
    memorization,
    rhyme_divergence,
)
from poetic_eval.diversity.length import length_statistics
from poetic_eval.diversity.profile import (
    DIMENSION_NAMES,
    diversity_profile,
    human_sample_indices,
    poetic_diversity,
)

TESTS_DIR = Path(__file__).resolve().parent.parent  # the shared test doubles live in tests/


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POETIC_EVAL_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def corpora():
    rng = random.Random(11)
    human = SyntheticPoems(rng).rhyming_quatrains(160)
    copies = [poem.replace("the", "a", 1) for poem in rng.sample(human, 4)]
    generated = SyntheticPoems(rng).rhyming_quatrains(26) + copies
    rng.shuffle(generated)
    return generated, human


def assert_same_scores(actual: dict, expected: dict) -> None:
    assert set(actual) == set(expected)
    for key, value in expected.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(actual[key]), key
        else:
            assert actual[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key


def test_equals_calling_the_parts_directly(corpora):
    generated, human = corpora
    encoder = CountingEncoder()
    result = poetic_diversity(generated, human, semantic_model=encoder)

    expected = dict(memorization(generated, human))
    length = length_comparison(generated, human)
    expected["length_histogram_intersection"] = length.pop("histogram_intersection")
    expected["length_wasserstein"] = length.pop("wasserstein")
    expected.update(length)
    rhyme = rhyme_divergence(generated, human)
    for side in ("scheme_distribution", "reference_scheme_distribution"):
        for label, share in rhyme.pop(side).items():
            expected[f"{side}_{label}"] = share
    expected.update(rhyme)
    expected.update(lexical_diversity(generated))
    expected.update({f"reference_{k}": v for k, v in lexical_diversity(human).items()})
    expected.update(max_similarity(generated, human, model=encoder))
    assert_same_scores(result, expected)
    assert result["memorization_quatrain"] >= 4 / 30
    assert all(isinstance(v, (int, float)) for v in result.values())


def test_dimensions_choose_what_runs(corpora):
    generated, human = corpora
    result = poetic_diversity(generated, human, dimensions=["lexical", "length"])
    assert {"attr", "reference_mtld", "length_wasserstein"} <= set(result)
    assert not any(k.startswith(("memorization", "rhyme", "within", "across")) for k in result)
    assert poetic_diversity(generated, human, dimensions="rhyme") == pytest.approx(
        poetic_diversity(generated, human, dimensions=["rhyme"])
    )


def test_part_options_pass_through_by_prefix(corpora):
    generated, human = corpora
    result = poetic_diversity(
        generated,
        human,
        dimensions=["memorization", "length", "rhyme", "lexical"],
        memorization_levels=["verse"],
        memorization_thresholds={"verse": 0.95},
        length_bins=7,
        length_remove_punctuation=False,
        rhyme_base=math.e,
        rhyme_smoothing=0.01,
        rhyme_weak=True,
        rhyme_near=True,
        lexical_window=12,
    )
    verse = memorization(generated, human, levels=["verse"], thresholds={"verse": 0.95})
    assert result["memorization_verse"] == verse["memorization_verse"]
    assert "memorization_quatrain" not in result
    length = length_comparison(generated, human, bins=7, remove_punctuation=False)
    assert result["length_histogram_intersection"] == length["histogram_intersection"]
    rhyme = rhyme_divergence(generated, human, base=math.e, smoothing=0.01, weak=True, near=True)
    assert result["rhyme_kl"] == pytest.approx(rhyme["rhyme_kl"])
    assert result["mattr"] == pytest.approx(lexical_diversity(generated, window=12)["mattr"])


def test_unknown_dimension_and_unknown_options_are_rejected(corpora):
    generated, human = corpora
    choices = ", ".join(DIMENSION_NAMES)
    with pytest.raises(ValueError, match=f"unknown dimension 'meter'; .*choices: {choices}"):
        poetic_diversity(generated, human, dimensions=["length", "meter"])
    with pytest.raises(ValueError, match="dimensions is empty"):
        poetic_diversity(generated, human, dimensions=[])
    with pytest.raises(TypeError, match="length has no option 'binz'.*length_bins"):
        poetic_diversity(generated, human, dimensions=["length"], length_binz=3)
    with pytest.raises(TypeError, match="'<dimension>_<option>'"):
        poetic_diversity(generated, human, dimensions=["length"], bins=3)
    with pytest.raises(ValueError, match="semantic_model was given but the 'semantic'"):
        poetic_diversity(generated, human, dimensions=["length"], semantic_model="x")
    with pytest.raises(TypeError, match="semantic has no option 'show_progress'"):
        poetic_diversity(generated, human, dimensions=["semantic"], semantic_show_progress=True)


def test_bad_input(corpora):
    generated, human = corpora
    with pytest.raises(ValueError, match="references .* required for memorization, length, rhyme"):
        poetic_diversity(generated)
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a string"):
        poetic_diversity([generated[0], None], human, dimensions=["length"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        poetic_diversity(generated, [" "] + human, dimensions=["length"])
    with pytest.raises(ValueError, match="only 3 references"):
        poetic_diversity(generated, human[:3], dimensions=["length"], human_samples=2)
    with pytest.raises(ValueError, match="human_samples must be >= 1"):
        poetic_diversity(generated, human, dimensions=["length"], human_samples=0)
    with pytest.raises(ValueError, match=r"predictions\[30\] has 3 non-empty lines"):
        poetic_diversity(
            generated + ["one\ntwo\nthree"], human, dimensions=["rhyme"],
            rhyme_non_quatrains="error",
        )  # fmt: skip


def test_without_references_lexical_and_semantic_run(corpora):
    generated, _ = corpora
    result = poetic_diversity(
        generated, dimensions=["lexical", "semantic"], semantic_model=CountingEncoder()
    )
    assert {"attr", "mattr", "mtld", "within_max_sim"} <= set(result)
    assert not any(k.startswith(("reference_", "across")) for k in result)


def test_poems_that_are_not_quatrains(corpora):
    generated, human = corpora
    rng = random.Random(12)
    poems = SyntheticPoems(rng)
    odd = poems.poems(3, lines=5) + poems.poems(2, lines=3) + poems.poems(2, 1)
    mixed = generated + odd
    result = poetic_diversity(mixed, human, semantic_model=CountingEncoder())
    assert result["non_quatrain_predictions"] == len(odd)
    assert result["quatrain_predictions"] == len(generated)
    assert result["rhyme_kl"] == rhyme_divergence(generated, human)["rhyme_kl"]
    # quatrain-level memorization counts every poem as one unit, whatever its line count
    assert result["memorization_quatrain"] == pytest.approx(
        memorization(mixed, human, levels=["quatrain"])["memorization_quatrain"]
    )
    assert result["length_mean"] == length_comparison(mixed, human)["length_mean"]


# --- the human protocol -----------------------------------------------------------------------


def test_human_sample_indices_are_seeded_distinct_and_sized():
    first = human_sample_indices(100, 30, 5, seed=3)
    assert len(first) == 5
    assert all(len(set(s.tolist())) == 30 and s.max() < 100 for s in first)
    again = human_sample_indices(100, 30, 5, seed=3)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    other = human_sample_indices(100, 30, 5, seed=4)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_human_protocol_averages_reference_side_statistics_over_samples(corpora):
    generated, human = corpora
    encoder = CountingEncoder()
    plain = poetic_diversity(generated, human, semantic_model=encoder)
    sampled = poetic_diversity(generated, human, semantic_model=encoder, human_samples=4, seed=9)
    samples = [[human[i] for i in rows] for rows in human_sample_indices(len(human), 30, 4, 9)]

    def mean_of(values):
        return pytest.approx(float(np.mean(values)), rel=1e-9)

    assert sampled["reference_length_mean"] == mean_of(
        [length_statistics(s)["mean"] for s in samples]
    )
    assert sampled["reference_length_max"] == mean_of(
        [length_statistics(s)["max"] for s in samples]
    )
    assert sampled["reference_rhyme_entropy"] == mean_of(
        [rhyme_divergence(s, human)["rhyme_entropy"] for s in samples]
    )
    assert sampled["reference_repetitions"] == mean_of(
        [rhyme_divergence(s, human)["repetitions"] for s in samples]
    )
    assert sampled["reference_mtld"] == mean_of([lexical_diversity(s)["mtld"] for s in samples])
    within = [max_similarity(s, model=encoder)["within_max_sim"] for s in samples]
    assert sampled["reference_within_max_sim"] == mean_of(within)
    for comparison in (
        "rhyme_kl",
        "length_wasserstein",
        "across_max_sim",
        "mtld",
        "memorization_verse",
        "within_max_sim",
    ):
        assert sampled[comparison] == plain[comparison], comparison
    assert sampled["reference_within_max_sim"] != plain["reference_within_max_sim"]


# --- the evaluate module ----------------------------------------------------------------------


def test_add_batch_in_a_loop_then_compute_equals_one_compute(corpora):
    generated, human = corpora
    metric = poetic_eval.load_metric("poetic_diversity")
    for start in range(0, len(generated), 8):
        metric.add_batch(predictions=generated[start : start + 8])
    looped = metric.compute(references=human, semantic_model=CountingEncoder(), human_samples=2)
    once = poetic_eval.load_metric("poetic_diversity").compute(
        predictions=generated, references=human, semantic_model=CountingEncoder(), human_samples=2
    )
    assert_same_scores(looped, once)
    assert_same_scores(
        once, poetic_diversity(generated, human, semantic_model=CountingEncoder(), human_samples=2)
    )


_DISTRIBUTED_WORKER = """
import json, sys
sys.path.insert(0, {tests_dir!r})
from encoder_doubles import CountingEncoder
import poetic_eval
process_id = int(sys.argv[1])
job = json.load(open(sys.argv[2]))
metric = poetic_eval.load_metric(
    "poetic_diversity", num_process=2, process_id=process_id,
    experiment_id=job["experiment_id"], cache_dir=job["cache_dir"],
)
for batch in job["shards"][process_id]:
    metric.add_batch(predictions=batch)
result = metric.compute(references=job["human"], semantic_model=CountingEncoder())
print("RESULT " + json.dumps(result))
"""


def _distributed_compute_in_threads(shards, human, cache_dir):
    """evaluate's distributed mode with one thread per process_id (it rendezvouses through
    lock files, which also separate threads)."""
    experiment_id = uuid.uuid4().hex

    def work(process_id):
        metric = poetic_eval.load_metric(
            "poetic_diversity", num_process=2, process_id=process_id,
            experiment_id=experiment_id, cache_dir=str(cache_dir),
        )  # fmt: skip
        for batch in shards[process_id]:
            metric.add_batch(predictions=batch)
        return metric.compute(references=human, semantic_model=CountingEncoder())

    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(work, process_id) for process_id in (0, 1)]
        return [future.result(timeout=300) for future in futures]


def _two_shards(generated):
    half = len(generated) // 2
    return [
        [generated[i : i + 5] for i in range(0, half, 5)],
        [generated[i : i + 5] for i in range(half, len(generated), 5)],
    ]


def test_distributed_two_threads_equal_one(corpora, tmp_path):
    generated, human = corpora
    results = _distributed_compute_in_threads(_two_shards(generated), human, tmp_path)
    assert results[1] is None
    single = poetic_eval.load_metric("poetic_diversity").compute(
        predictions=generated, references=human, semantic_model=CountingEncoder()
    )
    assert_same_scores(results[0], single)


@pytest.mark.slow
def test_distributed_two_processes_equal_one(corpora, tmp_path):
    generated, human = corpora
    shards = _two_shards(generated)
    job = tmp_path / "job.json"
    job.write_text(json.dumps({
        "experiment_id": uuid.uuid4().hex, "cache_dir": str(tmp_path / "evaluate"),
        "shards": shards, "human": human,
    }))  # fmt: skip
    worker = tmp_path / "worker.py"
    worker.write_text(_DISTRIBUTED_WORKER.format(tests_dir=str(TESTS_DIR)))
    processes = [
        subprocess.Popen(
            [sys.executable, str(worker), str(process_id), str(job)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for process_id in (0, 1)
    ]
    outputs = [process.communicate(timeout=300) for process in processes]
    for process, (_, stderr) in zip(processes, outputs):
        assert process.returncode == 0, stderr[-3000:]
    results = [
        json.loads(line[len("RESULT ") :])
        for stdout, _ in outputs
        for line in stdout.splitlines()
        if line.startswith("RESULT ")
    ]
    assert results[1] is None
    single = poetic_eval.load_metric("poetic_diversity").compute(
        predictions=generated, references=human, semantic_model=CountingEncoder()
    )
    assert_same_scores(results[0], single)


def test_profile_details_feed_the_figures(corpora):
    generated, human = corpora
    profile = diversity_profile(generated, human, semantic_model=CountingEncoder())
    assert len(profile.details["lengths"]) == len(generated)
    assert len(profile.details["reference_lengths"]) == len(human)
    assert len(profile.details["across_max_sim_values"]) == len(generated)
    assert len(profile.details["reference_within_max_sim_values"]) == len(human)
    assert sum(profile.details["scheme_distribution"].values()) == pytest.approx(1.0)
    assert profile.dimensions == DIMENSION_NAMES


def test_default_dimensions_leave_rhyme_out_for_corpora_without_quatrains():
    """Limericks have no quatrain scheme: by default the other dimensions still run."""
    from poetic_eval.diversity import diversity_profile
    from poetic_eval.resources import seed_poems

    limericks = seed_poems("limericks.txt")
    generated, human = limericks[:10], limericks[10:]
    with pytest.warns(UserWarning, match="rhyme dimension skipped: predictions has no quatrain"):
        profile = diversity_profile(generated, human, semantic_model=CountingEncoder())
    assert profile.dimensions == ("memorization", "length", "lexical", "semantic")
    assert "predictions has no quatrain" in profile.skipped["rhyme"]
    assert "mtld" in profile.scores and not any(k.startswith("rhyme") for k in profile.scores)
    with pytest.raises(ValueError, match="predictions has no quatrain"):
        poetic_diversity(generated, human, dimensions=["length", "rhyme"])
    # skip_unscorable: a named rhyme is skipped as an unnamed one is, the rest runs as named
    with pytest.warns(UserWarning, match="rhyme dimension skipped: predictions has no quatrain"):
        named = diversity_profile(
            generated, human, dimensions=["length", "rhyme"], skip_unscorable=True
        )
    assert named.dimensions == ("length",) and set(named.skipped) == {"rhyme"}
    assert named.scores == poetic_diversity(generated, human, dimensions="length")
