"""ATTR / MATTR / MTLD against the lexicalrichness and lexical-diversity packages."""

from __future__ import annotations

import importlib.resources
import random
import sys
import types

import pytest
from lexicalrichness import LexicalRichness

import poetic_eval
from poetic_eval.diversity import attr, lexical_diversity, mattr, mtld
from poetic_eval.diversity.lexical import poem_tokens
from poetic_eval.text import tokens


def _import_lex_div():
    """lexical-diversity 0.1.1 imports pkg_resources, gone from recent setuptools: give it the
    one function it uses (the path of its bundled lemma file)."""
    try:
        import pkg_resources  # noqa: F401
    except ModuleNotFoundError:
        shim = types.ModuleType("pkg_resources")
        shim.resource_filename = lambda package, name: str(
            importlib.resources.files(package) / name
        )
        sys.modules["pkg_resources"] = shim
    from lexical_diversity import lex_div

    return lex_div


lex_div = _import_lex_div()


def random_streams(seed: int, count: int):
    """Token streams of varied length and vocabulary size (so TTRs cross 0.72 often or never)."""
    rng = random.Random(seed)
    streams = []
    while len(streams) < count:
        vocabulary = [f"w{i}" for i in range(rng.randint(2, 300))]
        active = vocabulary[: rng.randint(1, len(vocabulary))]
        stream = [rng.choice(active) for _ in range(rng.randint(1, 700))]
        if len(set(stream)) < len(stream):  # all-distinct streams: see test_all_distinct
            streams.append(stream)
    return streams


@pytest.mark.floors
@pytest.mark.parametrize("seed", [0, 1])
def test_mtld_equals_lexicalrichness(seed):
    for stream in random_streams(seed, 150):
        expected = LexicalRichness(stream, preprocessor=None, tokenizer=None).mtld(threshold=0.72)
        ours = mtld(
            stream, threshold=0.72, min_segment=0, strict=False, final_token_closes_factor=True
        )
        assert ours == pytest.approx(expected, rel=1e-12)


def test_mtld_other_thresholds_equal_lexicalrichness():
    for index, stream in enumerate(random_streams(2, 60)):
        threshold = (0.5, 0.66, 0.75, 0.9)[index % 4]
        expected = LexicalRichness(stream, preprocessor=None, tokenizer=None).mtld(threshold)
        ours = mtld(
            stream, threshold=threshold, min_segment=0, strict=False, final_token_closes_factor=True
        )
        assert ours == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_mtld_equals_lexical_diversity(seed):
    for stream in random_streams(seed, 150):
        expected = lex_div.mtld(stream)  # strict <, minimum segment 10, threshold 0.72
        assert mtld(stream) == pytest.approx(expected, rel=1e-12)


def test_final_token_option_changes_mtld_only_when_last_token_closes_a_factor():
    # TTR 1, 1, 1, 1, 0.8, 0.67 in both directions: only the last token drops it below 0.72
    stream = ["a", "b", "c", "d", "a", "b"]
    partial = mtld(stream, min_segment=0)
    closing = mtld(stream, min_segment=0, final_token_closes_factor=True)
    assert partial == pytest.approx(lex_div.mtld(stream, min=0), rel=1e-12)
    assert partial == pytest.approx(6 / ((1 - 4 / 6) / (1 - 0.72)), rel=1e-12)
    richness = LexicalRichness(stream, preprocessor=None, tokenizer=None)
    assert closing == richness.mtld(0.72) == 6.0
    # one more token and the last factor is partial either way
    longer = [*stream, "e", "f"]
    assert mtld(longer, min_segment=0) == mtld(
        longer, min_segment=0, final_token_closes_factor=True
    )


def test_all_distinct_stream():
    stream = [f"w{i}" for i in range(50)]
    assert mtld(stream) == 50.0
    assert LexicalRichness(stream, preprocessor=None, tokenizer=None).mtld(0.72) == 50.0


