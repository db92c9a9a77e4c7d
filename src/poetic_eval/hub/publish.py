"""Publish planned repos (datasets, metric Spaces, a model's eval results) to the hub.

For each repo, through ``huggingface_hub.HfApi``: create it if needed, read its head commit and
its file list, and send ONE ``create_commit`` with every planned file added and the files under
a pruned folder (``data/`` of a dataset) that the plan lacks deleted. ``create_commit`` asks the
hub which files it already holds with the same content, leaves those out, and makes no commit
at all when nothing changed; the commit names the head it was planned on (``parent_commit``), so
a repo changed in between is refused rather than overwritten. A model repo (its
``.eval_results/``) is never created here, and its commit is a pull request unless the token's
user or one of its organisations owns it. A publish that was interrupted
(network down, killed) is finished by running it again: the repos already pushed get no commit.

Every request has a time limit (``timeout``; huggingface_hub's own client has none), and every
failure a user can act on (network, time-out, HTTP error, refused token, a reply that is not
the hub's) is one :class:`PublishError` line. The token goes only to ``HfApi`` and is removed
from any message.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from huggingface_hub import CommitOperationDelete

from ..checks import typed_options
from ..errors import InvalidValueError, PublishError
from ..text.safe_output import printable
from .upload_plan import UNKNOWN_OWNER, RepoUpload, commit_operations

#: Seconds a request may wait for the hub (to connect, and between bytes of a reply).
DEFAULT_TIMEOUT = 60.0
HOW_TO_LOG_IN = "run `hf auth login`, set HF_TOKEN, or pass --token"


@dataclass(frozen=True)
class PublishResult:
    """What publishing did to one repo: the operations sent, and the commit (None: the hub
    already held every file, no commit was made)."""

    plan: RepoUpload
    added: tuple[str, ...]
    deleted: tuple[str, ...]
    commit_url: str | None
    pull_request_url: str | None = None

    def summary(self) -> str:
        if self.commit_url is None:
            return f"{self.plan.name}: unchanged, no commit ({self.plan.url})"
        if self.pull_request_url:
            return (
                f"{self.plan.name}: opened the pull request {self.pull_request_url} "
                f"({len(self.added)} file(s); the repo's owner merges it)"
            )
        deleted = f", deleted {len(self.deleted)}" if self.deleted else ""
        return (
            f"{self.plan.name}: published {self.commit_url} ({len(self.added)} file(s), "
            f"only those that changed sent{deleted})"
        )


@typed_options
def publish(
    plans: Sequence[RepoUpload],
    *,
    token: str,
    private: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    api=None,
    on_result: Callable[[PublishResult], None] | None = None,
) -> list[PublishResult]:
    """Bring every planned repo to its planned files; return what was done to each.

    Refused before any request when a plan has problems (a broken data file). ``on_result``
    is called after each repo (the CLI prints its line), so a failure later on still leaves
    the report of the repos done.
    """
    from huggingface_hub import HfApi
    from huggingface_hub.constants import is_offline_mode

    if not token:
        raise InvalidValueError(f"a Hugging Face token is required to publish: {HOW_TO_LOG_IN}")
    if is_offline_mode():
        raise InvalidValueError("HF_HUB_OFFLINE is set: unset it to publish to the hub")
    if not timeout > 0:
        raise InvalidValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    _refuse_problems(plans)
    api = api if api is not None else HfApi(token=token)
    identity: list[tuple[str, set[str]]] = []  # the token's owner: asked once, when needed

    def token_identity() -> tuple[str, set[str]]:
        if not identity:
            identity.append(_token_identity(api, token, timeout))
        return identity[0]

    results = []
    with bounded_requests(timeout):
        for plan in plans:
            if plan.repo_id.startswith(UNKNOWN_OWNER + "/"):
                plan = plan.with_owner(token_identity()[0])
            # a model repo is someone's model: never created here; a pull request unless ours
            as_pr = plan.repo_type == "model" and not _owns(token_identity(), plan.repo_id)
            result = _publish_repo(
                api, plan, token=token, private=private, timeout=timeout, as_pr=as_pr
            )
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


def _refuse_problems(plans: Sequence[RepoUpload]) -> None:
    broken = [plan for plan in plans if plan.problems]
    if broken:
        plan = broken[0]
        more = len(plan.problems) - 1 + sum(len(other.problems) for other in broken[1:])
        others = f" (and {more} more problem(s))" if more else ""
        raise PublishError(
            f"refusing to publish {plan.name}: {plan.problems[0]}{others}; nothing was "
            "uploaded. Rebuild with `make build`; `poetic-eval publish --dry-run` lists them all"
        )


@contextmanager
def bounded_requests(seconds: float) -> Iterator[None]:
    """Give every request of huggingface_hub's shared HTTP client a time limit, for the
    duration of the block: the client it builds by default has none, so a hub or proxy that
    accepts the connection and never answers would hang for ever. A client the user
    configured with its own limits (``set_client_factory``) keeps them."""
    from huggingface_hub import constants, set_client_factory
    from huggingface_hub.utils import _http

    # the factory in force: not public, and a wrapper needs it; the default otherwise
    previous = getattr(_http, "_GLOBAL_CLIENT_FACTORY", _http.default_client_factory)

    def bounded_client():
        client = previous()
        limits = client.timeout
        if limits.read is None and limits.connect is None:
            # the client's own Timeout class (httpx2 here): no import of the HTTP library
            connect = min(seconds, float(constants.HF_HUB_ETAG_TIMEOUT))
            client.timeout = type(limits)(seconds, connect=connect)
        return client

    set_client_factory(bounded_client)
    try:
        yield
    finally:
        set_client_factory(previous)


def _token_identity(api, token: str, timeout: float) -> tuple[str, set[str]]:
    """The token's user name and the organisations it belongs to."""
    reply = _hub_call(token, timeout, "asking the hub who owns the token", api.whoami)
    name = reply.get("name") if isinstance(reply, dict) else None
    if not isinstance(name, str) or not name:
        raise PublishError(_not_the_hub("asking the hub who owns the token", "no user name"))
    orgs = reply.get("orgs") or []
    return name, {org["name"] for org in orgs if isinstance(org, dict) and org.get("name")}


