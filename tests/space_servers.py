"""Serve metric Spaces' apps on 127.0.0.1 for tests/evaluate_modules/test_space_apps.py.

The apps need gradio, which runs in the Spaces' own environment (``.venv-spaces``, or whatever
interpreter :func:`spaces_python` finds); the tests call them from their own process with
``gradio_client``. :class:`AppServers` starts one process that runs each Space's ``app.py`` as
a module (its ``demo`` built, not launched) and launches each ``demo`` on its own port of
127.0.0.1; ``python space_servers.py FOLDER...`` is that process: it prints one JSON line
``{"name", "url"}`` per app, then ``ready``, and serves until its stdin closes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SPACES_VENV = REPO_ROOT / ".venv-spaces"


def spaces_python() -> str | None:
    """An interpreter with gradio: $POETIC_EVAL_SPACES_PYTHON, this one if it has gradio, else
    ``.venv-spaces/bin/python`` (built by ``make setup``); None when there is none."""
    chosen = os.environ.get("POETIC_EVAL_SPACES_PYTHON")
    if chosen:
        return chosen
    if importlib.util.find_spec("gradio") is not None:
        return sys.executable
    candidate = SPACES_VENV / "bin" / "python"
    return str(candidate) if candidate.is_file() else None


def app_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of an app process: offline, no analytics, one thread, and the
    poetic_eval under test first on the path."""
    import poetic_eval

    package_root = str(Path(poetic_eval.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
    return {
        **os.environ,
        "PYTHONPATH": path,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "OMP_NUM_THREADS": "1",
        **(extra or {}),
    }


def wait_for(url: str, process: subprocess.Popen, seconds: float) -> None:
    """Wait until ``url`` answers (or the process ends, or time runs out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app process ended with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {seconds:g} s")


class AppServers:
    """One process serving the apps of the given Space folders; ``urls[name]``."""

    def __init__(self, python: str, folders: list[Path], log: Path, seconds: float = 600):
        self.log = log.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [python, __file__, *map(str, folders)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=app_environment(),
        )
        self.urls: dict[str, str] = {}
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_forward, args=(self.process.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + seconds
        while len(self.urls) < len(folders):
            try:  # a hung start (no line for the rest of the time) fails instead of blocking
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None or line.strip() == "ready":
                break
            entry = json.loads(line)
            self.urls[entry["name"]] = entry["url"]
        if len(self.urls) != len(folders):
            self.close()
            raise RuntimeError(f"the apps did not start within {seconds:g} s; see {log}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def _forward(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)  # the process closed its output


def _serve(folders: list[str]) -> None:
    import runpy

    demos = []
    for folder in map(Path, folders):
        namespace = runpy.run_path(str(folder / "app.py"), run_name="space_app")
        demo = namespace["demo"]
        demo.launch(server_name="127.0.0.1", prevent_thread_lock=True, quiet=True)
        demos.append(demo)
        print(json.dumps({"name": folder.name, "url": demo.local_url}), flush=True)
    print("ready", flush=True)
    sys.stdin.read()  # serve until the test closes our stdin
    for demo in demos:
        demo.close()


if __name__ == "__main__":
    _serve(sys.argv[1:])
