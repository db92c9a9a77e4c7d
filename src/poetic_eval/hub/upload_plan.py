"""What ``make publish`` pushes: one :class:`RepoUpload` per hub repo, each a list of files.

Dataset repos come from the built dataset folders (:func:`plan_dataset_uploads`); metric
Spaces from the metric folders (:mod:`poetic_eval.evaluate_modules.spaces`). Planning reads local
files only: it is what the dry run prints, and what :func:`poetic_eval.hub.publish` compares
with the hub before committing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

HUB_URL = "https://huggingface.co"
#: The repo owner of a plan made without ``org``: resolved from the token when publishing.
UNKNOWN_OWNER = "<your-hub-user>"


@dataclass(frozen=True)
class UploadFile:
    """One file of a repo: its path in the repo and its content (a local file, or bytes)."""

    path_in_repo: str
    local_path: Path | None = None
    data: bytes | None = field(default=None, repr=False)

    def __post_init__(self):
        if (self.local_path is None) == (self.data is None):
            raise ValueError(f"{self.path_in_repo}: give exactly one of local_path and data")

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else self.local_path.stat().st_size

    @property
    def source(self) -> str | bytes:
        """What ``CommitOperationAdd(path_or_fileobj=...)`` takes."""
        return self.data if self.data is not None else str(self.local_path)

    def read_bytes(self) -> bytes:
        return self.data if self.data is not None else self.local_path.read_bytes()

    @cached_property
    def sha256(self) -> str:
        """Hex SHA-256 of the content: the hub's LFS oid of a file stored in LFS."""
        return hashlib.sha256(self.read_bytes()).hexdigest()

    @cached_property
    def git_blob_id(self) -> str:
        """The git object id of the content: the hub's ``blob_id`` of a file stored in git."""
        content = self.read_bytes()
        return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


@dataclass(frozen=True)
class RepoUpload:
    """One hub repo and the files it should hold after publishing.

    ``prune`` lists the folders whose files the repo may hold only if they are planned: a file
    under them that this build lacks is deleted in the same commit (``data/`` of a dataset).
    """

    name: str
    repo_id: str
    repo_type: str  # "dataset" or "space"
    files: tuple[UploadFile, ...]
    prune: tuple[str, ...] = ()
    kind: str = ""  # shown by the dry run
    # re-plans this repo for another owner, when its files name their own repo
    replan: Callable[[str], RepoUpload] | None = field(default=None, compare=False, repr=False)

    @property
    def total_size(self) -> int:
        return sum(file.size for file in self.files)

    @property
    def url(self) -> str:
        return repo_url(self.repo_id, self.repo_type)

    def with_owner(self, owner: str) -> RepoUpload:
        """This plan for the repo ``<owner>/<name>``."""
        if self.replan is not None:
            return self.replan(owner)
        return RepoUpload(
            self.name, f"{owner}/{self.name}", self.repo_type, self.files, self.prune, self.kind
        )


def repo_url(repo_id: str, repo_type: str) -> str:
    """The hub page of a repo."""
    prefix = {"dataset": "datasets/", "space": "spaces/"}.get(repo_type, "")
    return f"{HUB_URL}/{prefix}{repo_id}"


def built_dataset_folders(datasets_dir: str | Path) -> list[Path]:
    """Sub-folders of ``datasets_dir`` holding a ``README.md`` card, sorted by name."""
    datasets_dir = Path(datasets_dir)
    if not datasets_dir.is_dir():
        raise FileNotFoundError(
            f"datasets folder {datasets_dir} does not exist: run `make build` first "
            "(`make publish` builds it)"
        )
    return sorted(
        folder
        for folder in datasets_dir.iterdir()
        if folder.is_dir() and not folder.name.startswith(".") and (folder / "README.md").is_file()
    )


def plan_dataset_uploads(datasets_dir: str | Path, org: str | None) -> list[RepoUpload]:
    """One dataset repo per built folder: its card and every file under ``data/``.

    ``org`` None names the repos ``<your-hub-user>/<name>`` (resolved from the token when
    publishing for real).
    """
    folders = built_dataset_folders(datasets_dir)
    if not folders:
        raise FileNotFoundError(
            f"no built datasets in {datasets_dir} (sub-folders with a README.md card): "
            "run `make build` first"
        )
    return [_plan_dataset_folder(folder, org or UNKNOWN_OWNER) for folder in folders]


def _plan_dataset_folder(folder: Path, owner: str) -> RepoUpload:
    card = folder / "README.md"
    read_card_header(card, what="dataset card", fix=", or rebuild it (make build)")
    data_files = sorted(path for path in (folder / "data").rglob("*") if path.is_file())
    if not data_files:
        raise ValueError(f"{folder} has no files under data/: the build is incomplete")
    files = tuple(
        UploadFile(path.relative_to(folder).as_posix(), local_path=path)
        for path in [card, *data_files]
    )
    return RepoUpload(
        folder.name, f"{owner}/{folder.name}", "dataset", files, ("data/",), "dataset repo"
    )


def read_card_header(card: Path, *, what: str, fix: str = "") -> tuple[dict, str]:
    """A card's YAML header (a dict) and its body; ValueError naming the file otherwise
    (``fix``: how else to repair it, added to the message)."""
    try:
        text = card.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{card} is not UTF-8 (byte {error.start}): save the {what} as UTF-8{fix}"
        ) from None
    if not text.startswith("---\n") or "\n---\n" not in text[3:]:
        raise ValueError(f"{card} has no YAML header (--- ... ---): not a {what} of poetic-eval")
    end = text.index("\n---\n", 3)
    try:
        header = yaml.safe_load(text[4:end])
    except yaml.YAMLError as error:
        raise ValueError(f"{card}: the YAML header does not parse: {error}") from None
    if not isinstance(header, dict):
        raise ValueError(f"{card}: the YAML header is not a mapping of keys to values")  # noqa: TRY004
    return header, text[end + len("\n---\n") :]


def describe_plan(plans: Sequence[RepoUpload]) -> str:
    """The dry-run listing: each repo, then each file with its size in bytes."""
    out = []
    for plan in plans:
        out.append(
            f"{plan.name} -> {plan.url} ({plan.kind or plan.repo_type}, one commit, "
            f"{len(plan.files)} files, {plan.total_size:,} bytes)"
        )
        width = max(len(file.path_in_repo) for file in plan.files)
        for file in plan.files:
            out.append(f"  {file.path_in_repo:<{width}}  {file.size:>12,} bytes")
    counts = {}
    for plan in plans:
        counts[plan.repo_type] = counts.get(plan.repo_type, 0) + 1
    summary = ", ".join(f"{n} {kind} repo(s)" for kind, n in counts.items()) or "no repos"
    total = sum(plan.total_size for plan in plans)
    out.append(f"{summary}, {total:,} bytes in all")
    return "\n".join(out)
