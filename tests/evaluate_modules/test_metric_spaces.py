"""The metric Spaces: evaluate's layout, the card's single source, the form of the card's
example (the apps themselves run in test_space_apps.py, on the Space's gradio)."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import pytest
import yaml
from huggingface_hub import SpaceCard

import poetic_eval
from poetic_eval.cli import main
from poetic_eval.evaluate_modules import spaces as metric_spaces
from poetic_eval.evaluate_modules.space_forms import (
    FormField,
    example_arguments,
    fields_of,
    parse_field,
    parse_form,
)
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
        expected = [f"{name}.py", "README.md", "app.py", "form.json", "requirements.txt"]
        assert sorted(files) == sorted(expected)
        assert b"launch_gradio_widget" not in files["app.py"]
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
    # gradio 3 (evaluate's launch_gradio_widget, gr.inputs) is what the hub retires
    assert int(data["sdk_version"].split(".")[0]) >= 6
    assert {data["colorFrom"], data["colorTo"]} <= SPACE_COLOURS
    assert data["tags"][:2] == ["evaluate", "metric"]
    # the text is the committed card's, below a generated note on how to load it
    assert card.text.endswith(own_body.lstrip("\n"))
    assert f'evaluate.load("my-org/{name}")' in card.text.split("# ", 1)[0]


@pytest.mark.parametrize("name", METRICS)
def test_the_form_holds_the_card_example_and_gives_it_back(spaces, name, tmp_path):
    """form.json's texts, read as the app reads a submitted form, are the very arguments the
    documented example passes to compute (found by running the example, not by hand)."""
    folder = write_space(spaces[name], tmp_path / name)
    spec = json.loads((folder / "form.json").read_text(encoding="utf-8"))
    assert spec["metric"] == name and spec["description"]
    fields = fields_of(spec)
    assert fields[-1].kind == "options" and len({f.name for f in fields}) == len(fields)
    arguments = example_arguments(name)
    assert parse_form(fields, [field.example for field in fields]) == arguments
    assert set(arguments) - {"options"} <= {f.name for f in fields} | set(
        json.loads(fields[-1].example)
    )


def test_app_py_builds_the_page_from_the_module_beside_it(spaces):
    app = next(f for f in spaces["mtld"].files if f.path_in_repo == "app.py").read_bytes()
    text = app.decode("utf-8")
    assert 'evaluate.load(os.path.join(HERE, "mtld.py"))' in text
    assert 'read_form(os.path.join(HERE, "form.json"))' in text
    assert "demo.launch()" in text
    compile(text, "app.py", "exec")


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        ("poems", "a\nb\n---\nc\n\n---  \nd", ["a\nb", "c", "d"]),
        ("lines", "A\n\nB\n", ["A", "B"]),
        ("numbers", "-1, 2.5\n1e-3 nan", [-1, 2.5, 0.001, float("nan")]),
        ("vectors", "[1, 2.5]\n\n[-3]", [[1, 2.5], [-3]]),
        ("options", '{"window": 5}', {"window": 5}),
        ("lines", "  \n", None),
        ("options", "", {}),
    ],
)
def test_a_field_reads_what_a_user_types(kind, text, value):
    parsed = parse_field(FormField("x", kind, ""), text)
    if kind == "numbers":
        assert parsed[:3] == value[:3] and parsed[3] != parsed[3]  # nan
    else:
        assert parsed == value


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        ("numbers", "1\nabc", "x: 'abc' is not a number"),
        ("vectors", "[1, 'a']", "x: not JSON"),
        ("vectors", '["a"]', "x: each line must be a JSON list of numbers"),
        ("options", "[1]", "x: give a JSON object"),
    ],
)
def test_a_field_names_itself_when_it_cannot_read_the_text(kind, text, message):
    with pytest.raises((ValueError, TypeError), match=f"^{message}"):
        parse_field(FormField("x", kind, ""), text)


def test_an_option_that_has_its_own_field_is_refused():
    fields = [FormField("predictions", "lines", ""), FormField("options", "options", "")]
    with pytest.raises(ValueError, match="options: predictions has its own field above"):
        parse_form(fields, ["a", '{"predictions": ["b"]}'])


def test_the_dry_run_lists_each_space_with_its_app_and_gradio(capsys):
    """`make publish DRY_RUN=1`: every Space with app.py and form.json, on the sdk_version
    gradio (no gradio 3 pin anywhere in what it pushes)."""
    assert main(["publish", "--skip-datasets", "--dry-run"]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n")
    for name in METRICS:
        header = next(line for line in blocks if line.startswith(f"{name} -> "))
        assert f"its own app on gradio {metric_spaces.GRADIO_SDK_VERSION}" in header
        start = blocks.index(header)
        files = [line.split()[1] for line in blocks[start + 1 : start + 6]]
        assert files == [f"{name}.py", "README.md", "app.py", "form.json", "requirements.txt"]
    for plan in plan_metric_spaces(None):
        for file in plan.files:
            text = file.read_bytes().decode("utf-8")
            assert "sdk_version: 3." not in text and "launch_gradio_widget" not in text


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


def test_a_metric_card_is_read_once_per_space_and_owner_change(monkeypatch):
    """The README, form.json and the replan under the token's owner share one parsed card
    (the README and form.json each read it, and a replan read it twice again)."""
    reads = []
    read = metric_spaces.metric_card

    def counted(name):
        reads.append(name)
        return read(name)

    monkeypatch.setattr(metric_spaces, "metric_card", counted)
    (plan,) = plan_metric_spaces(None, ["mtld"])
    replanned = plan.with_owner("someone")
    assert reads == ["mtld"]
    files = {file.path_in_repo: file for file in replanned.files}
    assert "form.json" in files and 'evaluate.load("someone/mtld")' in files[
        "README.md"
    ].read_bytes().decode("utf-8")
