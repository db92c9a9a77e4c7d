"""BLM evaluation: shared-prefix scores, choices, macro-F1, label table, CLI, report, bad input.

The items are written here (our own Italian sentences in the BLM record format); the models are
tiny random Llamas over a word-level vocabulary of exactly these texts, built in memory.
"""

from __future__ import annotations

import copy
import json

import datasets
import numpy as np
import pytest
import torch
from tiny_language_models import bigram_causal_lm, tiny_causal_lm, tiny_masked_lm
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

from poetic_eval.blm import (
    LETTERS,
    answer_labels,
    as_items,
    blm_prompt,
    blm_results,
    blm_section,
    candidate_continuations,
    choice_scores,
    evaluate_blm,
    evaluate_configs,
    label_table,
    running_context,
    validate_blm_record,
)
from poetic_eval.blm.answer_labels import label_of
from poetic_eval.blm.item_sources import load_evaluation_sets
from poetic_eval.cli import main
from poetic_eval.lm import sequence_log_probs
from poetic_eval.report import (
    append_section,
    load_report,
    new_report,
    render_markdown,
    save_report,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

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
SPECIAL = ["[PAD]", "[UNK]", "[BOS]", "[EOS]"]


def _pre_tokenizer():
    return pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()])


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
    splitter = _pre_tokenizer()
    words = sorted({w for text in _all_texts() for w, _ in splitter.pre_tokenize_str(text)})
    vocab = {token: index for index, token in enumerate(SPECIAL + words)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = _pre_tokenizer()
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        bos_token="[BOS]",
        eos_token="[EOS]",
    )


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


@pytest.fixture(scope="module")
def lm():
    return italian_lm(seed=0)


@pytest.fixture(scope="module")
def items():
    return as_items(RECORDS)


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


# --- items and prompts ---------------------------------------------------------------------------


def test_records_with_and_without_prefixes_give_the_same_item():
    bare = copy.deepcopy(AGREEMENT_ITEM)
    bare["Context"] = [sentence.split("\t", 1)[1] for sentence in bare["Context"]]
    bare["Answer_set"] = [sentence.split("\t", 1)[1] for sentence in bare["Answer_set"]]
    plain, prefixed = as_items([bare, AGREEMENT_ITEM])
    assert (plain.context, plain.answers) == (prefixed.context, prefixed.answers)
    assert answer_labels(plain) == ("WNA", "AEV", "Correct", "Coord", "WN1", "WN2", "AEN1", "AEN2")
    item = validate_blm_record(RELEASE_ITEM)
    assert item.answers[0] == "la finestra si apre da un'ora"
    assert answer_labels(item) == ("Correct",) + ("unlabelled",) * 7
    assert label_of(validate_blm_record(CAUSATIVE_ITEM), "A") == "IR-trans"


def test_prompt_structure(items):
    item, example = items[1], items[0]
    english = blm_prompt(item, "en")
    assert english.endswith("**Your answer**\n")
    order = [
        english.index(part)
        for part in (
            "# TASK",
            "# OUTPUT",
            "# PUZZLE",
            "\n**Context**\n",
            "\n**Answer set**\n",
            "**Your answer**",
        )
    ]
    assert order == sorted(order)
    assert "numbered from 1 to 7" in english and "**only** the letter" in english
    assert "1\til bambino rompe il vaso con un martello\n" in english
    assert "F\til vaso si rompe da pochi minuti\n" in english
    one_shot = blm_prompt(item, "it", example)
    assert one_shot.index("# ESEMPIO RISOLTO") < one_shot.index("# ROMPICAPO")
    assert "**Risposta corretta**\nC\n" in one_shot
    assert one_shot.count("\n**Contesto**\n") == 2
    assert one_shot.endswith("**La tua risposta**\n")
    with pytest.raises(ValueError, match="language"):
        blm_prompt(item, "fr")