@pytest.mark.floors
@pytest.mark.parametrize("seed", [5, 6])
def test_mattr_equals_both_packages(seed):
    rng = random.Random(seed)
    for stream in random_streams(seed, 120):
        window = rng.randint(1, 80)
        expected = lex_div.mattr(stream, window)
        assert mattr(stream, window) == pytest.approx(expected, rel=1e-12, abs=1e-15)
        if window <= len(stream):
            richness = LexicalRichness(stream, preprocessor=None, tokenizer=None)
            assert mattr(stream, window) == pytest.approx(richness.mattr(window), rel=1e-12)


def test_attr_is_mean_of_per_text_ttr():
    rng = random.Random(7)
    lists = [[rng.choice("abcdefgh") for _ in range(rng.randint(1, 30))] for _ in range(40)]
    expected = sum(lex_div.ttr(tokens) for tokens in lists) / len(lists)
    assert attr(lists) == pytest.approx(expected, rel=1e-12)


def generated_poems(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = ["Night", "night,", "SEA", "sea", "rose", "Rosé", "grows", "ünder", "light.", "O!", "—"]
    words += [f"w{i}" for i in range(60)]
    return [
        "\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(3, 9))) for _ in range(4))
        for _ in range(count)
    ]


def test_lexical_diversity_from_text_matches_references():
    poems = generated_poems(8, 120)
    result = lexical_diversity(poems)
    token_lists = poem_tokens(poems)
    stream = [t for tokens in token_lists for t in tokens]
    assert result["attr"] == pytest.approx(
        sum(lex_div.ttr(t) for t in token_lists) / len(token_lists), rel=1e-12
    )
    assert result["mattr"] == pytest.approx(lex_div.mattr(stream, 35), rel=1e-12)
    assert result["mtld"] == pytest.approx(lex_div.mtld(stream), rel=1e-12)
    assert "night" in stream and "ünder" in stream and "rosé" in stream and "—" not in stream


def test_poem_tokens_equal_per_poem_tokenisation():
    poems = [*generated_poems(12, 30), "ΟΔΟΣ ΣΟΦΟΣ, ΣΟΦΟΣ!", "İstanbul'da — «kar» yağıyor…"]
    for lowercase in (True, False):
        for remove in (True, False):
            expected = [tokens(p, lowercase=lowercase, remove_punctuation=remove) for p in poems]
            assert poem_tokens(poems, lowercase=lowercase, remove_punctuation=remove) == expected
    with_separator = ["a\x00b c", "d e"]  # a NUL in a poem: falls back to one poem at a time
    assert poem_tokens(with_separator) == [tokens(p, lowercase=True, remove_punctuation=True)
                                           for p in with_separator]  # fmt: skip


def test_tokenisation_options():
    poems = ["The the THE, cat!", "cat Cat"]
    folded = lexical_diversity(poems, window=2)
    assert folded["attr"] == pytest.approx((2 / 4 + 1 / 2) / 2)
    raw = lexical_diversity(poems, window=2, lowercase=False, remove_punctuation=False)
    assert raw["attr"] == pytest.approx((4 / 4 + 2 / 2) / 2)


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"poems": []}, ValueError, "poems is empty"),
        ({"poems": None}, ValueError, "poems is required"),
        ({"poems": ["ok", None]}, TypeError, "poems[1]"),
        ({"poems": ["ok", 3]}, TypeError, "poems[1]"),
        ({"poems": ["ok", "  \n "]}, ValueError, "poems[1]"),
        ({"poems": ["ok", "— !"]}, ValueError, "the poem at index 1 has no tokens"),
        ({"poems": ["a b"], "window": 0}, ValueError, "window"),
        ({"poems": ["a b"], "threshold": 0}, ValueError, "threshold"),
        ({"poems": ["a b"], "threshold": 1.5}, ValueError, "threshold"),
        ({"poems": ["a b"], "threshold": 1.0}, ValueError, "threshold"),
        ({"poems": ["a b"], "min_segment": -1}, ValueError, "min_segment"),
        ({"poems": "a single string"}, TypeError, "poems must be a list"),
    ],
)
def test_bad_input(kwargs, error, fragment):
    with pytest.raises(error) as raised:
        lexical_diversity(**kwargs)
    assert fragment in str(raised.value)


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("mtld")


