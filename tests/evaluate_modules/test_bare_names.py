"""`evaluate.load("<name>")` by bare name, in fresh processes started in empty folders: offline,
online (a local stand-in for the hub), from a published Space, in distributed mode, and what
happens when the hub has a canonical module of the same name."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from metric_examples import assert_same, example_result

import poetic_eval
from poetic_eval.evaluate_modules.bare_names import (
    POINTER_MARKER,
    install_metrics,
    installed_pointer,
    metrics_cache_dir,
    remove_metrics,
)
from poetic_eval.evaluate_modules.spaces import plan_metric_spaces, write_space

METRICS = poetic_eval.available_metrics()
EXAMPLES = Path(__file__).parent.parent / "metric_examples.py"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_env(modules_cache: Path, tmp_path: Path, **overrides: str) -> dict:
    """The environment of a new user's process: no offline switches of the test suite, the
    module cache under test, caches in tmp_path, and no route to the real hub."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE", "PYTHONPATH")
    }
    env.update(
        HF_MODULES_CACHE=str(modules_cache),
        HF_METRICS_CACHE=str(tmp_path / "metrics-cache"),
        HF_UPDATE_DOWNLOAD_COUNTS="0",  # evaluate would count loads on S3
        HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}",
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    env.update(overrides)
    return env


def run_fresh(script: list[str], env: dict, cwd: Path, timeout: int = 600):
    completed = subprocess.run(
        [sys.executable, *script], env=env, cwd=cwd, capture_output=True, text=True,
        timeout=timeout, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed


@pytest.fixture()
def modules_cache(tmp_path):
    cache = tmp_path / "modules"
    install_metrics(modules_cache=cache)
    return cache


def test_install_writes_one_newest_pointer_per_metric_idempotently(tmp_path):
    cache = tmp_path / "modules"
    first = install_metrics(modules_cache=cache)
    assert [m.name for m in first] == METRICS
    again = install_metrics(modules_cache=cache)
    assert [m.pointer for m in again] == [m.pointer for m in first]
    root = metrics_cache_dir(cache)
    assert root == cache / "evaluate_modules" / "metrics"
    for metric in first:
        folder = root / f"evaluate-metric--{metric.name}"
        versions = [p for p in folder.iterdir() if p.is_dir()]
        assert [p.name for p in versions] == [metric.pointer.parent.name]
        assert len(versions[0].name) == 64  # evaluate only considers 64-hex folders
        for package in (cache, cache / "evaluate_modules", root, folder, versions[0]):
            assert (package / "__init__.py").is_file()
        assert metric.module_folder == poetic_eval.metric_path(metric.name)
        assert installed_pointer(metric.name, modules_cache=cache) == metric.pointer
    with pytest.raises(ValueError, match="unknown metric 'nope'; choices: "):
        install_metrics(["nope"], modules_cache=cache)


def test_remove_deletes_only_our_pointers(tmp_path):
    cache = tmp_path / "modules"
    ours = install_metrics(["mtld", "rhyme_kl"], modules_cache=cache)
    assert all(POINTER_MARKER in m.pointer.read_text(encoding="utf-8") for m in ours)
    root = metrics_cache_dir(cache)
    theirs = root / "evaluate-metric--accuracy" / ("a" * 64)
    theirs.mkdir(parents=True)
    (theirs / "accuracy.py").write_text("# the hub's accuracy\n", encoding="utf-8")
    newer_hub_copy = root / "evaluate-metric--mtld" / ("b" * 64)
    newer_hub_copy.mkdir()
    (newer_hub_copy / "mtld.py").write_text("# a hub module named mtld\n", encoding="utf-8")
    assert installed_pointer("mtld", modules_cache=cache) is None  # the hub copy is newer
    removed = remove_metrics(modules_cache=cache)
    assert removed == [m.pointer.parent for m in ours]  # our version folders, and only them
    assert not (root / "evaluate-metric--rhyme_kl").exists()  # nothing else was in it
    left = [p.name for p in (root / "evaluate-metric--mtld").iterdir() if p.is_dir()]
    assert left == ["b" * 64]  # the hub's copy stays
    assert (theirs / "accuracy.py").is_file() and (newer_hub_copy / "mtld.py").is_file()


def test_every_metric_by_bare_name_offline_in_a_fresh_process(modules_cache, tmp_path):
    """HF_HUB_OFFLINE=1, an empty folder, a new process: evaluate.load(NAME) runs each module's
    documented example with the same result as poetic_eval.load_metric(NAME)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "results.json"
    env = fresh_env(modules_cache, tmp_path, HF_HUB_OFFLINE="1")
    run_fresh([str(EXAMPLES), str(out), *METRICS], env, empty)
    results = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(results) == METRICS
    for name in METRICS:
        assert_same(results[name], example_result(name, poetic_eval.load_metric), name)
    assert list(empty.iterdir()) == []


_ONLINE_SCRIPT = r"""
import json, sys, threading, uuid
import evaluate
sys.path.insert(0, sys.argv[2])
from metric_examples import example_result

poems = ["The cat sat on the mat,\nthe cat sat still.", "A bird sang in the tree\nand so did I.",
         "the night is long\nthe stars are bright", "a river runs\nbeneath the hill"]
out = {
    "bare": example_result("mtld", evaluate.load),
    "space": example_result("my-org/mtld", evaluate.load),
    "namesake": evaluate.load("rhyme_kl").compute(predictions=["a", "b"]),
    "single": evaluate.load("mtld").compute(predictions=poems, window=5),
}
experiment = uuid.uuid4().hex
results = [None, None]

def work(process_id):
    metric = evaluate.load("mtld", num_process=2, process_id=process_id, experiment_id=experiment)
    metric.add_batch(predictions=poems[2 * process_id : 2 * process_id + 2])
    results[process_id] = metric.compute(window=5)

threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
for thread in threads: thread.start()
for thread in threads: thread.join(300)
out["distributed"] = results
json.dump(out, open(sys.argv[1], "w"))
"""

_NAMESAKE = '''"""A canonical hub module that happens to share a poetic-eval metric's name."""

import datasets
import evaluate


class RhymeKl(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="namesake", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("string")}),
        )

    def _compute(self, predictions):
        return {"namesake": len(predictions)}
