"""Each metric as a hub Space in ``evaluate``'s layout, generated from its metric folder.

``evaluate.load("<org>/<name>")`` downloads ``<name>.py`` from the Space ``<org>/<name>``
(``HubEvaluationModuleFactory`` in evaluate/loading.py), checks that the libraries it imports
are installed, and loads it. A Space holds what ``evaluate-cli create`` and the canonical
modules (``evaluate-metric/accuracy``) hold:

- ``<name>.py``: the module file, as it is in ``metrics/<name>/``;
- ``README.md``: the metric card ``metrics/<name>/README.md`` (the one source of its text),
  its YAML header completed with the Space keys evaluate's cards carry (sdk, app_file ...);
- ``app.py``: the project's Gradio page for the module (:mod:`.space_app`, written for the
  Gradio of ``sdk_version``; not evaluate's ``launch_gradio_widget``, which uses gradio 3's
  ``gr.inputs``, removed in gradio 4);
- ``form.json``: the page's fields, filled with the card's example (:mod:`.space_forms`);
- ``requirements.txt``: this package at this version, which brings every import of the module
  and of the page (the Space's own gradio is the one ``sdk_version`` names).
"""

from __future__ import annotations

import json
from pathlib import Path

from huggingface_hub import SpaceCard, SpaceCardData

from ..errors import InvalidValueError
from ..files.dataset_cards import load_card
from ..hub.upload_plan import UNKNOWN_OWNER, RepoUpload, UploadFile
from .locations import available_metrics, metric_path
from .space_forms import form_spec

#: The Gradio the Space runs (its header's ``sdk_version``) and the one the app is tested with
#: (``.venv-spaces``, built by ``make setup``; tests/evaluate_modules/test_space_apps.py checks
#: the two agree). The Makefile reads this line.
GRADIO_SDK_VERSION = "6.31.0"
#: The Space header's keys, in the order evaluate's cards write them, and their defaults.
SPACE_HEADER_DEFAULTS = {
    "title": None,
    "emoji": "🪶",
    "colorFrom": "indigo",
    "colorTo": "purple",
    "sdk": "gradio",
    "sdk_version": GRADIO_SDK_VERSION,
    "app_file": "app.py",
    "pinned": False,
    "tags": ["evaluate", "metric"],
    "description": None,
}
#: What a card must say itself (no default can).
REQUIRED_CARD_KEYS = ("title", "description")

_APP_TEMPLATE = '''"""{name}: poetic-eval's Gradio page for the metric module beside this file."""

import os

import evaluate

from poetic_eval.evaluate_modules.space_app import metric_app, read_form

HERE = os.path.dirname(os.path.abspath(__file__))
form = read_form(os.path.join(HERE, "form.json"))
demo = metric_app(evaluate.load(os.path.join(HERE, "{name}.py")), form, form["description"])

if __name__ == "__main__":
    demo.launch()
'''

_LOAD_NOTE = """> Load it with `pip install poetic-eval=={version}` and
> `evaluate.load("{repo_id}")`, or, offline, `evaluate.load("{name}")` after
> `poetic-eval install-metrics` (see the poetic-eval README).
"""


def package_version() -> str:
    from .. import __version__

    return __version__


def metric_card(name: str) -> tuple[Path, SpaceCard]:
    """The metric's card ``metrics/<name>/README.md`` and its path (the one place this module
    reads a card)."""
    path = Path(metric_path(name)) / "README.md"
    return path, load_card(path, SpaceCard, what="metric card")


def space_card(name: str, repo_id: str, read: tuple[Path, SpaceCard]) -> str:
    """The Space's README.md: the metric card (``read``: its path and parsed card, from
    :func:`metric_card`) with evaluate's complete Space header, written by the hub's
    ``SpaceCardData`` in evaluate's key order."""
    path, card = read
    header = card.data.to_dict()
    missing = [key for key in REQUIRED_CARD_KEYS if not header.get(key)]
    if missing:
        raise InvalidValueError(f"{path}: the YAML header lacks {', '.join(missing)}")
    tags = list(header.get("tags") or [])
    absent = [tag for tag in ("evaluate", "metric") if tag not in tags]
    merged = {
        key: header.get(key, default) if key != "tags" else absent + tags
        for key, default in SPACE_HEADER_DEFAULTS.items()
    }
    merged.update({key: value for key, value in header.items() if key not in merged})
    text = SpaceCardData(**merged).to_yaml(original_order=list(merged))
    note = _LOAD_NOTE.format(version=package_version(), repo_id=repo_id, name=name)
    return f"---\n{text}\n---\n\n{note}\n{card.text.lstrip(chr(10))}"


def app_source(name: str) -> str:
    """The Space's app.py."""
    return _APP_TEMPLATE.format(name=name)


def form_file(name: str, card: SpaceCard) -> str:
    """The Space's form.json: the page's fields with the card's example, and its description
    (from ``card``, the parsed metric card)."""
    description = card.data.to_dict().get("description")
    spec = {**form_spec(name), "description": description or ""}
    return json.dumps(spec, indent=1, ensure_ascii=False) + "\n"


def requirements(version: str | None = None) -> str:
    """The Space's requirements.txt: this package, pinned."""
    return f"poetic-eval=={version or package_version()}\n"


def space_files(
    name: str, repo_id: str, read: tuple[Path, SpaceCard] | None = None
) -> tuple[UploadFile, ...]:
    """The files of metric ``name``'s Space: the module first, then the sibling modules it may
    import (evaluate downloads those from the Space too), the card, app.py, form.json,
    requirements.txt. A committed ``app.py`` in the metric folder is used instead of the
    generated one (and of form.json, which only the generated one reads). ``read``: the metric
    card as :func:`metric_card` returns it, when the caller has read it (else read here)."""
    path, card = read if read is not None else metric_card(name)
    folder = Path(metric_path(name))
    module = folder / f"{name}.py"
    siblings = sorted(p for p in folder.glob("*.py") if p.name not in (module.name, "app.py"))
    app = folder / "app.py"
    texts = {"README.md": space_card(name, repo_id, (path, card))}
    if not app.is_file():
        texts["app.py"] = app_source(name)
        texts["form.json"] = form_file(name, card)
    texts["requirements.txt"] = requirements()
    local = [module, *siblings] + ([app] if app.is_file() else [])
    return (
        *(UploadFile(path.name, local_path=path) for path in local),
        *(UploadFile(path, data=text.encode("utf-8")) for path, text in texts.items()),
    )


def plan_metric_spaces(org: str | None, names: list[str] | None = None) -> list[RepoUpload]:
    """One Space per metric (all by default): ``<org>/<name>``."""
    return [_plan_space(name, org or UNKNOWN_OWNER) for name in names or available_metrics()]


def _plan_space(name: str, owner: str, read: tuple[Path, SpaceCard] | None = None) -> RepoUpload:
    # the card is read once per plan and kept for the replan under the token's owner
    read = read if read is not None else metric_card(name)
    repo_id = f"{owner}/{name}"
    return RepoUpload(
        name,
        repo_id,
        "space",
        space_files(name, repo_id, read),
        kind=f"Space, evaluate metric, its own app on gradio {GRADIO_SDK_VERSION}",
        replan=lambda new_owner: _plan_space(name, new_owner, read),
    )


def write_space(plan: RepoUpload, folder: str | Path) -> Path:
    """Write a planned Space's files into ``folder`` (to inspect or serve them)."""
    folder = Path(folder)
    for file in plan.files:
        target = folder / file.path_in_repo
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file.read_bytes())
    return folder