def test_running_context_and_candidates(items):
    item = items[2]
    context = running_context(item)
    assert context.startswith("la ragazza apre la finestra in silenzio. la ragazza apre")
    assert context.endswith("la finestra si apre in silenzio.")
    assert candidate_continuations(item)[0] == " la finestra si apre da un'ora."


# --- shared prefix == separate scoring ---------------------------------------------------------


@pytest.mark.parametrize("method", ["prompt", "candidates"])
def test_shared_prefix_scores_equal_scoring_every_full_text(lm, items, method):
    shared = choice_scores(items, lm, method=method, show_progress=False)
    alone = choice_scores(items, lm, method=method, share_prefixes=False, show_progress=False)
    for row, item in enumerate(items):
        if method == "prompt":
            expected = full_text_scores(lm, blm_prompt(item), list(LETTERS))
        else:
            expected = full_text_scores(lm, running_context(item), candidate_continuations(item))
        np.testing.assert_allclose(shared[row], expected, atol=1e-4)
        np.testing.assert_allclose(alone[row], expected, atol=1e-4)
    assert shared.shape == (3, 8)
    assert np.ptp(shared, axis=1).min() > 1e-3  # the random model tells the answers apart


def test_one_shot_and_mean_scores_equal_scoring_every_full_text(lm, items):
    example, rest = items[0], items[1:]
    shared = choice_scores(rest, lm, language="it", example=example, show_progress=False)
    for row, item in enumerate(rest):
        expected = full_text_scores(lm, blm_prompt(item, "it", example), list(LETTERS))
        np.testing.assert_allclose(shared[row], expected, atol=1e-4)
    means = choice_scores(items, lm, method="candidates", reduction="mean", show_progress=False)
    sums = choice_scores(items, lm, method="candidates", show_progress=False)
    for row, item in enumerate(items):
        counts = [
            len(lm.tokenizer(text, add_special_tokens=False).input_ids)
            for text in candidate_continuations(item)
        ]
        np.testing.assert_allclose(means[row], sums[row] / np.array(counts), atol=1e-6)


def test_context_lengths_sum_only_the_continuations_and_skip_their_head_rows(lm):
    """sequence_log_probs(context_lengths=...) == full sums minus context sums, and the LM head
    runs on fewer rows than without it."""
    rng = np.random.default_rng(5)
    size = len(lm.tokenizer)
    prefixes = [list(rng.integers(4, size, int(rng.integers(3, 30)))) for _ in range(4)]
    sequences, contexts = [], []
    for prefix in prefixes:
        for _ in range(int(rng.integers(1, 6))):
            sequences.append([2, *prefix, *rng.integers(4, size, int(rng.integers(1, 6)))])
            contexts.append(1 + len(prefix))
    rows = []
    hook = lm.model.lm_head.register_forward_hook(
        lambda m, i, o: rows.append(o.reshape(-1, size).shape[0])
    )
    try:
        for share in (True, False):
            rows.clear()
            full = sequence_log_probs(lm, sequences, share_prefixes=share)
            full_rows = sum(rows)
            context = sequence_log_probs(
                lm, [seq[:n] for seq, n in zip(sequences, contexts)], share_prefixes=share
            )
            rows.clear()
            continuation = sequence_log_probs(
                lm, sequences, share_prefixes=share, context_lengths=contexts
            )
            np.testing.assert_allclose(continuation, full - context, atol=1e-4)
            # one head row per parent of a continuation token (fewer when shared in a tree)
            parents = sum(len(q) - n for q, n in zip(sequences, contexts))
            assert sum(rows) <= parents if share else sum(rows) == parents
            assert sum(rows) < full_rows
    finally:
        hook.remove()


# --- choices -------------------------------------------------------------------------------------