'''


class HubStandIn(SimpleHTTPRequestHandler):
    """Serves ``<root>/<owner>/<name>/<file>`` at ``/spaces/<owner>/<name>/resolve/main/<file>``
    like the hub (404 otherwise: no other revision) and records every requested path."""

    requested: ClassVar[list[str]] = []

    def translate_path(self, path):
        self.requested.append(path)
        parts = path.split("?")[0].strip("/").split("/")
        if parts[:1] == ["spaces"] and parts[3:5] == ["resolve", "main"] and len(parts) == 6:
            return str(Path(self.directory) / parts[1] / parts[2] / parts[5])
        return str(Path(self.directory) / "missing")

    def log_message(self, *args):
        pass


@pytest.fixture()
def hub_stand_in(tmp_path):
    root = tmp_path / "hub"
    write_space(plan_metric_spaces("my-org", ["mtld"])[0], root / "my-org" / "mtld")
    namesake = root / "evaluate-metric" / "rhyme_kl"
    namesake.mkdir(parents=True)
    (namesake / "rhyme_kl.py").write_text(_NAMESAKE, encoding="utf-8")
    HubStandIn.requested = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(HubStandIn, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", HubStandIn.requested
    server.shutdown()
    server.server_close()


@pytest.mark.floors  # loading a Space is what needs evaluate>=0.4.6 with huggingface_hub 1.x
def test_online_bare_name_space_namesake_and_distributed(modules_cache, hub_stand_in, tmp_path):
    endpoint, requested = hub_stand_in
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "online.json"
    script = tmp_path / "online.py"
    script.write_text(_ONLINE_SCRIPT, encoding="utf-8")
    env = fresh_env(modules_cache, tmp_path, HF_ENDPOINT=endpoint)
    env.pop("HF_HUB_OFFLINE", None)
    run_fresh([str(script), str(out), str(EXAMPLES.parent)], env, empty)
    results = json.loads(out.read_text(encoding="utf-8"))

    expected = example_result("mtld", poetic_eval.load_metric)
    # online, the hub has no evaluate-metric/mtld: evaluate asked it, then used our pointer
    assert "/spaces/evaluate-metric/mtld/resolve/main/mtld.py" in requested
    assert_same(results["bare"], expected)
    # the published Space: evaluate downloaded the module from it
    assert "/spaces/my-org/mtld/resolve/main/mtld.py" in requested
    assert_same(results["space"], expected)
    # a canonical hub module with the same name wins over ours (README: use load_metric)
    assert results["namesake"] == {"namesake": 2}
    # distributed: process 0 gathers both shards, process 1 gets None
    assert results["distributed"][1] is None
    assert_same(results["distributed"][0], results["single"])
