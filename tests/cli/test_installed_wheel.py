"""The release: the wheel and sdist pass `twine check`, and the wheel, installed into a clean
virtual environment, gives `evaluate.load("mtld")` by bare name (after the one documented
command, `poetic-eval install-metrics`) and builds a dataset, run from a folder that is not the
checkout.

The new environment is empty but for the wheel (installed with --no-deps); its dependencies
(torch, evaluate, datasets ...) come from this environment's site-packages through a .pth
line, which Python adds to sys.path without running that folder's own .pth files, so the
checkout's editable install of poetic-eval stays invisible there.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import poetic_eval

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]
POEMS = ["The cat sat on the mat,\nthe cat sat still.", "A bird sang in the tree\nand so did I."]

_CHECK = r"""
import json, sys
import evaluate
import poetic_eval
metric = evaluate.load("mtld")
poems = json.loads(sys.argv[1])
print(json.dumps({
    "package": poetic_eval.__file__,
    "module": sys.modules[type(metric).__module__].__file__,
    "module_folder": poetic_eval.metric_path("mtld"),
    "sys_path": sys.path,
    "result": metric.compute(predictions=poems, window=5),
}))
"""


def run(command, **kwargs):
    completed = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)
    assert completed.returncode == 0, (command, completed.stdout[-2000:], completed.stderr[-3000:])
    return completed


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """`make dist`: python -m build (sdist, then the wheel from the sdist), twine check."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO_ROOT)])
    run([sys.executable, "-m", "twine", "check", "--strict", *map(str, out.iterdir())])
    return out


@pytest.fixture(scope="module")
def clean_env(dist, tmp_path_factory):
    root = tmp_path_factory.mktemp("release")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
        .stdout.strip()
    )  # fmt: skip
    (site / "_project_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    (wheel,) = dist.glob("*.whl")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ]
    )
    with socket.socket() as probe:  # nothing listens there: no route to the real hub
        probe.bind(("127.0.0.1", 0))
        endpoint = f"http://127.0.0.1:{probe.getsockname()[1]}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HF_EVALUATE_OFFLINE")}
    env.update(
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        HF_MODULES_CACHE=str(root / "modules"),
        HF_METRICS_CACHE=str(root / "metrics-cache"),
        HF_HUB_OFFLINE="1",
        HF_ENDPOINT=endpoint,
        HF_UPDATE_DOWNLOAD_COUNTS="0",
    )
    work = root / "work"  # not the checkout
    work.mkdir()
    return venv, env, work


def test_dist_files(dist):
    names = sorted(path.name for path in dist.iterdir())
    version = poetic_eval.__version__
    assert names == [f"poetic_eval-{version}-py3-none-any.whl", f"poetic_eval-{version}.tar.gz"]


def test_installed_wheel_loads_mtld_by_bare_name_and_builds_a_dataset(clean_env):
    venv, env, work = clean_env
    installed = run(["poetic-eval", "install-metrics"], env=env, cwd=work).stdout
    assert f"{len(poetic_eval.available_metrics())} metric(s) loadable by bare name" in installed

    check = [str(venv / "bin" / "python"), "-c", _CHECK, json.dumps(POEMS)]
    report = json.loads(run(check, env=env, cwd=work).stdout)
    for key in ("package", "module_folder"):
        assert report[key].startswith(str(venv)), (key, report[key])  # the wheel, not the checkout
    assert str(REPO_ROOT / "src") not in report["sys_path"]
    assert "metric_modules/mtld" in report["module_folder"]
    expected = poetic_eval.load_metric("mtld").compute(predictions=POEMS, window=5)
    assert report["result"] == pytest.approx(expected)

    out = work / "bpomp"
    built = run(
        ["poetic-eval", "build", "bpomp", "--out", str(out), "--no-progress"], env=env, cwd=work
    )
    assert f"bpomp: wrote {out}" in built.stdout
    import datasets

    line_swap = datasets.load_dataset(str(out), "line_swap", split="test")
    assert line_swap.num_rows > 0 and set(line_swap.column_names) >= {"good", "bad"}
    assert "poetic-eval build bpomp" in (out / "README.md").read_text(encoding="utf-8")
