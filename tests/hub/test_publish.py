"""`make publish`: the dry run (no network), and real publishing against an in-process fake hub
that keeps its repos' files (git blob ids, LFS sha256) the way the hub reports them."""

from __future__ import annotations

import logging
import random
from types import SimpleNamespace

import datasets
import huggingface_hub
import pytest
from hub_doubles import FakeHub
from huggingface_hub import CommitOperationDelete, HfApi

import poetic_eval
from poetic_eval.cli import main
from poetic_eval.evaluate_modules.spaces import plan_metric_spaces
from poetic_eval.hub import ConfigData, HubDataset, plan_dataset_uploads, publish, write_hub_dataset

SECRET = "hf_test_secret_token_never_printed"
FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})
METRICS = poetic_eval.available_metrics()


def build_datasets(root, seed=7):
    """Two built datasets with random rows under ``root``."""
    template = root.parent / "card.md"
    template.write_text("Test card.\n", encoding="utf-8")
    rng = random.Random(seed)
    for name, configs in (("alpha", ["one", "two"]), ("beta", ["only"])):
        rows = {
            config: [
                {"good": f"{rng.random()}", "bad": f"{rng.random()}"}
                for _ in range(rng.randint(1, 30))
            ]
            for config in configs
        }
        dataset = HubDataset(
            name=name,
            pretty_name=name.title(),
            configs=[ConfigData(c, FEATURES, {"test": r}) for c, r in rows.items()],
            seed=0,
            card_template=template,
        )
        write_hub_dataset(dataset, root / name, build_command="test")
    return root


@pytest.fixture()
def built(tmp_path):
    """A datasets folder with two built datasets, a staging leftover and a stray card."""
    root = build_datasets(tmp_path / "datasets")
    (root / ".alpha.building-x").mkdir()  # an interrupted build's staging folder: ignored
    (root / "README.md").write_text("not a dataset\n", encoding="utf-8")
    return root


