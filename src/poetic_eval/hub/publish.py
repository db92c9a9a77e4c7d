"""Publish built dataset folders (``make build``) to the Hugging Face hub, or plan it (dry run).

Every sub-folder of the datasets folder that holds a ``README.md`` card is one dataset repo:
``<org>/<folder name>``. Its ``README.md`` and every file under ``data/`` go up in ONE commit
(all configs together); files under ``data/`` that the repo has from an earlier build and this
build lacks are deleted in the same commit, so the repo matches the folder. The token comes
from the caller (the CLI reads ``HF_TOKEN``) and is never printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HUB_URL = "https://huggingface.co/datasets"
UNKNOWN_OWNER = "<your-hub-user>"


@dataclass(frozen=True)
class UploadFile:
    """One file of a dataset repo: where it goes in the repo, where it is, its size in bytes."""

    path_in_repo: str
    local_path: Path
    size: int


@dataclass(frozen=True)
class DatasetUpload:
    """One dataset folder and the repo it goes to."""

    name: str
    repo_id: str
    folder: Path
    files: tuple[UploadFile, ...]

    @property
    def total_size(self) -> int:
        return sum(file.size for file in self.files)


def built_dataset_folders(datasets_dir: str | Path) -> list[Path]:
    """Sub-folders of ``datasets_dir`` holding a ``README.md`` card, sorted by name."""
    datasets_dir = Path(datasets_dir)
    if not datasets_dir.is_dir():
        raise FileNotFoundError(
            f"datasets folder {datasets_dir} does not exist: run `make build` first"
        )
    return sorted(
        folder
        for folder in datasets_dir.iterdir()
        if folder.is_dir() and not folder.name.startswith(".") and (folder / "README.md").is_file()
    )


def plan_uploads(datasets_dir: str | Path, org: str | None) -> list[DatasetUpload]:
    """What :func:`publish` would upload: one :class:`DatasetUpload` per built dataset.

    ``org`` None names the repos ``<your-hub-user>/<name>`` (resolved from the token when
    publishing for real).
    """
    folders = built_dataset_folders(datasets_dir)
    if not folders:
        raise FileNotFoundError(
            f"no built datasets in {datasets_dir} (sub-folders with a README.md card): "
            "run `make build` first"
        )
    return [_plan_folder(folder, org or UNKNOWN_OWNER) for folder in folders]


def _plan_folder(folder: Path, owner: str) -> DatasetUpload:
    card = folder / "README.md"
    if not card.read_text(encoding="utf-8").startswith("---\n"):
        raise ValueError(f"{card} has no YAML header: not a dataset card built by poetic-eval")
    data_files = sorted(path for path in (folder / "data").rglob("*") if path.is_file())
    if not data_files:
        raise ValueError(f"{folder} has no files under data/: the build is incomplete")
    files = tuple(
        UploadFile(path.relative_to(folder).as_posix(), path, path.stat().st_size)
        for path in [card, *data_files]
    )
    return DatasetUpload(folder.name, f"{owner}/{folder.name}", folder, files)


def describe_plan(plans: Sequence[DatasetUpload]) -> str:
    """The dry-run listing: each repo, then each file with its size in bytes."""
    out = []
    for plan in plans:
        out.append(
            f"{plan.name} -> {HUB_URL}/{plan.repo_id} (dataset repo, one commit, "
            f"{len(plan.files)} files, {plan.total_size:,} bytes)"
        )
        width = max(len(file.path_in_repo) for file in plan.files)
        for file in plan.files:
            out.append(f"  {file.path_in_repo:<{width}}  {file.size:>12,} bytes")
    total = sum(plan.total_size for plan in plans)
    out.append(f"{len(plans)} dataset repo(s), {total:,} bytes in all")
    return "\n".join(out)


def publish(
    plans: Sequence[DatasetUpload],
    *,
    token: str,
    private: bool = False,
    api=None,
) -> list[str]:
    """Create each repo if needed and push its folder in one commit; return the commit URLs."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi
    from huggingface_hub.constants import is_offline_mode

    if not token:
        raise ValueError("a Hugging Face token is required to publish (set HF_TOKEN)")
    if is_offline_mode():
        raise ValueError("HF_HUB_OFFLINE is set: unset it to publish to the hub")
    api = api if api is not None else HfApi(token=token)
    owner = None
    urls = []
    for plan in plans:
        repo_id = plan.repo_id
        if repo_id.startswith(UNKNOWN_OWNER + "/"):
            owner = owner or api.whoami()["name"]
            repo_id = f"{owner}/{plan.name}"
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True, private=private)
        planned = {file.path_in_repo for file in plan.files}
        stale = [
            path
            for path in api.list_repo_files(repo_id, repo_type="dataset")
            if path.startswith("data/") and path not in planned
        ]
        operations = [
            CommitOperationAdd(path_in_repo=file.path_in_repo, path_or_fileobj=str(file.local_path))
            for file in plan.files
        ] + [CommitOperationDelete(path_in_repo=path) for path in stale]
        info = api.create_commit(
            repo_id,
            operations,
            commit_message=f"Publish {plan.name}: all configs, built by poetic-eval",
            repo_type="dataset",
        )
        urls.append(str(getattr(info, "commit_url", info)))
    return urls