def test_choices_are_the_highest_scores_and_predictions_name_the_labels(lm, items):
    for method in ("prompt", "candidates"):
        result = evaluate_blm(RECORDS, lm, method=method, show_progress=False)
        scores = choice_scores(items, lm, method=method, show_progress=False)
        chosen = [LETTERS[k] for k in scores.argmax(1)]
        assert [p["predicted"] for p in result["predictions"]] == chosen
        assert [p["ID"] for p in result["predictions"]] == ["agr-1", "caus-7", 215]
        assert [p["correct"] for p in result["predictions"]] == ["C", "F", "A"]
        assert [p["label"] for p in result["predictions"]] == [
            label_of(item, letter) for item, letter in zip(items, chosen)
        ]
        assert result["accuracy"] == np.mean([a == b for a, b in zip(chosen, ["C", "F", "A"])])
        assert result["n"] == 3 and result["method"] == method


def test_prompt_method_picks_the_letter_the_model_favours(items):
    result = evaluate_blm(items, bigram_lm({"F": 4.0}), show_progress=False)
    assert [p["predicted"] for p in result["predictions"]] == ["F", "F", "F"]
    assert [p["label"] for p in result["predictions"]] == ["WN2", "Correct", "unlabelled"]
    assert result["accuracy"] == pytest.approx(1 / 3)
    # letters A, C, F occur; only F is ever right: F1(F) = 2 * 1 / (2 * 1 + 2 + 0)
    assert result["macro_f1"] == pytest.approx((0.5 + 0 + 0) / 3)
    assert result["by_label"]["Correct"] == {"count": 1, "share": pytest.approx(1 / 3)}
    assert result["by_label"]["WN2"]["count"] == 1 and result["by_label"]["AEV"]["count"] == 0


CHEAP_WORDS = {
    "arriva": 3.0,
    "comuni": 3.0,
    "vaso": 3.0,
    "si": 3.0,
    "minuti": 3.0,
    "ragazza": 3.0,
    "un": 3.0,
}


def test_candidate_scores_and_choices_computed_by_hand(items):
    """Under a model whose next-token distribution ignores the context, a candidate's score is
    the sum over its tokens of (bonus - log Z); by the mean, the answer with the largest share
    of cheap words wins."""
    lm = bigram_lm(CHEAP_WORDS)
    size = len(lm.tokenizer)
    log_z = np.log(size - len(CHEAP_WORDS) + len(CHEAP_WORDS) * np.exp(3.0))
    scores = choice_scores(items, lm, method="candidates", show_progress=False)
    for row, item in enumerate(items):
        for column, text in enumerate(candidate_continuations(item)):
            tokens = lm.tokenizer.tokenize(text)
            expected = sum(CHEAP_WORDS.get(token, 0.0) - log_z for token in tokens)
            assert scores[row, column] == pytest.approx(expected, abs=1e-4)
    result = evaluate_blm(items, lm, method="candidates", reduction="mean", show_progress=False)
    assert [p["predicted"] for p in result["predictions"]] == ["H", "F", "F"]
    assert [p["label"] for p in result["predictions"]] == ["AEN2", "Correct", "unlabelled"]
    by_sum = evaluate_blm(items, lm, method="candidates", show_progress=False)
    assert [p["predicted"] for p in by_sum["predictions"]] == [LETTERS[k] for k in scores.argmax(1)]


# --- scores --------------------------------------------------------------------------------------


def naive_macro_f1(predictions, references):
    classes = sorted(set(predictions) | set(references))
    confusion = np.zeros((len(classes), len(classes)))
    for p, r in zip(predictions, references):
        confusion[classes.index(r), classes.index(p)] += 1
    f1 = []
    for k in range(len(classes)):
        tp = confusion[k, k]
        precision = tp / confusion[:, k].sum() if confusion[:, k].sum() else 0.0
        recall = tp / confusion[k, :].sum() if confusion[k, :].sum() else 0.0
        f1.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return float(np.mean(f1))