def expected_files(folder):
    return sorted(
        (path.relative_to(folder).as_posix(), path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file()
    )


def test_dry_run_lists_every_file_and_size_without_network(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "my-org", "--dry-run"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert fake.calls == []
    assert lines[0] == "dry run (--dry-run): nothing is uploaded"
    for name in ("alpha", "beta"):
        assert f"{name} -> https://huggingface.co/datasets/my-org/{name} " in out
        for path, size in expected_files(built / name):
            assert any(line.split() == [path, f"{size:,}", "bytes"] for line in lines), path
    for plan in plan_metric_spaces("my-org"):
        assert f"{plan.name} -> https://huggingface.co/spaces/my-org/{plan.name} " in out
        for file in plan.files:
            assert any(
                line.split() == [file.path_in_repo, f"{file.size:,}", "bytes"] for line in lines
            ), (plan.name, file.path_in_repo)
    assert ".alpha.building" not in out
    assert lines[-1].startswith(f"2 dataset repo(s), {len(METRICS)} space repo(s), ")
    assert SECRET not in out


def test_no_token_means_dry_run(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(["publish", "--datasets", str(built)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dry run (HF_TOKEN is not set)")
    assert "<your-hub-user>/alpha" in out and "<your-hub-user>/mtld" in out
    assert fake.calls == []


def test_real_publish_makes_one_commit_per_repo_then_none(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    fake.repos[("dataset", "my-org/alpha")] = {"data/old/test-00000-of-00001.parquet": b"old"}
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert fake.tokens == {SECRET}
    commits = fake.commits()
    assert [(c[2], c[1]) for c in commits] == [
        ("dataset", "my-org/alpha"),
        ("dataset", "my-org/beta"),
        *(("space", f"my-org/{name}") for name in METRICS),
    ]
    for name in ("alpha", "beta"):  # the hub now holds exactly the built folder
        assert sorted((p, len(c)) for p, c in fake.files("dataset", f"my-org/{name}").items()) == (
            expected_files(built / name)
        )
    alpha_ops = commits[0][3]
    deleted = [op.path_in_repo for op in alpha_ops if isinstance(op, CommitOperationDelete)]
    assert deleted == ["data/old/test-00000-of-00001.parquet"]
    for plan in plan_metric_spaces("my-org"):
        assert fake.files("space", plan.repo_id) == {
            f.path_in_repo: f.read_bytes() for f in plan.files
        }
    spaces = [call for call in fake.calls if call[0] == "create_repo" and call[2] == "space"]
    assert all(call[3]["space_sdk"] == "gradio" and call[3]["exist_ok"] for call in spaces)
    lines = captured.out.splitlines()
    assert lines[0] == (
        "alpha: published 3 changed file(s), deleted 1 https://huggingface.co/my-org/alpha/commit/c1"
    )
    assert len(lines) == 2 + len(METRICS)

    # the same build again: nothing changed, no commit anywhere
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    out = capsys.readouterr().out
    assert len(fake.commits()) == len(commits)
    assert (
        out.splitlines()[0]
        == "alpha: unchanged, no commit (https://huggingface.co/datasets/my-org/alpha)"
    )
    assert all(": unchanged, no commit (" in line for line in out.splitlines())


def test_rebuilt_dataset_commits_only_its_changed_files(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    plans = plan_dataset_uploads(built, "org")
    publish(plans, token=SECRET)
    before = len(fake.commits())
    (built / "beta" / "data" / "only" / "test-00000-of-00001.parquet").write_bytes(b"new bytes")
    results = publish(plan_dataset_uploads(built, "org"), token=SECRET)
    assert len(fake.commits()) == before + 1
    assert [r.commit_url is None for r in results] == [True, False]
    assert results[1].uploaded == ("data/only/test-00000-of-00001.parquet",)


def test_interrupted_publish_is_finished_by_running_it_again(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    fake.fail_commit_to = "my-org/beta"
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith("alpha: published ")
    error_lines = captured.err.strip().splitlines()
    assert len(error_lines) == 1 and "Traceback" not in captured.err
    assert error_lines[0].startswith(
        "poetic-eval publish: error: cannot reach the hub at https://huggingface.co while "
        "committing to dataset repo my-org/beta (ConnectionError: "
    )
    assert "run `make publish` again" in error_lines[0]
    assert ("space", "my-org/mtld") not in fake.repos  # it stopped at beta

    fake.fail_commit_to = None
    n_commits = len(fake.commits())
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("alpha: unchanged, no commit")
    assert out[1].startswith("beta: published 2 changed file(s)")
    assert len(fake.commits()) == n_commits + 1 + len(METRICS)


def test_publish_without_org_uses_the_token_user(built, monkeypatch):
    fake = FakeHub(monkeypatch)
    plans = plan_dataset_uploads(built, None) + plan_metric_spaces(None, ["mtld"])
    results = publish(plans, token=SECRET)
    assert [c[1] for c in fake.commits()] == ["someone/alpha", "someone/beta", "someone/mtld"]
    assert len(results) == 3
    assert sum(call[0] == "whoami" for call in fake.calls) == 1
    card = fake.files("space", "someone/mtld")["README.md"].decode("utf-8")
    assert 'evaluate.load("someone/mtld")' in card and "<your-hub-user>" not in card


def test_publish_refuses_offline_mode_and_missing_token(built, monkeypatch):
    FakeHub(monkeypatch)
    with pytest.raises(ValueError, match="token is required"):
        publish(plan_dataset_uploads(built, "org"), token="")
    monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: True)
    with pytest.raises(ValueError, match="HF_HUB_OFFLINE is set"):
        publish(plan_dataset_uploads(built, "org"), token=SECRET)


def test_the_token_appears_in_no_output_or_log(built, monkeypatch, capfd, caplog):
    """A refused token whose error text echoes it (as a proxy or server might): one line,
    without the token, on stdout, stderr or any log record."""
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    caplog.set_level(logging.DEBUG)
    # restored after the test: a DEBUG huggingface_hub logger would print the client's own
    # debug lines (e.g. its agent-registry fetch) in later tests that read stderr
    caplog.set_level(logging.DEBUG, logger="huggingface_hub")

    def refuse(api, repo_id, operations, **kwargs):
        response = SimpleNamespace(status_code=401, headers={}, request=None)
        raise huggingface_hub.errors.HfHubHTTPError(
            f"401 Unauthorized for token {SECRET}", response=response
        )

    monkeypatch.setattr(HfApi, "create_commit", refuse)
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capfd.readouterr()
    everything = captured.out + captured.err + caplog.text
    assert SECRET not in everything
    assert captured.err.strip().splitlines() == [
        (
            "poetic-eval publish: error: the hub refused the token (HTTP 401) while committing "
            "to dataset repo my-org/alpha: set HF_TOKEN to a token with write access to that "
            "owner (https://huggingface.co/settings/tokens), or choose another owner with "
            "HF_ORG= / --org"
        )
    ]
    assert fake.tokens == {SECRET}


def test_network_down_is_one_line_through_the_real_client(built, monkeypatch, capfd):
    """The real HfApi against a closed local port (no traffic leaves the machine)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capfd.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(
        f"poetic-eval publish: error: cannot reach the hub at http://127.0.0.1:{port} while "
        "creating dataset repo my-org/alpha ("
    )
    assert lines[0].endswith(
        "check the network connection, then run `make publish` again "
        "(repos already published are skipped)"
    )
    assert SECRET not in captured.err


def test_a_card_that_is_not_utf8_is_named_in_one_line(built, capsys):
    card = built / "beta" / "README.md"
    card.write_bytes(card.read_bytes().replace(b"Test card.", b"Test caf\xe9 card."))
    offset = card.read_bytes().index(b"\xe9")
    assert main(["publish", "--datasets", str(built), "--dry-run"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        (
            f"poetic-eval publish: error: {card} is not UTF-8 (byte {offset}): "
            "save the dataset card as UTF-8, or rebuild it (make build)"
        )
    ]


def test_missing_or_empty_datasets_folder(tmp_path, capsys):
    assert main(["publish", "--datasets", str(tmp_path / "absent")]) == 1
    assert "run `make build` first" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="no built datasets"):
        plan_dataset_uploads(tmp_path, None)
    assert main(["publish", "--skip-datasets", "--dry-run"]) == 0
    assert f"{len(METRICS)} space repo(s)" in capsys.readouterr().out
