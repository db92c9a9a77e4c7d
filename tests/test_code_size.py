"""Size limits that keep the package readable at once: no module over 450 lines, no function
over 60 lines, no function with more than 10 parameters (dataclasses' generated ``__init__``
is not source, so it is not counted; options that belong together are a small dataclass)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "poetic_eval"
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60
MAX_PARAMETERS = 10


def parameter_count(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Parameters a caller can pass: ``*args`` and ``**kwargs`` count one each, ``self`` and
    ``cls`` none."""
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    count = len(positional) + len(arguments.kwonlyargs)
    count += (arguments.vararg is not None) + (arguments.kwarg is not None)
    if positional and positional[0].arg in ("self", "cls"):
        count -= 1
    return count


def oversized(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """What in the module at ``path`` is over a limit, one line each (named from ``root``)."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root)
    found = []
    if len(text.splitlines()) > MAX_MODULE_LINES:
        found.append(f"{name}: {len(text.splitlines())} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} {node.name}: {length} lines")
            if parameter_count(node) > MAX_PARAMETERS:
                found.append(
                    f"{name}:{node.lineno} {node.name}: {parameter_count(node)} parameters"
                )
    return found


def test_no_module_function_or_signature_over_the_limits():
    found = [line for path in sorted(PACKAGE.rglob("*.py")) for line in oversized(path)]
    assert not found, "\n".join(found)


def test_the_limits_are_measured(tmp_path):
    """The counter sees what the limits are about (the test above would pass on a blind one)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    parameters = ", ".join(f"p{i}" for i in range(MAX_PARAMETERS)) + ", **more"
    path = tmp_path / "long_example.py"
    source = f"def long(self, {parameters}):\n{body}\n" + "\n" * MAX_MODULE_LINES
    path.write_text(source, encoding="utf-8")
    assert oversized(path, tmp_path) == [
        f"long_example.py: {MAX_FUNCTION_LINES + 1 + MAX_MODULE_LINES} lines",
        "long_example.py:1 long: 61 lines",
        "long_example.py:1 long: 11 parameters",
    ]
    path.write_text("def short(self, a, *b, c, **d):\n    return a\n", encoding="utf-8")
    assert oversized(path, tmp_path) == []