def test_macro_f1_against_independent_implementations():
    rng = np.random.default_rng(7)
    sklearn_metrics = None
    try:
        from sklearn import metrics as sklearn_metrics
    except ImportError:
        pass
    for trial in range(60):
        n = int(rng.integers(1, 40))
        letters = list(LETTERS[: int(rng.integers(1, 9))])
        references = list(rng.choice(letters, n))
        predictions = [r if rng.random() < 0.4 else str(rng.choice(LETTERS)) for r in references]
        result = blm_results(predictions, references)
        assert result["macro_f1"] == pytest.approx(naive_macro_f1(predictions, references))
        assert result["accuracy"] == pytest.approx(np.mean(np.array(predictions) == references))
        if sklearn_metrics is not None:
            expected = sklearn_metrics.f1_score(
                references, predictions, average="macro", zero_division=0
            )
            assert result["macro_f1"] == pytest.approx(expected)


def test_label_table_counts_order_and_inventory():
    table = label_table(["AEV", "Correct", "AEV", "WN1", "Correct", "AEV"], ["Coord", "AEV"])
    assert list(table) == ["Correct", "AEV", "WN1", "Coord"]
    assert table["AEV"] == {"count": 3, "share": 0.5}
    assert table["Coord"] == {"count": 0, "share": 0.0}
    result = blm_results(["A", "B", "C"], ["A", "C", "C"], ["Correct", "AEN1", "Correct"])
    assert result["by_label"] == {
        "Correct": {"count": 2, "share": 2 / 3},
        "AEN1": {"count": 1, "share": 1 / 3},
    }
    assert blm_results(["A"], ["A"])["by_label"] == {}


def test_metric_module_matches_the_core_over_batches():
    import poetic_eval

    metric = poetic_eval.load_metric("blm_f1")
    rng = np.random.default_rng(3)
    references = [str(x) for x in rng.choice(list(LETTERS), 30)]
    predictions = [r if rng.random() < 0.5 else "A" for r in references]
    labels = ["Correct" if p == r else "AEV" for p, r in zip(predictions, references)]
    for start in range(0, 30, 10):
        metric.add_batch(
            predictions=predictions[start : start + 10],
            references=references[start : start + 10],
            labels=labels[start : start + 10],
        )
    assert metric.compute() == blm_results(predictions, references, labels)
    assert metric.compute(predictions=predictions, references=references)["by_label"] == {}
    with pytest.raises(ValueError, match="every item or for none"):
        metric.compute(predictions=["A", "B"], references=["A", "A"], labels=["Correct", ""])


# --- bad input -----------------------------------------------------------------------------------


def broken(**changes):
    record = copy.deepcopy(AGREEMENT_ITEM)
    record.update(changes)
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            broken(Answer_set=AGREEMENT_ITEM["Answer_set"][:7]),
            "'agr-1'.*Answer_set has 7 sentences, expected 8",
        ),
        (broken(Correct_option="J"), "'agr-1'.*Correct_option.*'J'"),
        (broken(Context=[]), "'agr-1'.*Context has 0 sentences"),
        (
            broken(Answer_set_annotation=AGREEMENT_ITEM["Answer_set_annotation"][:6]),
            "'agr-1'.*annotation",
        ),
        (broken(Correct_option="A", Correct_answer=None), "'agr-1'.*Correct_option is A"),
        (
            broken(
                Answer_set_annotation=[
                    {"label": "Correct" if k == 0 else "WNA", "value": k == 2, "option": letter}
                    for k, letter in enumerate(LETTERS)
                ]
            ),
            "'agr-1': answer A is labelled 'Correct' but the correct option is C",
        ),
        ({"Context": ["una frase"]}, "position 0 \\(no ID\\).*'ID'"),
    ],
)
def test_bad_records_name_the_item(record, message):
    with pytest.raises(ValueError, match=message):
        as_items([record])


def test_context_too_short_for_the_one_shot_prompt_is_caught_before_scoring(items, monkeypatch):
    from poetic_eval.blm import evaluation

    short = italian_lm(max_positions=300)
    zero_shot = choice_scores(items[1:], short, show_progress=False)  # fits
    assert zero_shot.shape == (2, 8)

    def never(*args, **kwargs):
        raise AssertionError("scored before checking the context length")

    monkeypatch.setattr(evaluation, "score_choices", never)
    with pytest.raises(
        ValueError, match="item 'caus-7': the one-shot prompt.*at most 300 positions"
    ):
        evaluate_blm(items[1:], short, example=items[0], show_progress=False)