def _owns(identity: tuple[str, set[str]], repo_id: str) -> bool:
    """Whether the token's user, or one of its organisations (``identity``), owns ``repo_id``."""
    name, orgs = identity
    return repo_id.split("/")[0] in {name, *orgs}


def _publish_repo(
    api, plan: RepoUpload, *, token: str, private: bool, timeout: float, as_pr: bool = False
):
    where = f"{plan.repo_type} repo {plan.repo_id}"

    def call(action: str, request: Callable):
        return _hub_call(token, timeout, f"{action} {where}", request)

    create_options = {"space_sdk": "gradio"} if plan.repo_type == "space" else {}
    if plan.repo_type != "model":
        call(
            "creating",
            lambda: api.create_repo(
                plan.repo_id,
                repo_type=plan.repo_type,
                exist_ok=True,
                private=private,
                **create_options,
            ),
        )
    head = call(
        "reading the head commit of", lambda: api.repo_info(plan.repo_id, repo_type=plan.repo_type)
    ).sha
    if not isinstance(head, str) or not head:
        raise PublishError(_not_the_hub(f"reading the head commit of {where}", "no commit id"))
    listing = call(
        "listing the files of",
        lambda: list(api.list_repo_tree(plan.repo_id, repo_type=plan.repo_type, recursive=True)),
    )
    remote = [entry.path for entry in listing if hasattr(entry, "blob_id")]  # files, not folders
    operations = commit_operations(plan, remote)
    with _quiet_about_empty_commits():
        info = call(
            "committing to",
            lambda: api.create_commit(
                plan.repo_id,
                operations,
                commit_message=_commit_message(plan),
                repo_type=plan.repo_type,
                parent_commit=head,
                create_pr=as_pr,
            ),
        )
    commit = getattr(info, "oid", None)
    if not isinstance(commit, str) or not commit:
        raise PublishError(_not_the_hub(f"committing to {where}", "no commit id"))
    deleted = tuple(op.path_in_repo for op in operations if isinstance(op, CommitOperationDelete))
    added = tuple(file.path_in_repo for file in plan.files)
    # create_commit makes no commit when the hub holds every file: it returns the head
    if commit == head:
        return PublishResult(plan, added, deleted, None)
    pull_request = getattr(info, "pr_url", None) if as_pr else None
    return PublishResult(plan, added, deleted, str(info.commit_url), pull_request)


