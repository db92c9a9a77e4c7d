"""Test doubles for publishing: an in-process HTTP stand-in for the hub's API, which the real
``HfApi`` talks to (so ``create_commit``'s own skipping of unchanged files and of empty
commits is what the tests exercise), and servers that misbehave as a broken network or proxy
does (accepts and never answers; answers what is not the hub's JSON)."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import huggingface_hub


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


class _Server:
    """A threaded HTTP server on a free local port; ``respond(handler)`` answers each request."""

    def __init__(self, respond):
        class Handler(BaseHTTPRequestHandler):
            def _any(self):
                respond(self)

            do_GET = do_POST = do_PUT = do_DELETE = _any

            def log_message(self, *args):  # keep test output clean
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def send(handler, status: int, body, content_type="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def point_the_client_at(monkeypatch, url: str) -> None:
    """Make huggingface_hub talk to ``url`` with offline mode off (the tests set it on)."""
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", url)
    monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)


class FakeHub:
    """The hub's API endpoints that ``HfApi`` uses to publish, over in-memory repos.

    ``repos[(repo_type, repo_id)]`` maps each path to its bytes; ``calls`` records each
    request as ``(name, repo_id, repo_type, details)``; ``tokens`` the bearer tokens seen;
    ``fail_commit_to`` a repo id whose commit request gets the connection dropped (the network
    going down), ``refuse_with`` an HTTP 401 body sent to every request.
    """

    def __init__(self, monkeypatch):
        self.repos: dict[tuple[str, str], dict[str, bytes]] = {}
        self.heads: dict[tuple[str, str], str] = {}
        self.calls: list[tuple] = []
        self.tokens: set = set()
        self.fail_commit_to: str | None = None
        self.refuse_with: str | None = None
        # who the token is (whoami): a model repo of another owner gets a pull request
        self.user = "someone"
        self.orgs: list[str] = []
        # (repo_type, repo_id) -> [{path: bytes}] of each pull request, not merged into main
        self.pull_requests: dict[tuple[str, str], list[dict[str, bytes]]] = {}
        self._lock = threading.Lock()
        self._server = _Server(self._respond)
        self.url = self._server.url
        point_the_client_at(monkeypatch, self.url)

    def close(self):
        self._server.close()

    # what the tests read
    def commits(self):
        return [call for call in self.calls if call[0] == "create_commit"]

    def files(self, repo_type, repo_id):
        return {
            path: content
            for path, content in self.repos[(repo_type, repo_id)].items()
            if path != ".gitattributes"
        }

    def add_repo(self, repo_type, repo_id, files: dict[str, bytes]):
        """A repo that exists on the hub before publishing."""
        self.repos[(repo_type, repo_id)] = {".gitattributes": b"*.parquet filter=lfs\n", **files}
        self._new_head((repo_type, repo_id))

    def _new_head(self, key):
        self.heads[key] = hashlib.sha1(repr(sorted(self.repos[key].items())).encode()).hexdigest()

    # the API
    def _respond(self, handler):
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        auth = handler.headers.get("Authorization", "")
        self.tokens.add(auth.removeprefix("Bearer ") or None)
        if self.refuse_with is not None:
            return send(handler, 401, {"error": self.refuse_with})
        url = urlsplit(handler.path)
        with self._lock:
            self.query = url.query  # of the request being routed (one at a time)
            return self._route(handler, handler.command, url.path.split("/")[1:], body)

    def _route(self, handler, method, parts, body):
        if parts == ["api", "whoami-v2"]:
            self.calls.append(("whoami",))
            orgs = [{"name": org, "type": "org"} for org in self.orgs]
            return send(handler, 200, {"name": self.user, "type": "user", "orgs": orgs})
        if parts == ["api", "repos", "create"]:
            return self._create_repo(handler, json.loads(body))
        if parts == ["api", "validate-yaml"]:
            return send(handler, 200, {"errors": [], "warnings": []})
        if len(parts) >= 4 and parts[0] == "api" and parts[1] in ("datasets", "spaces", "models"):
            key = (parts[1][:-1], f"{parts[2]}/{parts[3]}")
            if key not in self.repos:
                return send(handler, 404, {"error": "Repository not found"})
            action = parts[4] if len(parts) > 4 else "info"
            if action in ("info", "revision"):
                return send(handler, 200, {"id": key[1], "sha": self.heads[key]})
            if action == "tree":
                return self._tree(handler, key)
            if action == "preupload":
                return self._preupload(handler, key, json.loads(body))
            if action == "commit" and method == "POST":
                return self._commit(handler, key, body)
        return send(handler, 404, {"error": f"the fake hub has no {method} /{'/'.join(parts)}"})

    def _create_repo(self, handler, payload):
        repo_type = payload.get("type") or "model"
        repo_id = f"{payload['organization']}/{payload['name']}"
        options = {"space_sdk": payload.get("sdk"), "private": payload.get("private")}
        self.calls.append(("create_repo", repo_id, repo_type, options))
        url = f"{self.url}/{repo_id}"  # the hub sends it with a 409 too (HfApi reads it)
        if (repo_type, repo_id) in self.repos:
            return send(handler, 409, {"error": "You already created this repo", "url": url})
        self.add_repo(repo_type, repo_id, {})
        return send(handler, 200, {"url": url})

    def _tree(self, handler, key):
        self.calls.append(("list_repo_tree", key[1], key[0]))
        files = self.repos[key]
        folders = sorted({p.rsplit("/", 1)[0] for p in files if "/" in p})
        entries = [{"type": "directory", "path": f, "oid": "0" * 40, "size": 0} for f in folders]
        entries += [
            {"type": "file", "path": p, "size": len(c), "oid": git_blob_id(c)}
            for p, c in sorted(files.items())
        ]
        return send(handler, 200, entries)

    def _preupload(self, handler, key, payload):
        files = self.repos[key]
        answer = [
            {
                "path": item["path"],
                "uploadMode": "regular",  # no LFS store: the content travels in the commit
                "shouldIgnore": False,
                "oid": git_blob_id(files[item["path"]]) if item["path"] in files else None,
            }
            for item in payload["files"]
        ]
        return send(handler, 200, {"files": answer})

    def _commit(self, handler, key, body):
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        header = lines[0]["value"]
        operations = [(line["key"], line["value"]["path"]) for line in lines[1:]]
        self.calls.append(("create_commit", key[1], key[0], operations, header))
        if self.fail_commit_to == key[1]:
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)  # dropped: no reply at all
            return None
        if header.get("parentCommit") not in (None, self.heads[key]):
            return send(handler, 412, {"error": "the branch moved since parentCommit"})
        if "create_pr=1" in self.query.split("&"):
            return self._pull_request(handler, key, lines[1:])
        files = self.repos[key]
        for line in lines[1:]:
            value = line["value"]
            if line["key"] == "file":
                files[value["path"]] = base64.b64decode(value["content"])
            elif line["key"] == "deletedFile":
                del files[value["path"]]
        self._new_head(key)
        sha = self.heads[key]
        prefix = {"dataset": "datasets/", "space": "spaces/"}.get(key[0], "")
        return send(
            handler,
            200,
            {
                "commitUrl": f"https://huggingface.co/{prefix}{key[1]}/commit/{sha[:7]}",
                "commitOid": sha,
                "pullRequestUrl": None,
            },
        )

    def _pull_request(self, handler, key, lines):
        """A commit sent with create_pr=1: kept as a pull request, main untouched."""
        files = {
            line["value"]["path"]: base64.b64decode(line["value"]["content"])
            for line in lines
            if line["key"] == "file"
        }
        requests = self.pull_requests.setdefault(key, [])
        requests.append(files)
        number = len(requests)
        prefix = {"dataset": "datasets/", "space": "spaces/"}.get(key[0], "")
        page = f"https://huggingface.co/{prefix}{key[1]}"
        return send(
            handler,
            200,
            {
                "commitUrl": f"{page}/commit/pr{number:05d}",
                "commitOid": hashlib.sha1(repr(sorted(files.items())).encode()).hexdigest(),
                "pullRequestUrl": f"{page}/discussions/{number}",
            },
        )


class MisbehavingServer:
    """A local server that is not the hub: ``"hang"`` accepts connections and never answers;
    ``"html"`` answers every request 200 with a web page; ``"empty"`` with ``{}``."""

    def __init__(self, mode: str):
        self.mode = mode
        if mode == "hang":
            self._socket = socket.socket()
            self._socket.bind(("127.0.0.1", 0))
            self._socket.listen(64)  # the kernel accepts; nobody ever reads or answers
            self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        else:
            page = b"<html><body>Please log in to the proxy</body></html>"
            self._server = _Server(
                lambda handler: (
                    send(handler, 200, page, "text/html")
                    if mode == "html"
                    else send(handler, 200, {})
                )
            )
            self.url = self._server.url

    def close(self):
        if self.mode == "hang":
            self._socket.close()
        else:
            self._server.close()
