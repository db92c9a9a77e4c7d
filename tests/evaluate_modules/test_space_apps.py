"""The metric Spaces' apps on the Gradio their header names: each launched on 127.0.0.1 and
called with ``gradio_client`` gives the card example's result; errors come back as one line;
and (slow) headless Chromium fills the example into one Space's page, submits it, reads the
result and saves a screenshot.

The apps run in the Spaces' own environment (``.venv-spaces``: gradio at ``sdk_version``; see
tests/space_servers.py); the tests skip, saying so, where there is none."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from metric_examples import assert_same, example_result
from space_servers import AppServers, app_environment, spaces_python, wait_for

import poetic_eval
from poetic_eval.evaluate_modules.space_app import API_NAME
from poetic_eval.evaluate_modules.space_forms import fields_of, one_line, plain_json
from poetic_eval.evaluate_modules.spaces import (
    GRADIO_SDK_VERSION,
    plan_metric_spaces,
    write_space,
)

METRICS = poetic_eval.available_metrics()
PYTHON = spaces_python()
needs_gradio = pytest.mark.skipif(
    PYTHON is None,
    reason="no Python with gradio for the Space apps: `make setup` builds .venv-spaces "
    "(or set POETIC_EVAL_SPACES_PYTHON)",
)
pytestmark = needs_gradio


@pytest.fixture(scope="module")
def space_folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("spaces")
    return {plan.name: write_space(plan, root / plan.name) for plan in plan_metric_spaces("org")}


@pytest.fixture(scope="module")
def servers(space_folders, tmp_path_factory):
    log = tmp_path_factory.mktemp("logs") / "apps.log"
    running = AppServers(PYTHON, [space_folders[name] for name in METRICS], log)
    yield running.urls
    running.close()


def client(url):
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False)


def example_texts(folder: Path) -> list[str]:
    spec = json.loads((folder / "form.json").read_text(encoding="utf-8"))
    return [field.example for field in fields_of(spec)]


def test_the_spaces_python_runs_the_gradio_of_sdk_version():
    found = subprocess.run(
        [PYTHON, "-c", "import gradio; print(gradio.__version__)"],
        capture_output=True,
        text=True,
        check=True,
        env=app_environment(),
    ).stdout.split()[-1]
    assert found == GRADIO_SDK_VERSION


@pytest.mark.parametrize("name", METRICS)
def test_each_app_returns_the_card_examples_result(servers, space_folders, name):
    result = client(servers[name]).predict(
        *example_texts(space_folders[name]), api_name=f"/{API_NAME}"
    )
    expected = plain_json(example_result(name, poetic_eval.load_metric))
    assert isinstance(result, dict) and result
    assert_same(result, expected)


def test_a_wrong_input_comes_back_as_its_one_line_message(servers, space_folders):
    from gradio_client.exceptions import AppError

    texts = example_texts(space_folders["pair_preference"])
    texts[0] = "-10.0\nabc\n-8.0\n-20.0"
    with pytest.raises(AppError) as raised:
        client(servers["pair_preference"]).predict(*texts, api_name=f"/{API_NAME}")
    assert str(raised.value) == "good_scores: 'abc' is not a number"


def test_the_metrics_own_error_comes_back_as_its_first_line(servers, space_folders):
    from gradio_client.exceptions import AppError

    texts = example_texts(space_folders["pair_preference"])
    texts[1] = "-11.0\n-12.5"  # two bad scores for four good ones
    metric = poetic_eval.load_metric("pair_preference")
    with pytest.raises(Exception) as local:
        metric.compute(
            good_scores=[-10.0, -12.5, -8.0, -20.0],
            bad_scores=[-11.0, -12.5],
            categories=["rhyme", "rhyme", "agreement", "agreement"],
        )
    with pytest.raises(AppError) as raised:
        client(servers["pair_preference"]).predict(*texts, api_name=f"/{API_NAME}")
    message = str(raised.value)
    assert message == one_line(local.value) and "\n" not in message and message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_chromium_fills_the_example_submits_and_reads_the_result(space_folders, tmp_path):
    """The Space as the hub runs it (``python app.py`` in its folder), driven by Debian's
    headless Chromium through playwright (no browser download): the fields emptied, the
    card's example typed in, Compute clicked, the result read from the page."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium: `make setup` installs Debian's chromium (as root)")
    sync_api = pytest.importorskip("playwright.sync_api")
    folder = space_folders["pair_preference"]
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    environment = app_environment(
        {"GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    )
    with (tmp_path / "app.log").open("w") as log:
        process = subprocess.Popen(
            [PYTHON, "app.py"], cwd=folder, env=environment, stdout=log, stderr=log
        )
    try:
        wait_for(url, process, 300)
        shot = browse(sync_api, chromium, url, folder, tmp_path / "pair_preference_space.png")
    finally:
        process.terminate()
        process.wait(timeout=30)
    text, saved = shot
    assert saved.stat().st_size > 10_000
    expected = example_result("pair_preference", poetic_eval.load_metric)
    # the JSON view shows one token a line, numbers as JavaScript writes them (1.0 as 1)
    shown = "".join(line.strip() for line in text.splitlines())
    for key in ("accuracy", "n", "ties", "ci_low", "ci_high"):
        assert f'"{key}":{expected[key]:g},' in shown, key
    assert '"by_category"' in shown


def browse(sync_api, chromium: str, url: str, folder: Path, screenshot: Path):
    spec = json.loads((folder / "form.json").read_text(encoding="utf-8"))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        page.goto(url, wait_until="networkidle")
        for field in fields_of(spec):
            box = page.locator(f"#field-{field.name} textarea")
            box.fill("")
            box.fill(field.example)
        page.locator("#compute").click()
        result = page.locator("#result")
        result.get_by_text("by_category").wait_for(timeout=60_000)
        text = result.inner_text()
        page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    return text, screenshot
