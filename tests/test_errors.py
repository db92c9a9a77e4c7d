"""One errors.py holds every exception class; the command lines print a user error (and an
OSError) as one line, and any other exception, a plain ValueError raised inside the code
included, with its traceback and a line asking for a bug report."""

from __future__ import annotations

import ast
import builtins
import inspect
from pathlib import Path

import pytest

from poetic_eval import errors
from poetic_eval.checks import require_choice, require_fraction, require_positive_int
from poetic_eval.cli import main

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "poetic_eval"
EXCEPTIONS = [
    value
    for value in vars(errors).values()
    if inspect.isclass(value)
    and issubclass(value, BaseException)
    and value.__module__ == errors.__name__
]
USER_ERRORS = [kind for kind in EXCEPTIONS if issubclass(kind, errors.UserError)]


def _is_exception_base(base: ast.expr) -> bool:
    name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
    builtin = getattr(builtins, name, None)
    return (inspect.isclass(builtin) and issubclass(builtin, BaseException)) or name.endswith(
        ("Error", "Exception", "Warning")
    )


def test_every_exception_class_of_the_package_is_in_errors_py():
    defined_elsewhere = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "errors.py" or path.parent != PACKAGE
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and any(map(_is_exception_base, node.bases))
        # a private class is a signal inside one module (the Spaces' example recorder stops
        # the example at compute), never raised to a caller
        and not node.name.startswith("_")
    ]
    assert defined_elsewhere == []
    assert len(USER_ERRORS) >= 20


def test_the_hierarchy_has_one_root_and_the_docstring_draws_every_class():
    for kind in EXCEPTIONS:
        root = errors.PoeticEvalWarning if issubclass(kind, Warning) else errors.PoeticEvalError
        assert issubclass(kind, root), kind
        assert kind.__name__ in errors.__doc__, f"{kind.__name__} is not drawn in the docstring"
    # user errors are also what callers catch for them
    assert issubclass(errors.UnknownNameError, ValueError)
    assert issubclass(errors.InvalidTypeError, TypeError)
    assert issubclass(errors.ModelNotFoundError, FileNotFoundError)
    assert issubclass(errors.WordNetNotFoundError, FileNotFoundError)
    assert issubclass(errors.OutputWriteError, OSError)
    for kind in (errors.LexiconError, errors.BlmRecordError, errors.NoQuatrainError):
        assert issubclass(kind, errors.UserError) and issubclass(kind, ValueError)


def test_the_old_import_locations_give_the_same_classes():
    from poetic_eval.blm import BlmRecordError
    from poetic_eval.blm.generator import LexiconError
    from poetic_eval.blm.generator.alternation_matrices import NoReadableWords
    from poetic_eval.diversity import NoQuatrainError
    from poetic_eval.files import OutputWriteError, UserError
    from poetic_eval.files.names import UnsafeNameError
    from poetic_eval.files.parquet_files import DataFileError
    from poetic_eval.hub.publish import PublishError
    from poetic_eval.limericks.wordnet_data import WordNetNotFoundError
    from poetic_eval.lm.default_model import ModelCacheError
    from poetic_eval.text.text_files import NotARegularFileError, TextFileError

    moved = [
        BlmRecordError, LexiconError, NoReadableWords, NoQuatrainError, OutputWriteError,
        UserError, UnsafeNameError, DataFileError, PublishError, WordNetNotFoundError,
        ModelCacheError, NotARegularFileError, TextFileError,
    ]  # fmt: skip
    assert all(getattr(errors, kind.__name__) is kind for kind in moved)


def test_the_checks_raise_user_errors_that_are_still_value_and_type_errors():
    with pytest.raises(errors.UnknownNameError, match="did you mean 'mtld'"):
        require_choice("mtdl", ["mtld", "length"], "metric")
    with pytest.raises(errors.InvalidValueError):
        require_fraction(1.5, "cutoff")
    with pytest.raises(errors.InvalidTypeError) as raised:
        require_positive_int("3", "limit")
    assert isinstance(raised.value, TypeError)


@pytest.mark.parametrize("kind", USER_ERRORS, ids=lambda kind: kind.__name__)
def test_every_user_error_ends_a_command_in_one_line(monkeypatch, capsys, kind):
    def fails(args):
        raise kind("the field 'x' must be positive, got -1")

    monkeypatch.setattr("poetic_eval.cli.metrics.run", fails)
    assert main(["metrics"]) == 1
    err = capsys.readouterr().err
    assert err == "poetic-eval metrics: error: the field 'x' must be positive, got -1\n"


def test_a_file_system_error_ends_a_command_in_one_line(monkeypatch, capsys):
    def fails(args):
        Path("/nonexistent/poetic-eval/file.txt").read_text()

    monkeypatch.setattr("poetic_eval.cli.metrics.run", fails)
    assert main(["metrics"]) == 1
    assert capsys.readouterr().err == (
        "poetic-eval metrics: error: No such file or directory: /nonexistent/poetic-eval/file.txt\n"
    )


@pytest.mark.parametrize("kind", [ValueError, TypeError, KeyError, AttributeError])
def test_an_error_raised_inside_the_code_shows_its_traceback(monkeypatch, capsys, kind):
    """A plain ValueError from deep inside a command (here the metric listing) is a bug: the
    traceback reaches the user, then one line asking for a report; it is not dressed as the
    user's error."""

    def broken_listing():
        raise kind("an internal invariant broke")

    monkeypatch.setattr("poetic_eval.cli.metrics.available_metrics", broken_listing)
    assert main(["metrics"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "in broken_listing" in err and f"{kind.__name__}: " in err
    assert "error: " not in err
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith("poetic-eval metrics: this is a bug in poetic-eval") and "report" in last
