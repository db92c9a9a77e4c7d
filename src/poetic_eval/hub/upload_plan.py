"""What ``make publish`` pushes: one :class:`RepoUpload` per hub repo, each a list of files.

Dataset repos come from the built dataset folders (:func:`plan_dataset_uploads`): the card and
exactly the data files its ``configs:`` lists, each a regular file inside the folder; anything
else there is left out and named. Metric Spaces come from the metric folders
(:mod:`poetic_eval.evaluate_modules.spaces`). Planning reads local files only, and
:func:`commit_operations` turns a plan into the ``CommitOperationAdd`` /
``CommitOperationDelete`` list that :func:`poetic_eval.hub.publish` sends in one
``HfApi.create_commit`` (which itself leaves out the files the hub already holds, and makes no
commit when nothing changed). The dry run prints those same operations.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pyarrow as pa
from huggingface_hub import CommitOperationAdd, CommitOperationDelete

from ..errors import InvalidValueError
from ..files.dataset_cards import BuiltCard, read_built_card
from ..files.parquet_files import parquet_footer
from ..report.eval_results import EVAL_RESULTS_FOLDER
from .eval_yaml import EVAL_YAML, eval_yaml_text

HUB_URL = "https://huggingface.co"
#: The repo owner of a plan made without ``org``: resolved from the token when publishing.
UNKNOWN_OWNER = "<your-hub-user>"
CARD = "README.md"


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

    def read_bytes(self) -> bytes:
        return self.data if self.data is not None else self.local_path.read_bytes()

    def operation(self) -> CommitOperationAdd:
        """The commit operation adding this file (a new one each time: the hub client mutates
        and then refuses to reuse them)."""
        source = self.data if self.data is not None else str(self.local_path)
        return CommitOperationAdd(path_in_repo=self.path_in_repo, path_or_fileobj=source)


@dataclass(frozen=True)
class RepoUpload:
    """One hub repo and the files it should hold after publishing.

    ``prune`` lists the folders whose files the repo may hold only if they are planned: a file
    under them that this build lacks is deleted in the same commit (``data/`` of a dataset).
    ``left_out`` names local files that are not uploaded and why; ``problems`` are reasons
    the repo must not be published (a data file that is missing, a link, or not a readable
    parquet file with the card's row count): the dry run shows them as warnings, publishing
    refuses.
    """

    name: str
    repo_id: str
    repo_type: str  # "dataset" or "space"
    files: tuple[UploadFile, ...]
    prune: tuple[str, ...] = ()
    kind: str = ""  # shown by the dry run
    # re-plans this repo for another owner, when its files name their own repo
    replan: Callable[[str], RepoUpload] | None = field(default=None, compare=False, repr=False)
    left_out: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

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
            self.name,
            f"{owner}/{self.name}",
            self.repo_type,
            self.files,
            self.prune,
            self.kind,
            left_out=self.left_out,
            problems=self.problems,
        )


def commit_operations(
    plan: RepoUpload, remote_paths: Iterable[str] = ()
) -> list[CommitOperationAdd | CommitOperationDelete]:
    """The operations of the plan's one commit: every planned file added, then every file of
    ``remote_paths`` (what the hub holds) under a pruned folder that the plan lacks deleted."""
    planned = {file.path_in_repo for file in plan.files}
    stale = sorted(
        path
        for path in remote_paths
        if path not in planned and any(path.startswith(folder) for folder in plan.prune)
    )
    return [file.operation() for file in plan.files] + [
        CommitOperationDelete(path_in_repo=path) for path in stale
    ]


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
        if folder.is_dir() and not folder.name.startswith(".") and (folder / CARD).is_file()
    )


def plan_dataset_uploads(datasets_dir: str | Path, org: str | None) -> list[RepoUpload]:
    """One dataset repo per built folder: its card and the data files the card lists.

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
    card_path = folder / CARD
    card = read_built_card(folder)  # read once; a malformed field is named
    listed = card.listed_paths
    if not listed:
        raise InvalidValueError(
            f"{card_path} lists no data files (configs: data_files): rebuild it"
        )
    found = {path: _data_file_problem(card, path) for path in listed}
    problems = [problem for problem in found.values() if problem]
    if card_path.is_symlink():
        problems.insert(0, f"{CARD} is a symbolic link; publish uploads regular files only")
    sound = [path for path, problem in found.items() if not problem]
    problems += _row_count_problems(card, set(sound))
    files = [UploadFile(CARD, local_path=card_path)]
    files += [UploadFile(path, local_path=folder / path) for path in sound]
    # the tasks of its leaderboard (eval_yaml.py), read from sound files: a broken build is
    # refused anyway, and its dry run lists the problems
    benchmark = None if problems else eval_yaml_text(card)
    if benchmark is not None:
        files.append(UploadFile(EVAL_YAML, data=benchmark.encode("utf-8")))
    return RepoUpload(
        folder.name,
        f"{owner}/{folder.name}",
        "dataset",
        tuple(files),
        ("data/",),
        "dataset repo",
        left_out=tuple(_unlisted_files(folder, {CARD, EVAL_YAML, *listed})),
        problems=tuple(problems),
    )


def plan_eval_results(folder: str | Path, model_repo: str) -> RepoUpload:
    """The model repo ``model_repo`` and the ``.eval_results/*.yaml`` files of ``folder`` (what
    ``poetic-eval report --eval-results`` wrote). Publishing sends them in one commit, as a
    pull request when the token's user does not own the repo; nothing there is deleted."""
    if model_repo.count("/") != 1 or not all(model_repo.split("/")):
        raise InvalidValueError(
            f"--model-repo {model_repo!r}: give OWNER/NAME, the model's hub repo"
        )
    results = Path(folder) / EVAL_RESULTS_FOLDER
    found = sorted(results.glob("*.yaml")) if results.is_dir() else []
    if not found:
        raise FileNotFoundError(
            f"no {EVAL_RESULTS_FOLDER}/*.yaml in {folder}: write them with `poetic-eval report "
            "--eval-results DIR --eval-dataset ...`"
        )
    files = tuple(
        UploadFile(f"{EVAL_RESULTS_FOLDER}/{path.name}", local_path=path) for path in found
    )
    return RepoUpload(
        model_repo.split("/")[1],
        model_repo,
        "model",
        files,
        kind="model repo, eval results; a pull request unless the token's user or org owns it",
    )


def _is_safe(path: str) -> bool:
    """Whether a path the card lists stays inside the folder, under data/."""
    parts = PurePosixPath(path).parts
    return (
        len(parts) > 1
        and parts[0] == "data"
        and ".." not in parts
        and "\\" not in path
        and path.isprintable()
    )


def _data_file_problem(card: BuiltCard, path: str) -> str | None:
    """Why the listed data file ``path`` cannot be published as it is (None when it can)."""
    if not _is_safe(path):
        return f"{shown(path)}: the card lists a path outside data/; rebuild the card"
    folder = card.folder
    local = folder / path
    relative = local.relative_to(folder)
    for part in [*reversed(relative.parents[:-1]), relative]:
        if (folder / part).is_symlink():
            what = "a symbolic link" if part == relative else f"under the symbolic link {part}"
            return f"{path}: {what}; publish uploads regular files only"
    try:
        mode = local.lstat().st_mode
    except FileNotFoundError:
        return f"{path}: listed in the card but missing: the build is incomplete"
    if not stat.S_ISREG(mode):
        return f"{path}: not a regular file"
    if path.endswith(".parquet"):
        return _parquet_problem(card, local, path)
    return None


def _parquet_problem(card: BuiltCard, local: Path, path: str) -> str | None:
    try:
        parquet_footer(card, local)  # kept on the card: the row count and columns reuse it
    except (pa.ArrowException, OSError) as error:
        size = local.stat().st_size
        reason = "0 bytes" if size == 0 else f"{size:,} bytes, {str(error).splitlines()[0]}"
        return f"{path}: not a readable parquet file ({reason}); the build is broken"
    return None


def _row_count_problems(card: BuiltCard, sound: set[str]) -> list[str]:
    """A sound parquet file whose row count differs from the card's ``num_examples`` of its
    split (checked where a split is one file, the layout the builders write)."""
    problems = []
    for config in card.configs:
        counts = card.counts(config.name)
        for split, paths in config.data_files.items():
            if len(paths) != 1:
                continue
            path = paths[0]
            if path not in sound or not path.endswith(".parquet"):
                continue
            expected = counts.get(split)
            n_rows = parquet_footer(card, card.folder / path).num_rows
            if expected is not None and n_rows != expected:
                problems.append(
                    f"{path}: {n_rows:,} rows, the card says {expected:,}; "
                    "the file was changed or truncated after the build"
                )
    return problems


def _unlisted_files(folder: Path, listed: set[str]) -> list[str]:
    """Files and links in ``folder`` (links not followed) that the card does not list."""
    found = []
    for current, folders, names in os.walk(folder, followlinks=False):
        links = [name for name in folders if (Path(current) / name).is_symlink()]
        for name in sorted(names + links):
            relative = (Path(current) / name).relative_to(folder).as_posix()
            if relative not in listed:
                found.append(relative)
    return sorted(found)


def shown(path: str) -> str:
    """A path as printed: as it is when printable, else escaped (a name cannot add lines)."""
    return path if path.isprintable() else ascii(path)


def describe_plan(plans: Sequence[RepoUpload]) -> str:
    """The dry-run listing: each repo, then the operations of its commit (each file with its
    size in bytes; names only, never content), the files left out, and the warnings."""
    out = []
    for plan in plans:
        out.append(
            f"{plan.name} -> {plan.url} ({plan.kind or plan.repo_type}, one commit, "
            f"{len(plan.files)} files, {plan.total_size:,} bytes)"
        )
        width = max(len(shown(file.path_in_repo)) for file in plan.files)
        for file in plan.files:
            out.append(f"  add     {shown(file.path_in_repo):<{width}}  {file.size:>12,} bytes")
        for folder in plan.prune:
            out.append(f"  delete  any file under {folder} on the hub that is not listed above")
        for path in plan.left_out:
            out.append(f"  left out (not listed in the card): {shown(path)}")
        for problem in plan.problems:
            out.append(f"  warning: {problem}; publishing {plan.name} is refused until fixed")
    counts: dict[str, int] = {}
    for plan in plans:
        counts[plan.repo_type] = counts.get(plan.repo_type, 0) + 1
    summary = ", ".join(f"{n} {kind} repo(s)" for kind, n in counts.items()) or "no repos"
    total = sum(plan.total_size for plan in plans)
    out.append(f"{summary}, {total:,} bytes in all")
    return "\n".join(out)
