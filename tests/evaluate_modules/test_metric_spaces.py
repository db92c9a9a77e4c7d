"""The metric Spaces: evaluate's layout, the card's single source, a working app.py."""

from __future__ import annotations

import importlib.metadata
import runpy
from pathlib import Path

import evaluate.utils
import pytest
import yaml
from huggingface_hub import SpaceCard
from metric_examples import assert_same, example_result

import poetic_eval
from poetic_eval.cli import main
from poetic_eval.evaluate_modules import spaces as metric_spaces
from poetic_eval.evaluate_modules.spaces import plan_metric_spaces, write_space

METRICS = poetic_eval.available_metrics()
# the colours a Space header may name (hub Spaces configuration reference)
SPACE_COLOURS = {"red", "yellow", "green", "blue", "indigo", "purple", "pink", "gray"}


@pytest.fixture(scope="module")
def spaces():
    return {plan.name: plan for plan in plan_metric_spaces("my-org")}


def test_one_space_per_metric_in_evaluates_layout(spaces):
    assert sorted(spaces) == METRICS
    for name, plan in spaces.items():
        assert plan.repo_id == f"my-org/{name}" and plan.repo_type == "space"
        files = {file.path_in_repo: file.read_bytes() for file in plan.files}
        assert sorted(files) == sorted([f"{name}.py", "README.md", "app.py", "requirements.txt"])
        module = Path(poetic_eval.metric_path(name)) / f"{name}.py"
        assert files[f"{name}.py"] == module.read_bytes()


def test_requirements_pin_this_version(spaces):
    assert poetic_eval.__version__ == importlib.metadata.version("poetic-eval")
    for plan in spaces.values():
        requirements = next(f for f in plan.files if f.path_in_repo == "requirements.txt")
        assert requirements.read_bytes() == f"poetic-eval=={poetic_eval.__version__}\n".encode()


@pytest.mark.parametrize("name", METRICS)
def test_space_card_is_the_metric_card_with_evaluates_header(spaces, name, tmp_path):
    folder = write_space(spaces[name], tmp_path / name)
    card = SpaceCard.load(folder / "README.md")
    data = card.data.to_dict()
    own = SpaceCard.load(Path(poetic_eval.metric_path(name)) / "README.md")
    own_header, own_body = own.data.to_dict(), own.text
    # the key order as written (the card classes keep their own attribute order)
    written = yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    assert list(written)[:10] == [
        "title", "emoji", "colorFrom", "colorTo", "sdk", "sdk_version", "app_file", "pinned",
        "tags", "description",
    ]  # fmt: skip
    assert data["title"] == own_header["title"]
    assert data["description"] == own_header["description"]
    assert data["sdk"] == "gradio" and data["app_file"] == "app.py" and data["pinned"] is False
    assert data["sdk_version"] == metric_spaces.GRADIO_SDK_VERSION
    assert data["sdk_version"].startswith("3.")  # launch_gradio_widget uses gradio 3's gr.inputs
    assert {data["colorFrom"], data["colorTo"]} <= SPACE_COLOURS
    assert data["tags"][:2] == ["evaluate", "metric"]
    # the text is the committed card's, below a generated note on how to load it
    assert card.text.endswith(own_body.lstrip("\n"))
    assert f'evaluate.load("my-org/{name}")' in card.text.split("# ", 1)[0]


@pytest.mark.parametrize("name", METRICS)
def test_app_runs_evaluates_widget_on_the_module_beside_it(spaces, name, tmp_path, monkeypatch):
    """app.py, run as the Space runs it, loads the module file next to it (nothing else of the
    checkout) and hands it to evaluate's widget; that module gives the documented result."""
    folder = write_space(spaces[name], tmp_path / "space")
    launched = []
    monkeypatch.setattr(evaluate.utils, "launch_gradio_widget", launched.append)
    monkeypatch.chdir(folder)
    runpy.run_path(str(folder / "app.py"), run_name="__main__")
    (module,) = launched
    assert module.name == poetic_eval.load_metric(name).name
    assert_same(
        example_result(str(folder / f"{name}.py"), evaluate.load),
        example_result(name, poetic_eval.load_metric),
    )


def broken_metric(tmp_path, monkeypatch, card: bytes):
    folder = tmp_path / "mtld"
    folder.mkdir()
    (folder / "mtld.py").write_bytes(b"")
    (folder / "README.md").write_bytes(card)
    monkeypatch.setattr(metric_spaces, "metric_path", lambda name: str(folder))
    return folder / "README.md"


def test_a_card_without_description_is_refused_by_name(tmp_path, monkeypatch):
    card = broken_metric(tmp_path, monkeypatch, b"---\ntitle: mtld\n---\n\n# mtld\n")
    with pytest.raises(ValueError, match=f"^{card}: the YAML header lacks description$"):
        plan_metric_spaces("org", ["mtld"])


def test_a_metric_card_that_is_not_utf8_is_named_in_one_line(tmp_path, monkeypatch, capsys):
    text = b"---\ntitle: mtld\ndescription: caf\xe9\n---\n\n# mtld\n"
    card = broken_metric(tmp_path, monkeypatch, text)
    monkeypatch.setattr(metric_spaces, "available_metrics", lambda: ["mtld"])
    assert main(["publish", "--skip-datasets", "--dry-run"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    offset = text.index(0xE9)
    assert captured.err.strip().splitlines() == [
        f"poetic-eval publish: error: {card} is not UTF-8 (byte {offset}): save the metric card "
        + "as UTF-8"
    ]


def test_sibling_modules_and_a_committed_app_go_to_the_space(tmp_path, monkeypatch):
    folder = tmp_path / "mtld"
    folder.mkdir()
    for file in ("mtld.py", "mtld_tables.py", "app.py"):
        (folder / file).write_text(f"# {file}\n", encoding="utf-8")
    (folder / "README.md").write_text(
        "---\ntitle: mtld\ndescription: d\n---\n\n# mtld\n", encoding="utf-8"
    )
    monkeypatch.setattr(metric_spaces, "metric_path", lambda name: str(folder))
    (plan,) = plan_metric_spaces("org", ["mtld"])
    files = {file.path_in_repo: file.read_bytes() for file in plan.files}
    assert list(files) == ["mtld.py", "mtld_tables.py", "app.py", "README.md", "requirements.txt"]
    assert files["app.py"] == b"# app.py\n" and files["mtld_tables.py"] == b"# mtld_tables.py\n"