def test_module_add_batch_equals_compute(metric):
    poems = generated_poems(9, 60)
    whole = metric.compute(predictions=poems, min_segment=0)
    for start in range(0, len(poems), 25):
        metric.add_batch(predictions=poems[start : start + 25])
    batched = metric.compute(min_segment=0)
    assert batched == whole
    assert whole == lexical_diversity(poems, min_segment=0)


def test_module_bad_input(metric):
    with pytest.raises(ValueError, match="threshold"):
        metric.compute(predictions=["a b c"], threshold=2.0)
    with pytest.raises(ValueError, match=r"predictions\[0\] is empty"):
        metric.compute(predictions=[" "])


@pytest.mark.needs_shared_data
def test_real_poems_match_lexical_diversity_package(shared_data):
    root = shared_data / "erato_eval_poems" / "dataset_evaluation" / "dataset"
    for collection in ("humanenglish", "openaienglish"):
        poems = [p.read_text(encoding="utf-8") for p in sorted(root.glob(f"{collection}/*/*.txt"))]
        result = lexical_diversity(poems)
        token_lists = poem_tokens(poems)
        stream = [t for tokens_of_poem in token_lists for t in tokens_of_poem]
        assert result["mattr"] == pytest.approx(lex_div.mattr(stream, 35), rel=1e-12)
        assert result["mtld"] == pytest.approx(lex_div.mtld(stream), rel=1e-12)
        richness = LexicalRichness(stream, preprocessor=None, tokenizer=None)
        relaxed = lexical_diversity(
            poems, min_segment=0, strict=False, final_token_closes_factor=True, window=100
        )
        assert relaxed["mtld"] == pytest.approx(richness.mtld(0.72), rel=1e-12)
        assert relaxed["mattr"] == pytest.approx(richness.mattr(100), rel=1e-12)


def _transcribed_mtld_direction(tokens, threshold, min_segment, strict, final_closes):
    """MTLD's one-direction factor count as the definition reads, with sets."""
    factors, segment = 0.0, []
    for position, token in enumerate(tokens):
        segment.append(token)
        ratio = len(set(segment)) / len(segment)
        below = ratio < threshold if strict else ratio <= threshold
        last = position == len(tokens) - 1
        if below and len(segment) >= min_segment and (final_closes or not last):
            factors += 1.0
            segment = []
    if segment:
        factors += (1.0 - len(set(segment)) / len(segment)) / (1.0 - threshold)
    return len(tokens) / factors if factors else float(len(tokens))


@pytest.mark.parametrize("min_segment", [0, 1, 5, 10, 30])
@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("final_closes", [True, False])
def test_mtld_equals_the_transcribed_definition(min_segment, strict, final_closes):
    import random

    rng = random.Random(min_segment * 4 + 2 * strict + final_closes)
    for _ in range(30):
        vocabulary = [f"w{i}" for i in range(rng.randint(2, 60))]
        stream = rng.choices(vocabulary, k=rng.randint(1, 400))
        expected = [
            _transcribed_mtld_direction(s, 0.72, min_segment, strict, final_closes)
            for s in (stream, stream[::-1])
        ]
        got = mtld(
            stream,
            min_segment=min_segment,
            strict=strict,
            final_token_closes_factor=final_closes,
        )
        assert got == pytest.approx(sum(expected) / 2, rel=1e-12)


