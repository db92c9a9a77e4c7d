"""The distribution: every module imports, every third-party import is a declared dependency
(the code's in ``dependencies``, the tests' in the ``test`` extra, the benches' in ``bench``),
the version is written once, and the floor constraints cover every requirement."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import pkgutil
import re
import runpy
import sys
from pathlib import Path

import pytest

import poetic_eval

REPO_ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = REPO_ROOT / "pyproject.toml"
floor_constraints = runpy.run_path(str(REPO_ROOT / "scripts" / "floor_constraints.py"))
# test-only imports that are not dependencies, with why
NOT_DEPENDENCIES = {"pkg_resources": "tests/diversity/test_lexical_diversity.py shims it"}


def _project() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]


def _names(requirements: list[str]) -> set[str]:
    return {_normalized(floor_constraints["floor_of"](req)[0]) for req in requirements}


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _first_party(folder: Path) -> set[str]:
    """Module names the files in ``folder`` import as this project's own: the package, and for
    the tests and benches their helper modules (on ``sys.path`` beside them)."""
    names = {"poetic_eval", "builders"}
    if folder.name in ("tests", "bench"):
        names |= {"tests", "bench"}
        for place in (REPO_ROOT / "tests", REPO_ROOT / "bench"):
            names |= {path.stem for path in place.rglob("*.py")}
    return names


def third_party_imports(folder: Path) -> dict[str, set[str]]:
    """Top-level names of every absolute import under ``folder`` that is neither the standard
    library nor this project, each with the files importing it."""
    own = _first_party(folder)
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top not in own:
                    found.setdefault(top, set()).add(str(path.relative_to(REPO_ROOT)))
    return found


def _undeclared(folders: list[str], declared: set[str]) -> list[str]:
    distributions = importlib.metadata.packages_distributions()
    missing = []
    for folder in folders:
        for module, files in sorted(third_party_imports(REPO_ROOT / folder).items()):
            if module in NOT_DEPENDENCIES:
                continue
            owners = {_normalized(name) for name in distributions.get(module, [])}
            if not owners and _normalized(module) in declared:
                continue  # declared, but not for this Python (tomli: Python 3.10 only)
            if not owners:
                missing.append(f"{module} (not installed here; imported by {min(files)})")
            elif not owners & declared:
                missing.append(f"{module} from {sorted(owners)} (imported by {min(files)})")
    return missing


@pytest.mark.floors
def test_every_module_imports():
    names = [
        info.name
        for info in pkgutil.walk_packages(poetic_eval.__path__, prefix="poetic_eval.")
        if not info.name.endswith("__main__")
    ]
    assert len(names) > 50
    for name in names:
        importlib.import_module(name)


@pytest.mark.floors
def test_the_trainer_the_callback_plugs_into_imports():
    """transformers imports accelerate's helpers when its Trainer loads (the accelerate floor)."""
    from transformers import Trainer, TrainerCallback

    from poetic_eval.integrations import PoeticDiversityCallback

    assert issubclass(PoeticDiversityCallback, TrainerCallback) and callable(Trainer)


def test_run_time_imports_are_dependencies():
    project = _project()
    declared = _names(project["dependencies"])
    extras = project["optional-dependencies"]
    # lm_eval, gradio (and lighteval) are imported only inside the functions that need them;
    # torchao only when a model is loaded with quantization="int8"
    optional = set().union(
        *(_names(extras[name]) for name in ("harness", "spaces", "quantization"))
    )
    assert _undeclared(["src", "builders", "metrics"], declared | optional) == []
    module_level = _undeclared(["builders", "metrics"], declared)
    assert module_level == [], "a builder or metric module imports an optional package"


def test_test_and_bench_imports_are_declared():
    project = _project()
    declared = _names(project["dependencies"])
    extras = project["optional-dependencies"]
    harness = _names(extras["harness"])
    # tests/lighteval_runner.py runs in LightEval's own environment
    separate = _names(extras["lighteval"]) | _names(extras["space-tests"])  # own venvs, setup
    assert _undeclared(["tests"], declared | _names(extras["test"]) | harness | separate) == []
    assert _undeclared(["bench"], declared | _names(extras["bench"]) | harness) == []


def test_version_is_written_once():
    assert poetic_eval.__version__ == importlib.metadata.version("poetic-eval")
    assert "version" in _project()["dynamic"]
    assert "version" not in _project()
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{poetic_eval.__version__}]" in changelog
    citation = (REPO_ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f'version: "{poetic_eval.__version__}"' in citation


def test_floor_constraints_pin_every_requirement(tmp_path):
    out = tmp_path / "floors.txt"
    assert (
        floor_constraints["main"](["--extra", "test", "--exclude", "torch", "--out", str(out)]) == 0
    )
    lines = out.read_text(encoding="utf-8").splitlines()
    project = _project()
    expected = _names(project["dependencies"] + project["optional-dependencies"]["test"])
    assert {_normalized(line.split("==")[0]) for line in lines} == expected - {"torch"}
    assert "numpy==1.24" in lines and "transformers==5.0" in lines
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][0-9A-Za-z.]*", line) for line in lines)


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        ("numpy>=1.24", ("numpy", "1.24")),
        ("lm-eval>=0.4.13,<0.5", ("lm-eval", "0.4.13")),
        ("rhymetagger==1.0.0", ("rhymetagger", "1.0.0")),
        ("pkg[extra] >= 2.0 ; python_version < '3.12'", ("pkg", "2.0")),
    ],
)
def test_floor_of_reads_the_lower_bound(requirement, expected):
    assert floor_constraints["floor_of"](requirement) == expected


@pytest.mark.parametrize("requirement", ["numpy", "numpy<3", "numpy>=1,>=2", "numpy~=1.24"])
def test_a_requirement_without_one_floor_is_refused(requirement):
    with pytest.raises(ValueError, match="needs exactly one floor"):
        floor_constraints["floor_of"](requirement)


def test_license_matches_the_declared_one():
    assert _project()["license"] == "Apache-2.0"
    text = (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0]))


def test_the_device_check_carries_wheels_at_or_above_the_floors():
    """scripts/device_wheels.txt pins what the GPU check installs on a lent device: a pin below
    pyproject.toml's floor (after a floor is raised) would test a version the package refuses."""
    listed = REPO_ROOT / "scripts" / "device_wheels.txt"
    pins = {}
    for line in listed.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"{listed.name}: {line!r} is not pinned with =="
            pins[_normalized(name)] = version.strip()
    assert {"datasets", "rapidfuzz", "minicons"} <= pins.keys()
    extras = list(_project()["optional-dependencies"])
    floors = floor_constraints["floor_constraints"](PYPROJECT, extras, [])
    checked = 0
    for name, floor in floors:
        if _normalized(name) in pins:
            assert _release(pins[_normalized(name)]) >= _release(floor), (name, floor)
            checked += 1
    assert checked >= 4