def test_bad_options_fail_clearly(lm, items):
    with pytest.raises(ValueError, match="method"):
        evaluate_blm(items, lm, method="letters", show_progress=False)
    with pytest.raises(ValueError, match="one-shot example applies to the prompt"):
        evaluate_blm(items[1:], lm, method="candidates", example=items[0], show_progress=False)
    with pytest.raises(ValueError, match="reduction applies to the candidates"):
        evaluate_blm(items, lm, reduction="mean", show_progress=False)
    with pytest.raises(ValueError, match="example \\(ID 'agr-1'\\) is also an evaluated item"):
        evaluate_blm(items, lm, example=items[0], show_progress=False)
    with pytest.raises(ValueError, match="masked LM"):
        evaluate_blm(items, tiny_masked_lm(), show_progress=False)
    with pytest.raises(ValueError, match="items is empty"):
        evaluate_blm([], lm, show_progress=False)
    with pytest.raises(ValueError, match=r"predictions\[1\].*'Z'"):
        blm_results(["A", "Z"], ["A", "B"])
    with pytest.raises(ValueError, match=r"labels\[0\] is 'AEV' but the prediction A is right"):
        blm_results(["A"], ["A"], ["AEV"])


# --- files, dataset folders, the command line, the report -----------------------------------------


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory, lm):
    folder = tmp_path_factory.mktemp("italian_llama")
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder


def write_dataset_folder(root, configs=("agr_ii",)):
    """A hub-style folder; each config has train: the agreement item, test: the other two."""
    splits = {"train": [AGREEMENT_ITEM], "test": [CAUSATIVE_ITEM, RELEASE_ITEM]}
    labelled = copy.deepcopy(splits)
    labelled["test"][1]["Answer_set_annotation"] = [
        {
            "label": "Correct" if letter == "A" else "IR-trans",
            "value": letter == "A",
            "option": letter,
        }
        for letter in LETTERS
    ]
    card = ["---", "configs:"]
    for config in configs:
        (root / "data" / config).mkdir(parents=True, exist_ok=True)
        card += [f"- config_name: {config}", "  data_files:"]
        for split, records in labelled.items():
            rows = [{**r, "ID": str(r["ID"]), "Verb": r.get("Verb", "")} for r in records]
            path = f"data/{config}/{split}-00000-of-00001.parquet"
            datasets.Dataset.from_list(rows).to_parquet(root / path)
            card += [f"  - split: {split}", f"    path: {path}"]
    (root / "README.md").write_text("\n".join([*card, "---", ""]))
    return root


