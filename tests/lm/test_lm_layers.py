"""lm/ is layered: no import circle among its modules, and its public names are those used
outside it (a change to the surface is a visible diff of PUBLIC_NAMES)."""

from __future__ import annotations

import ast
from pathlib import Path

import poetic_eval.lm

ROOT = Path(__file__).resolve().parents[2]
LM = ROOT / "src" / "poetic_eval" / "lm"

#: what other packages, the benches, scripts, docs and tests outside tests/lm import from
#: ``poetic_eval.lm`` itself
PUBLIC_NAMES = {
    "DEFAULT_START_TOKEN",
    "REDUCTIONS",
    "LanguageModel",
    "ModelKind",
    "causal_sequences",
    "check_device",
    "check_model_source",
    "default_model_cache_dir",
    "document_start_token_id",
    "load_language_model",
    "loading_model",
    "score_pairs",
    "score_texts",
}


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(inner) for inner in ast.walk(node)}
    return skipped


def lm_imports(path: Path) -> set[str]:
    """The lm modules a module of lm/ imports at run time (module level or inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_blocks(tree)
    modules = {file.stem for file in LM.glob("*.py")} - {"__init__"}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:  # from . import causal
                found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("poetic_eval.lm."):
            found.add(node.module.split(".")[2])
    return found & modules


def import_graph() -> dict[str, set[str]]:
    return {path.stem: lm_imports(path) for path in LM.glob("*.py") if path.stem != "__init__"}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first search (each reported once per back edge)."""
    found, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                found.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_lm_has_no_import_circle():
    assert cycles(import_graph()) == []


def test_the_circle_finder_sees_a_circle_and_lazy_imports():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    # the engine sits above the computations: they never import it, not even lazily
    graph = import_graph()
    assert "causal" in graph["engine"] and "engine" not in graph["causal"]
    assert {"loaded_model", "budget"} <= graph["causal"] | {"budget"}


def test_the_record_sits_at_the_bottom():
    graph = import_graph()
    assert graph["loaded_model"] <= {"budget", "placement"}
    assert graph["placement"] == set() and graph["budget"] <= {"placement"}


def _names_imported_from_lm(path: Path) -> set[str]:
    """Names a file takes from the package ``poetic_eval.lm`` itself (not its modules):
    ``from poetic_eval.lm import X`` / ``from ..lm import X`` and ``poetic_eval.lm.X``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = {file.stem for file in LM.glob("*.py")}
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            relative_lm = node.level >= 1 and node.module == "lm"
            if node.module == "poetic_eval.lm" or relative_lm:
                names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Attribute) and ast.unparse(node.value) == "poetic_eval.lm":
            names.add(node.attr)
    return names - modules


def callers_outside_lm() -> list[Path]:
    places = [ROOT / "src" / "poetic_eval", ROOT / "bench", ROOT / "scripts", ROOT / "docs"]
    places.append(ROOT / "tests")
    files = [path for place in places for path in place.rglob("*.py")]
    return [
        path
        for path in files
        if LM not in path.parents and (ROOT / "tests" / "lm") not in path.parents
    ]


def test_lm_exports_exactly_what_callers_outside_it_use():
    used = set().union(*(_names_imported_from_lm(path) for path in callers_outside_lm()))
    assert set(poetic_eval.lm.__all__) == PUBLIC_NAMES
    assert used == PUBLIC_NAMES, "export what callers use, and only that"
