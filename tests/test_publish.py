"""`make publish`: the dry run (no network) and the real path against an in-process fake hub."""

from __future__ import annotations

import random
from pathlib import Path

import datasets
import huggingface_hub
import pytest
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

from poetic_eval.cli import main
from poetic_eval.hub import ConfigData, HubDataset, plan_uploads, publish, write_hub_dataset

SECRET = "hf_test_secret_token_never_printed"
FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})


@pytest.fixture()
def built(tmp_path):
    """A datasets folder with two built datasets, random rows, and a staging leftover."""
    template = tmp_path / "card.md"
    template.write_text("Test card.\n", encoding="utf-8")
    rng = random.Random(7)
    root = tmp_path / "datasets"
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
    (root / ".alpha.building-x").mkdir()  # an interrupted build's staging folder: ignored
    (root / "README.md").write_text("not a dataset\n", encoding="utf-8")
    return root


def expected_files(folder):
    return sorted(
        (path.relative_to(folder).as_posix(), path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file()
    )


class FakeHub:
    """Records calls to the HfApi methods publishing uses; the hub holds one stale file."""

    def __init__(self, monkeypatch):
        self.calls: list[tuple] = []
        self.tokens: set = set()
        hub = self

        def create_repo(api, repo_id, **kwargs):
            hub.tokens.add(api.token)
            hub.calls.append(("create_repo", repo_id, kwargs))
            return f"https://huggingface.co/datasets/{repo_id}"

        def list_repo_files(api, repo_id, **kwargs):
            hub.calls.append(("list_repo_files", repo_id, kwargs))
            return [".gitattributes", "README.md", "data/old/test-00000-of-00001.parquet"]

        def create_commit(api, repo_id, operations, **kwargs):
            hub.tokens.add(api.token)
            hub.calls.append(("create_commit", repo_id, list(operations), kwargs))
            return huggingface_hub.CommitInfo(
                commit_url=f"https://huggingface.co/datasets/{repo_id}/commit/abc",
                commit_message=kwargs["commit_message"],
                commit_description="",
                oid="abc",
            )

        def whoami(api, *args, **kwargs):
            hub.calls.append(("whoami",))
            return {"name": "someone"}

        def network(*args, **kwargs):
            raise AssertionError("the network was touched")

        for name, method in (
            ("create_repo", create_repo),
            ("list_repo_files", list_repo_files),
            ("create_commit", create_commit),
            ("whoami", whoami),
            ("upload_folder", network),
            ("upload_file", network),
        ):
            monkeypatch.setattr(HfApi, name, method)
        monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: False)

    def commits(self):
        return [call for call in self.calls if call[0] == "create_commit"]


def test_dry_run_lists_every_file_and_size_without_network(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "my-org", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert fake.calls == []
    assert out.splitlines()[0] == "dry run (--dry-run): nothing is uploaded"
    for name in ("alpha", "beta"):
        assert f"{name} -> https://huggingface.co/datasets/my-org/{name} " in out
        for path, size in expected_files(built / name):
            assert any(line.split() == [path, f"{size:,}", "bytes"] for line in out.splitlines()), (
                path
            )
    assert ".alpha.building" not in out
    assert "2 dataset repo(s)" in out
    assert SECRET not in out


def test_no_token_means_dry_run(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(["publish", "--datasets", str(built)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dry run (HF_TOKEN is not set)")
    assert "<your-hub-user>/alpha" in out
    assert fake.calls == []


def test_real_publish_makes_one_commit_per_dataset(built, monkeypatch, capsys):
    fake = FakeHub(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert fake.tokens == {SECRET}
    commits = fake.commits()
    assert [commit[1] for commit in commits] == ["my-org/alpha", "my-org/beta"]
    for (_, repo_id, operations, kwargs), name in zip(commits, ("alpha", "beta")):
        assert kwargs["repo_type"] == "dataset"
        added = sorted(
            (op.path_in_repo, len(Path(op.path_or_fileobj).read_bytes()))
            for op in operations
            if isinstance(op, CommitOperationAdd)
        )
        assert added == expected_files(built / name)
        deleted = [op.path_in_repo for op in operations if isinstance(op, CommitOperationDelete)]
        assert deleted == ["data/old/test-00000-of-00001.parquet"]
    created = [call for call in fake.calls if call[0] == "create_repo"]
    assert all(call[2]["exist_ok"] and call[2]["repo_type"] == "dataset" for call in created)
    assert captured.out.splitlines() == [
        "alpha: published (3 files) https://huggingface.co/datasets/my-org/alpha/commit/abc",
        "beta: published (2 files) https://huggingface.co/datasets/my-org/beta/commit/abc",
    ]


def test_publish_without_org_uses_the_token_user(built, monkeypatch):
    fake = FakeHub(monkeypatch)
    urls = publish(plan_uploads(built, None), token=SECRET)
    assert [commit[1] for commit in fake.commits()] == ["someone/alpha", "someone/beta"]
    assert len(urls) == 2
    assert sum(call[0] == "whoami" for call in fake.calls) == 1


def test_publish_refuses_offline_mode_and_missing_token(built, monkeypatch):
    FakeHub(monkeypatch)
    with pytest.raises(ValueError, match="token is required"):
        publish(plan_uploads(built, "org"), token="")
    monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: True)
    with pytest.raises(ValueError, match="HF_HUB_OFFLINE is set"):
        publish(plan_uploads(built, "org"), token=SECRET)


def test_missing_or_empty_datasets_folder(tmp_path, capsys):
    assert main(["publish", "--datasets", str(tmp_path / "absent")]) == 1
    assert "run `make build` first" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="no built datasets"):
        plan_uploads(tmp_path, None)