def _commit_message(plan: RepoUpload) -> str:
    if plan.repo_type == "model":
        return "Add evaluation results (.eval_results) from poetic-eval"
    return f"Publish {plan.name} with poetic-eval"


@contextmanager
def _quiet_about_empty_commits() -> Iterator[None]:
    """Drop create_commit's warning that it skipped an empty commit: the summary says it."""
    import logging

    logger = logging.getLogger("huggingface_hub.hf_api")

    def keep(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("No files have been modified since last")

    logger.addFilter(keep)
    try:
        yield
    finally:
        logger.removeFilter(keep)


def _hub_call(token: str, timeout: float, action: str, call: Callable):
    """Run one hub request; turn the failures a user can act on into one PublishError line."""
    try:
        return call()
    except Exception as error:  # classified below; re-raised when not a user's problem
        message = _explain(error, action, timeout)
        if message is None:
            raise
        raise PublishError(message.replace(token, "***") if token else message) from None


def _explain(error: Exception, action: str, timeout: float) -> str | None:
    from huggingface_hub import constants
    from huggingface_hub.errors import HfHubHTTPError

    again = "run `make publish` again (repos already published are skipped)"
    if isinstance(error, HfHubHTTPError):
        status = getattr(getattr(error, "response", None), "status_code", None)
        if status in (401, 403):
            return (
                f"the hub refused the token (HTTP {status}) while {action}: use a token with "
                "write access to that owner (https://huggingface.co/settings/tokens; "
                f"{HOW_TO_LOG_IN}), or choose another owner with HF_ORG= / --org"
            )
        detail = (getattr(error, "server_message", None) or "").strip().splitlines()
        detail = f": {printable(detail[0])}" if detail else ""  # the server's text
        return f"the hub answered HTTP {status} while {action}{detail}; {again} once that is fixed"
    if _is_timeout(error):
        return (
            f"the hub at {constants.ENDPOINT} did not answer within {timeout:g} s while "
            f"{action}: check the network connection or proxy (or allow longer with "
            f"--timeout), then {again}"
        )
    if _is_network_failure(error):
        reason = str(error).splitlines()[0] if str(error) else "no reply"
        return (
            f"cannot reach the hub at {constants.ENDPOINT} while {action} "
            f"({type(error).__name__}: {reason}): check the network connection, then {again}"
        )
    if isinstance(error, json.JSONDecodeError):
        return _not_the_hub(action, "a reply that is not JSON")
    if isinstance(error, RecursionError) and _raised_in_hub_client(error):
        return _not_the_hub(action, "a reply nested too deeply to read")
    reading = (KeyError, IndexError, TypeError, AttributeError, ValueError)
    if not isinstance(error, reading) or not _raised_in_hub_client(error):
        return None  # a bug here: keep its traceback
    if isinstance(error, KeyError):
        return _not_the_hub(action, f"a reply without the field {error}")
    reason = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
    if isinstance(error, ValueError) and reason:  # e.g. the hub found the README invalid
        return f"the hub client refused {action}: {reason}; {again} once that is fixed"
    return _not_the_hub(action, f"a reply it cannot read ({type(error).__name__})")


def _not_the_hub(action: str, what: str) -> str:
    from huggingface_hub import constants

    return (
        f"{constants.ENDPOINT} gave {what} while {action}: it does not answer as the Hugging "
        "Face hub does (a proxy or captive portal? check HF_ENDPOINT and the network), then "
        "run `make publish` again"
    )


def _raised_in_hub_client(error: Exception) -> bool:
    """Whether ``error`` came from inside huggingface_hub (reading a reply), not this code."""
    frames = traceback.extract_tb(error.__traceback__)
    return any("huggingface_hub" in Path(frame.filename).parts for frame in frames[1:])


def _is_timeout(error: Exception) -> bool:
    names = {cls.__name__ for cls in type(error).__mro__}
    return isinstance(error, TimeoutError) or bool(names & {"TimeoutException", "Timeout"})


def _is_network_failure(error: Exception) -> bool:
    """Connection refused, DNS failure, dropped connection, from any HTTP library."""
    if isinstance(error, (ConnectionError, TimeoutError)):
        return True
    names = {cls.__name__ for cls in type(error).__mro__}
    return bool(names & {"TransportError", "RequestError", "ConnectionError", "Timeout"})
