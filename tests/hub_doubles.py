"""A test double shared by the publishing tests: an in-process fake of the HfApi methods that
publishing uses, keeping its repos' files the way the hub reports them (git blob ids, LFS
sha256 for parquet files)."""

from __future__ import annotations

import hashlib

import huggingface_hub
from huggingface_hub import CommitOperationDelete, HfApi
from huggingface_hub.hf_api import RepoFile


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def hub_entry(path: str, content: bytes) -> RepoFile:
    """A file as the hub lists it: parquet in LFS (sha256 oid), the rest in git."""
    if path.endswith(".parquet"):
        lfs = {"size": len(content), "oid": hashlib.sha256(content).hexdigest(), "pointerSize": 1}
        return RepoFile(path=path, size=len(content), oid="0" * 40, lfs=lfs)
    return RepoFile(path=path, size=len(content), oid=git_blob_id(content))


class FakeHub:
    """HfApi's publishing methods over in-memory repos; ``fail_commit_to`` simulates the
    network going down when committing to that repo."""

    def __init__(self, monkeypatch):
        self.repos: dict[tuple[str, str], dict[str, bytes]] = {}
        self.calls: list[tuple] = []
        self.tokens: set = set()
        self.fail_commit_to: str | None = None
        hub = self

        def create_repo(api, repo_id, *, repo_type=None, **kwargs):
            hub.tokens.add(api.token)
            hub.calls.append(("create_repo", repo_id, repo_type, kwargs))
            files = hub.repos.setdefault((repo_type, repo_id), {})
            files.setdefault(".gitattributes", b"*.parquet filter=lfs diff=lfs merge=lfs -text\n")
            return f"https://huggingface.co/{repo_id}"

        def list_repo_tree(api, repo_id, *, repo_type=None, recursive=False, **kwargs):
            hub.tokens.add(api.token)
            hub.calls.append(("list_repo_tree", repo_id, repo_type))
            assert recursive
            files = hub.repos[(repo_type, repo_id)]
            return [hub_entry(path, content) for path, content in sorted(files.items())]

        def create_commit(api, repo_id, operations, *, repo_type=None, **kwargs):
            hub.tokens.add(api.token)
            operations = list(operations)
            hub.calls.append(("create_commit", repo_id, repo_type, operations, kwargs))
            if hub.fail_commit_to == repo_id:
                raise ConnectionError("[Errno 101] Network is unreachable")
            files = hub.repos[(repo_type, repo_id)]
            for op in operations:
                if isinstance(op, CommitOperationDelete):
                    del files[op.path_in_repo]
                else:
                    with op.as_file() as stream:
                        files[op.path_in_repo] = stream.read()
            return huggingface_hub.CommitInfo(
                commit_url=f"https://huggingface.co/{repo_id}/commit/c{len(hub.commits())}",
                commit_message=kwargs["commit_message"],
                commit_description="",
                oid="abc",
            )

        def whoami(api, *args, **kwargs):
            hub.calls.append(("whoami",))
            return {"name": "someone"}

        def network(*args, **kwargs):
            raise AssertionError("a method publishing must not use was called")

        for name, method in (
            ("create_repo", create_repo),
            ("list_repo_tree", list_repo_tree),
            ("create_commit", create_commit),
            ("whoami", whoami),
            ("upload_folder", network),
            ("upload_file", network),
        ):
            monkeypatch.setattr(HfApi, name, method)
        monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: False)

    def commits(self):
        return [call for call in self.calls if call[0] == "create_commit"]

    def files(self, repo_type, repo_id):
        return {
            path: content
            for path, content in self.repos[(repo_type, repo_id)].items()
            if path != ".gitattributes"
        }
