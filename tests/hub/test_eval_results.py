"""The Hub's evaluation results: `poetic-eval report --eval-results` writes `.eval_results/*.yaml`
that the documented schema accepts (every field checked here, by a reader written from the Hub
docs, not by the writer); each built dataset's plan carries an `eval.yaml` whose tasks those
results name; `poetic-eval publish --eval-results` pushes them to a model repo of the fake hub
(`hub_doubles.FakeHub`), as a pull request when the token's user does not own it."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from huggingface_hub import parse_eval_result_entries

from poetic_eval.cli import main
from poetic_eval.hub import plan_dataset_uploads, publish
from poetic_eval.hub.eval_yaml import EVAL_YAML
from poetic_eval.hub.upload_plan import plan_eval_results
from poetic_eval.report.eval_results import DIVERSITY_METRICS

SECRET = "hf_test_secret_token_never_printed"
HUMAN = [
    "the night is long\nthe stars are bright\ni sing my song\ninto the light",
    "a river runs\nbeneath the hill\nthe morning suns\nare warm and still",
    "the cat sat down\nupon the mat\nthe dog in town\nwas very fat",
    "I walked along\nthe river bank\nand heard a song\nof water sank",
]
GENERATED = [
    "the night is long\nthe stars are bright\ni sing a song\ninto the night",
    "a bird flew by\nover the sea\nthe sky was high\nand so was he",
]
REPO_ID = re.compile(r"^[\w.-]+/[\w.-]+$")

# --- the documented schemas (Hub docs, "Evaluation Results"; hub-docs eval_results.yaml) ---
ENTRY_KEYS = {"dataset", "value", "verifyToken", "date", "source", "evaluation_framework", "notes"}
DATASET_KEYS = {"id", "task_id", "revision"}
SOURCE_KEYS = {"url", "name", "user", "org"}


def check_entry(entry: dict) -> None:
    """One entry of a `.eval_results/*.yaml` list, field by field."""
    assert isinstance(entry, dict) and set(entry) <= ENTRY_KEYS, set(entry) - ENTRY_KEYS
    dataset = entry["dataset"]  # required
    assert isinstance(dataset, dict) and set(dataset) <= DATASET_KEYS
    assert isinstance(dataset["id"], str) and REPO_ID.match(dataset["id"])  # required
    assert isinstance(dataset["task_id"], str) and dataset["task_id"]  # required
    if "revision" in dataset:
        assert isinstance(dataset["revision"], str)
    value = entry["value"]  # required, a number
    assert isinstance(value, (int, float)) and not isinstance(value, bool)
    if "date" in entry:  # ISO-8601 date or datetime
        datetime.fromisoformat(str(entry["date"]).replace("Z", "+00:00"))
    if "source" in entry:  # url required when a source is given
        source = entry["source"]
        assert isinstance(source, dict) and set(source) <= SOURCE_KEYS
        assert re.match(r"^https?://", source["url"])
        for key in ("name", "user", "org"):
            assert key not in source or isinstance(source[key], str)
    for key in ("verifyToken", "evaluation_framework", "notes"):
        assert key not in entry or isinstance(entry[key], str)


def check_eval_yaml(document: dict, card_configs: dict[str, set[str]]) -> None:
    """A dataset's eval.yaml: name, description, evaluation_framework, tasks of id/config/split,
    each config and split one the dataset has."""
    assert set(document) == {"name", "description", "evaluation_framework", "tasks"}
    assert all(
        isinstance(document[key], str) and document[key] for key in set(document) - {"tasks"}
    )
    ids = [task["id"] for task in document["tasks"]]
    assert ids and len(ids) == len(set(ids))
    for task in document["tasks"]:
        assert set(task) == {"id", "config", "split"}
        assert task["split"] in card_configs[task["config"]], task


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """bpomp and quatrain built small (the bundled sources)."""
    root = tmp_path_factory.mktemp("datasets")
    assert main(["build", "bpomp", "--out", str(root / "bpomp"), "--n-pairs", "6"]) == 0
    assert main(["build", "quatrain", "--out", str(root / "quatrain")]) == 0
    return root


@pytest.fixture(scope="module")
def eval_results(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    (root / "generated.json").write_text(json.dumps(GENERATED), encoding="utf-8")
    (root / "human.json").write_text(json.dumps(HUMAN), encoding="utf-8")
    code = main(
        [
            "report", "--generated", str(root / "generated.json"),
            "--human", str(root / "human.json"), "--out", str(root / "report"),
            "--eval-results", str(root / "model"),
            "--eval-dataset", "me/quatrain:en_quatrains:train",
            "--eval-source", "https://huggingface.co/datasets/me/poem-reports",
        ]
    )  # fmt: skip
    assert code == 0
    return root


def card_splits(folder: Path) -> dict[str, set[str]]:
    header = yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    return {
        config["config_name"]: {entry["split"] for entry in config["data_files"]}
        for config in header["configs"]
    }


def test_every_eval_results_file_follows_the_documented_schema(eval_results):
    report = json.loads((eval_results / "report" / "report.json").read_text(encoding="utf-8"))
    files = sorted((eval_results / "model" / ".eval_results").glob("*.yaml"))
    assert [f.stem for f in files] == sorted(f"en_quatrains-{m.key}" for m in DIVERSITY_METRICS)
    for path in files:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(entries, list) and len(entries) == 1
        check_entry(entries[0])
        (parsed,) = parse_eval_result_entries(entries)  # huggingface_hub reads it back
        metric = path.stem.removeprefix("en_quatrains-")
        assert parsed.dataset_id == "me/quatrain" and parsed.task_id == path.stem
        assert parsed.value == report["scores"][metric]  # the report's own number
        assert parsed.source_url == "https://huggingface.co/datasets/me/poem-reports"
        assert entries[0]["evaluation_framework"] == "poetic-eval"
        assert "2 generated vs 4 human poems" in parsed.notes


def test_the_schema_check_refuses_what_the_docs_do_not_allow():
    good = {"dataset": {"id": "me/quatrain", "task_id": "t"}, "value": 0.5}
    check_entry(good)
    for broken in (
        {"dataset": {"id": "quatrain", "task_id": "t"}, "value": 0.5},
        {"dataset": {"id": "me/q"}, "value": 0.5},
        {**good, "value": "0.5"},
        {**good, "model": "me/m"},
        {**good, "source": {"name": "no url"}},
        {**good, "date": "yesterday"},
    ):
        with pytest.raises((AssertionError, KeyError, ValueError)):
            check_entry(broken)


def test_each_dataset_plan_carries_an_eval_yaml_naming_the_tasks(built, eval_results):
    plans = {plan.name: plan for plan in plan_dataset_uploads(built, "me")}
    documents = {}
    for name, plan in plans.items():
        files = {file.path_in_repo: file for file in plan.files}
        document = yaml.safe_load(files[EVAL_YAML].read_bytes())
        check_eval_yaml(document, card_splits(built / name))
        documents[name] = document
    bpomp_ids = {task["id"] for task in documents["bpomp"]["tasks"]}
    assert bpomp_ids == set(card_splits(built / "bpomp"))  # every config a task
    assert all(task["split"] == "test" for task in documents["bpomp"]["tasks"])
    quatrain = {task["id"]: task for task in documents["quatrain"]["tasks"]}
    for path in (eval_results / "model" / ".eval_results").glob("*.yaml"):
        (entry,) = yaml.safe_load(path.read_text(encoding="utf-8"))
        task = quatrain[entry["dataset"]["task_id"]]  # the result names a declared task
        assert (task["config"], task["split"]) == ("en_quatrains", "train")


def test_the_report_refuses_eval_results_without_a_benchmark(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps(GENERATED), encoding="utf-8")
    code = main(
        ["report", "--generated", str(tmp_path / "g.json"), "--human", str(tmp_path / "g.json"),
         "--out", str(tmp_path / "r"), "--eval-results", str(tmp_path / "m")]
    )  # fmt: skip
    assert code == 1 and "--eval-results needs --eval-dataset" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()  # refused before any work


def test_the_dry_run_shows_the_model_repo_commit(eval_results, capsys):
    model = eval_results / "model"
    args = ["publish", "--eval-results", str(model), "--model-repo", "them/poet-1b", "--dry-run"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "poet-1b -> https://huggingface.co/them/poet-1b (model repo, eval results" in out
    for path in (model / ".eval_results").glob("*.yaml"):
        assert f"add     .eval_results/{path.name}" in out


def test_the_publish_dry_run_shows_each_datasets_eval_yaml(built, capsys):
    assert main(["publish", "--datasets", str(built), "--dry-run", "--skip-metrics"]) == 0
    out = capsys.readouterr().out
    for name in ("bpomp", "quatrain"):
        block = out.split(f"{name} -> ")[1].split(" -> ")[0]
        assert "add     eval.yaml" in block


def publish_results(folder: Path, repo: str) -> int:
    return main(["publish", "--eval-results", str(folder), "--model-repo", repo, "--token", SECRET])


def test_results_go_straight_to_a_model_repo_the_token_owns(fake_hub, eval_results, capsys):
    fake_hub.add_repo("model", "someone/poet-1b", {"README.md": b"# poet\n"})
    assert publish_results(eval_results / "model", "someone/poet-1b") == 0
    files = fake_hub.files("model", "someone/poet-1b")
    local = sorted((eval_results / "model" / ".eval_results").glob("*.yaml"))
    assert {f".eval_results/{p.name}": p.read_bytes() for p in local}.items() <= files.items()
    assert files["README.md"] == b"# poet\n"  # nothing else touched
    assert not fake_hub.pull_requests
    assert not [call for call in fake_hub.calls if call[0] == "create_repo"]
    assert "published https://huggingface.co/someone/poet-1b/commit/" in capsys.readouterr().out


def test_results_for_someone_elses_model_are_a_pull_request(fake_hub, eval_results, capsys):
    fake_hub.add_repo("model", "them/poet-1b", {"README.md": b"# theirs\n"})
    before = dict(fake_hub.files("model", "them/poet-1b"))
    assert publish_results(eval_results / "model", "them/poet-1b") == 0
    assert fake_hub.files("model", "them/poet-1b") == before  # main untouched
    (request,) = fake_hub.pull_requests[("model", "them/poet-1b")]
    assert sorted(request) == sorted(
        f".eval_results/{p.name}" for p in (eval_results / "model" / ".eval_results").glob("*")
    )
    out = capsys.readouterr().out
    assert "opened the pull request https://huggingface.co/them/poet-1b/discussions/1" in out


def test_an_organisation_of_the_token_owns_its_models(fake_hub, eval_results):
    fake_hub.orgs = ["poetry-lab"]
    fake_hub.add_repo("model", "poetry-lab/poet-1b", {})
    assert publish_results(eval_results / "model", "poetry-lab/poet-1b") == 0
    assert not fake_hub.pull_requests
    assert ".eval_results/en_quatrains-rhyme_kl.yaml" in fake_hub.files(
        "model", "poetry-lab/poet-1b"
    )


def test_the_token_owner_is_asked_once_per_publish(fake_hub, eval_results):
    """Two model repos (one ours, one not): one whoami, not one per repo."""
    fake_hub.add_repo("model", "someone/poet-1b", {"README.md": b"# poet\n"})
    fake_hub.add_repo("model", "them/poet-1b", {"README.md": b"# theirs\n"})
    plans = [
        plan_eval_results(eval_results / "model", repo)
        for repo in ("someone/poet-1b", "them/poet-1b")
    ]
    results = publish(plans, token=SECRET)
    assert [r.pull_request_url is not None for r in results] == [False, True]
    assert sum(call[0] == "whoami" for call in fake_hub.calls) == 1