def test_poem_type_ids_partition_tokens_as_poem_tokens():
    from poetic_eval.diversity.lexical import poem_type_ids

    ascii_poems = [*generated_poems(13, 40)[:20], " Tab\there, CR\rand\x0bVT\x0cFF  x\n", "\n a\n"]
    unit_separator = ["a\x1fb c", "d e a"]  # str.split() splits at \x1f, pyarrow does not
    for poems in (ascii_poems, unit_separator, generated_poems(14, 30), ["a\x00b c", "d e"]):
        for lowercase in (True, False):
            expected = poem_tokens(poems, lowercase=lowercase)
            ids, sizes = poem_type_ids(poems, lowercase=lowercase, remove_punctuation=True)
            assert sizes.tolist() == [len(t) for t in expected]
            stream = [t for tokens_of_poem in expected for t in tokens_of_poem]
            first_id = {}
            for token, type_id in zip(stream, ids.tolist(), strict=True):
                assert first_id.setdefault(token, type_id) == type_id
            assert len(set(first_id.values())) == len(first_id)
    with pytest.raises(ValueError, match="the poem at index 1 has no tokens"):
        poem_type_ids(["a b", "!!"], lowercase=True, remove_punctuation=True)


def test_sample_scores_equal_references_on_repetitive_and_short_poems():
    """lexical_diversity from raw text (the pyarrow path) on samples of short poems drawn from
    tiny vocabularies, and one stream with a segment longer than MTLD's first closing table."""
    rng = random.Random(15)
    for _ in range(25):
        vocabulary = [f"W{i}," for i in range(rng.randint(1, 12))]
        poems = [
            " ".join(rng.choices(vocabulary, k=rng.randint(1, 6)))
            for _ in range(rng.randint(1, 60))
        ]
        stream = [t for tokens_of_poem in poem_tokens(poems) for t in tokens_of_poem]
        relaxed = lexical_diversity(
            poems, window=5, min_segment=0, strict=False, final_token_closes_factor=True
        )
        richness = LexicalRichness(stream, preprocessor=None, tokenizer=None)
        assert relaxed["mtld"] == pytest.approx(richness.mtld(0.72), rel=1e-12)
        if len(stream) >= 5:
            assert relaxed["mattr"] == pytest.approx(richness.mattr(5), rel=1e-12)
        paper = lexical_diversity(poems)
        assert paper["mtld"] == pytest.approx(lex_div.mtld(stream), rel=1e-12)
        assert paper["mattr"] == pytest.approx(lex_div.mattr(stream, 35), rel=1e-12)
    long_segment = [f"u{i}" for i in range(1500)] + rng.choices(["a", "b", "c"], k=300)
    for final_closes in (True, False):
        expected = [
            _transcribed_mtld_direction(s, 0.72, 10, True, final_closes)
            for s in (long_segment, long_segment[::-1])
        ]
        got = mtld(long_segment, final_token_closes_factor=final_closes)
        assert got == pytest.approx(sum(expected) / 2, rel=1e-12)


@pytest.mark.parametrize("min_segment", [0, 10, 300])
@pytest.mark.parametrize("final_closes", [True, False])
def test_mtld_with_segments_longer_than_the_byte_pass(min_segment, final_closes):
    """MTLD's first pass reads gaps capped at 255: segments of 255 and 256 tokens, and a long
    one in the middle of a stream with gaps above 255 all around, against the definition."""
    rng = random.Random(16 + min_segment)
    short = rng.choices([f"s{i}" for i in range(40)], k=2000)  # gaps above 255 are common
    distinct = [f"u{i}" for i in range(600)]
    streams = [
        short[:700] + distinct + short[700:],
        distinct[:254] + ["u0"] + short[:300],  # closes at 255 tokens or later
        distinct[:255] + ["u0"] + short[:300],  # the 256th token is a repeat
        short[:200] + distinct[:256] + short[200:500],
    ]
    for stream in streams:
        expected = [
            _transcribed_mtld_direction(s, 0.72, min_segment, True, final_closes)
            for s in (stream, stream[::-1])
        ]
        got = mtld(stream, min_segment=min_segment, final_token_closes_factor=final_closes)
        assert got == pytest.approx(sum(expected) / 2, rel=1e-12)