def test_cli_json_on_a_release_file(tmp_path, model_folder, lm, capsys):
    source = tmp_path / "blm_release.json"
    source.write_text(json.dumps(RECORDS, ensure_ascii=False), encoding="utf-8")
    code = main(
        [
            "blm-eval",
            "--items",
            str(source),
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--method",
            "candidates",
            "--json",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    expected = evaluate_blm(RECORDS, lm, method="candidates", show_progress=False)
    assert printed["config"] == "blm_release"
    for key in ("accuracy", "macro_f1", "n", "by_label", "predictions", "method", "reduction"):
        assert printed[key] == expected[key]
    assert set(printed["predictions"][0]) == {"ID", "predicted", "correct", "label"}
    assert sum(entry["count"] for entry in printed["by_label"].values()) == 3


def test_cli_one_shot_on_a_dataset_folder(tmp_path, model_folder, lm, capsys):
    root = write_dataset_folder(tmp_path / "blm")
    [evaluation_set] = load_evaluation_sets(root, ["agr_ii"], one_shot=True)
    assert evaluation_set.example.id == "agr-1"
    assert [item.id for item in evaluation_set.items] == ["caus-7", "215"]
    assert label_of(evaluation_set.items[1], "B") == "IR-trans"
    code = main(
        [
            "blm-eval",
            "--items",
            str(root),
            "--config",
            "agr_ii",
            "--shots",
            "1",
            "--language",
            "it",
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--json",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    expected = evaluate_blm(
        evaluation_set.items, lm, language="it", example=evaluation_set.example, show_progress=False
    )
    assert printed["predictions"] == expected["predictions"]
    assert (printed["shots"], printed["language"], printed["n"]) == (1, "it", 2)
    table = datasets.load_dataset(str(root), "agr_ii", split="test")
    assert evaluate_blm(table, lm, show_progress=False)["n"] == 2  # rows of a Dataset are records
    code = main(
        [
            "blm-eval",
            "--items",
            str(root),
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--limit",
            "1",
            "--no-progress",
        ]
    )
    assert code == 0
    table = capsys.readouterr().out
    assert "method: prompt (0-shot, en)" in table and "agr_ii" in table and "Correct" in table


def test_cli_json_pools_several_configs(tmp_path, model_folder, lm, capsys):
    root = write_dataset_folder(tmp_path / "blm", configs=("agr_ii", "od_iii"))
    code = main(
        ["blm-eval", "--items", str(root), "--model", str(model_folder), "--device", "cpu"]
        + ["--method", "candidates", "--reduction", "mean", "--json", "--no-progress"]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(printed["by_config"]) == ["agr_ii", "od_iii"]
    assert printed["n"] == 4 and printed["reduction"] == "mean"
    assert [p["config"] for p in printed["predictions"]] == ["agr_ii"] * 2 + ["od_iii"] * 2
    one = printed["by_config"]["od_iii"]
    expected = evaluate_blm(
        load_evaluation_sets(root, ["od_iii"])[0].items,
        lm,
        method="candidates",
        reduction="mean",
        show_progress=False,
    )
    assert (one["accuracy"], one["macro_f1"], one["n"]) == (
        expected["accuracy"],
        expected["macro_f1"],
        2,
    )
    pooled = blm_results(
        [p["predicted"] for p in printed["predictions"]],
        [p["correct"] for p in printed["predictions"]],
    )
    assert printed["macro_f1"] == pytest.approx(pooled["macro_f1"])


def test_cli_errors(tmp_path, model_folder, capsys):
    root = write_dataset_folder(tmp_path / "blm")
    assert (
        main(["blm-eval", "--items", str(root), "--config", "od_iv", "--model", str(model_folder)])
        == 1
    )
    assert "unknown config od_iv" in capsys.readouterr().err
    source = tmp_path / "bad.json"
    source.write_text(json.dumps([RELEASE_ITEM, broken(Correct_option="Z")]))
    assert main(["blm-eval", "--items", str(source), "--model", str(model_folder)]) == 1
    assert "'agr-1'" in capsys.readouterr().err
    assert main(["blm-eval", "--items", str(source), "--method", "candidates", "--shots", "1"]) == 1
    assert "--shots 1 applies to --method prompt" in capsys.readouterr().err
    assert main(["blm-eval", "--items", str(tmp_path / "missing.json")]) == 1


def test_report_section(tmp_path, lm):
    root = write_dataset_folder(tmp_path / "blm")
    results = evaluate_configs(root, lm, show_progress=False)
    assert [(r["config"], r["method"], r["n"]) for r in results] == [
        ("agr_ii", "prompt", 2),
        ("agr_ii", "candidates", 2),
    ]
    section = blm_section(results)
    [table] = section.tables
    assert table.columns[:5] == ["config", "method", "n", "accuracy", "macro-F1"]
    assert [row[1] for row in table.rows] == ["prompt (0-shot, en)", "candidates (sum)"]
    assert table.rows[0][3] == results[0]["accuracy"]
    assert table.rows[1][4] == results[1]["macro_f1"]
    save_report(new_report("test"), tmp_path / "report")
    append_section(tmp_path / "report", "blm", section)
    markdown = render_markdown(load_report(tmp_path / "report"))
    assert "Blackbird Language Matrices" in markdown and "candidates (sum)" in markdown
