"""How the command lines end on an error: one line for the user's errors, a traceback for bugs.

A user error (:data:`poetic_eval.files.USER_ERRORS`: a
:class:`~poetic_eval.errors.UserError`, such as a bad value, type, file or output location, an
unknown model or device, or an ``OSError`` from the file system, such as a full disk) is printed
as ``PROG: error: MESSAGE`` and the command exits with status 1; ``--debug`` prints the
traceback first. Anything else, a plain ``ValueError`` raised inside the code included, is a
bug: its traceback is printed, then a line asking for a bug report, and the command exits with
status 1 (:data:`BUG_STATUS`). Ctrl-C prints ``PROG: interrupted`` and exits with 130. Output
into a pipe closed early (``poetic-eval metrics | head -3``) ends the command quietly with the
status of a process stopped by SIGPIPE, 141 (the recipe of Python's ``signal`` documentation).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable

from ..files import USER_ERRORS, describe_error
from ..text.safe_output import printable

DEBUG_HELP = "on an error, show the full traceback (for reporting a bug)"


def add_debug_flag(parser: argparse.ArgumentParser) -> None:
    """``--debug`` on ``parser`` and on every sub-command below it, so it may come anywhere."""
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    _add_to_subcommands(parser)


def _add_to_subcommands(parser: argparse.ArgumentParser) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in dict.fromkeys(action.choices.values()):
                if "--debug" not in subparser._option_string_actions:
                    # SUPPRESS: a sub-command must not reset a --debug given before it
                    subparser.add_argument(
                        "--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP
                    )
                _add_to_subcommands(subparser)


CLOSED_PIPE_STATUS = 128 + 13  # as if stopped by SIGPIPE, like the shell's tools
#: The status after a bug (an exception that is not a user error), as Python's own exit status
#: after an uncaught exception.
BUG_STATUS = 1
BUG_REPORT = (
    "this is a bug in poetic-eval, not in what you gave: please report it to the poetic-eval "
    "maintainers with the traceback above, the command you ran and `pip show poetic-eval`"
)


def run_command(
    run: Callable[[argparse.Namespace], int | None], args: argparse.Namespace, prog: str
) -> int:
    """``run(args)`` as a command: its exit status, or 1 after a one-line user error."""
    try:
        status = int(run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, where it can be handled
        return status
    except BrokenPipeError:
        _discard_stdout()
        return CLOSED_PIPE_STATUS
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except USER_ERRORS as error:
        if getattr(args, "debug", False):
            traceback.print_exc()
        # messages quote data and servers (a category, a hub error body): no control codes
        print(f"{prog}: error: {printable(describe_error(error))}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - a bug: shown whole, with a line asking for a report
        traceback.print_exc()
        print(f"{prog}: {BUG_REPORT}", file=sys.stderr)
        return BUG_STATUS


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
