"""Publish planned repos (datasets and metric Spaces) to the Hugging Face hub.

For each repo: create it if needed, list the files the hub holds (with their git and LFS
object ids), and commit, in ONE commit, only the files whose content differs, plus the
deletion of files under a pruned folder (``data/`` of a dataset) that the plan lacks. A repo
that already matches gets no commit. So a publish that was interrupted (network down, killed)
is finished by running it again: the repos already pushed are skipped.

The token comes from the caller (the CLI reads ``HF_TOKEN``), goes only to ``HfApi``, and is
never printed: errors are reported as one :class:`PublishError` line with the token removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..files import UserError
from .upload_plan import UNKNOWN_OWNER, RepoUpload, UploadFile


class PublishError(UserError):
    """Publishing failed in a way the user can act on; the message says how, in one line."""


@dataclass(frozen=True)
class PublishResult:
    """What publishing did to one repo."""

    plan: RepoUpload
    uploaded: tuple[str, ...]
    deleted: tuple[str, ...]
    commit_url: str | None  # None: the repo already matched, no commit

    def summary(self) -> str:
        if self.commit_url is None:
            return f"{self.plan.name}: unchanged, no commit ({self.plan.url})"
        deleted = f", deleted {len(self.deleted)}" if self.deleted else ""
        return (
            f"{self.plan.name}: published {len(self.uploaded)} changed file(s){deleted} "
            f"{self.commit_url}"
        )


def publish(
    plans: Sequence[RepoUpload],
    *,
    token: str,
    private: bool = False,
    api=None,
    on_result: Callable[[PublishResult], None] | None = None,
) -> list[PublishResult]:
    """Bring every planned repo to its planned files; return what was done to each.

    ``on_result`` is called after each repo (the CLI prints its line), so a failure later on
    still leaves the report of the repos done.
    """
    from huggingface_hub import HfApi
    from huggingface_hub.constants import is_offline_mode

    if not token:
        raise ValueError("a Hugging Face token is required to publish (set HF_TOKEN)")
    if is_offline_mode():
        raise ValueError("HF_HUB_OFFLINE is set: unset it to publish to the hub")
    api = api if api is not None else HfApi(token=token)
    owner = None
    results = []
    for plan in plans:
        if plan.repo_id.startswith(UNKNOWN_OWNER + "/"):
            if owner is None:
                owner = _hub_call(token, "asking the hub who owns the token", api.whoami)["name"]
            plan = plan.with_owner(owner)
        result = _publish_repo(api, plan, token=token, private=private)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def _publish_repo(api, plan: RepoUpload, *, token: str, private: bool) -> PublishResult:
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    where = f"{plan.repo_type} repo {plan.repo_id}"
    create_options = {"space_sdk": "gradio"} if plan.repo_type == "space" else {}
    _hub_call(
        token,
        f"creating {where}",
        lambda: api.create_repo(
            plan.repo_id,
            repo_type=plan.repo_type,
            exist_ok=True,
            private=private,
            **create_options,
        ),
    )
    remote = _hub_call(token, f"listing the files of {where}", lambda: _remote_files(api, plan))
    changed = [
        file for file in plan.files if not _same_content(remote.get(file.path_in_repo), file)
    ]
    planned = {file.path_in_repo for file in plan.files}
    stale = sorted(
        path
        for path in remote
        if path not in planned and any(path.startswith(folder) for folder in plan.prune)
    )
    if not changed and not stale:
        return PublishResult(plan, (), (), None)
    operations = [
        CommitOperationAdd(path_in_repo=file.path_in_repo, path_or_fileobj=file.source)
        for file in changed
    ] + [CommitOperationDelete(path_in_repo=path) for path in stale]
    info = _hub_call(
        token,
        f"committing to {where}",
        lambda: api.create_commit(
            plan.repo_id,
            operations,
            commit_message=f"Publish {plan.name} with poetic-eval",
            repo_type=plan.repo_type,
        ),
    )
    return PublishResult(
        plan,
        tuple(file.path_in_repo for file in changed),
        tuple(stale),
        str(getattr(info, "commit_url", info)),
    )


def _remote_files(api, plan: RepoUpload) -> dict:
    """The hub's files of the repo, by path (``RepoFile``: size, blob_id, lfs)."""
    entries = api.list_repo_tree(plan.repo_id, repo_type=plan.repo_type, recursive=True)
    return {entry.path: entry for entry in entries if hasattr(entry, "blob_id")}


def _same_content(remote, local: UploadFile) -> bool:
    """Whether the hub's file has the local content: by LFS sha256, else by git blob id."""
    if remote is None:
        return False
    lfs = getattr(remote, "lfs", None)
    if lfs is not None:
        return lfs.sha256 == local.sha256
    return remote.blob_id == local.git_blob_id


def _hub_call(token: str, action: str, call: Callable):
    """Run one hub request; turn the failures a user can act on into one PublishError line."""
    try:
        return call()
    except Exception as error:  # classified below; re-raised when not a user's problem
        message = _explain(error, action)
        if message is None:
            raise
        raise PublishError(message.replace(token, "***") if token else message) from None


def _explain(error: Exception, action: str) -> str | None:
    from huggingface_hub import constants
    from huggingface_hub.errors import HfHubHTTPError

    if isinstance(error, HfHubHTTPError):
        status = getattr(getattr(error, "response", None), "status_code", None)
        if status in (401, 403):
            return (
                f"the hub refused the token (HTTP {status}) while {action}: set HF_TOKEN to a "
                "token with write access to that owner (https://huggingface.co/settings/tokens), "
                "or choose another owner with HF_ORG= / --org"
            )
        detail = (getattr(error, "server_message", None) or "").strip().splitlines()
        detail = f": {detail[0]}" if detail else ""
        return (
            f"the hub answered HTTP {status} while {action}{detail}; "
            "run `make publish` again once that is fixed (repos already published are skipped)"
        )
    if _is_network_failure(error):
        reason = str(error).splitlines()[0] if str(error) else "no reply"
        return (
            f"cannot reach the hub at {constants.ENDPOINT} while {action} "
            f"({type(error).__name__}: {reason}): "
            "check the network connection, then run `make publish` again "
            "(repos already published are skipped)"
        )
    return None


def _is_network_failure(error: Exception) -> bool:
    """Connection refused, DNS failure, timeout, dropped connection, from any HTTP library."""
    if isinstance(error, (ConnectionError, TimeoutError)):
        return True
    names = {cls.__name__ for cls in type(error).__mro__}
    return bool(names & {"TransportError", "RequestError", "ConnectionError", "Timeout"})
