"""Every exception and warning class of poetic-eval, in one place.

The command lines (:mod:`poetic_eval.cli.command_errors`) print a :class:`UserError`, and the
file system's ``OSError``, as one line ``poetic-eval COMMAND: error: MESSAGE``; any other
exception is a bug in poetic-eval and keeps its traceback. A user error is also the built-in
class a caller would catch for it (``ValueError`` for a bad value, ``TypeError`` for a bad type,
``FileNotFoundError`` for something missing, ``OSError`` for a file that cannot be written), so
``except ValueError`` around a call keeps working.

::

    PoeticEvalError                                   root: every exception of the package
    └── UserError                                     what the user gave or asked for is wrong
        ├── InvalidValueError           (ValueError)  a value out of range, a bad field
        │   ├── UnknownNameError                      a name not among the choices (did you mean)
        │   ├── OutputLocationError                   an output path that cannot be written
        │   ├── DeviceError                           a torch device this machine lacks
        │   ├── TextFileError                         a text source that is not UTF-8 text
        │   ├── UnsafeNameError                       a name from data unusable as a file name
        │   ├── DataFileError                         a built folder's data file unlike its card
        │   ├── CardError                             a card (README.md) that does not parse
        │   ├── NoQuatrainError                       a side without a 4-line poem
        │   ├── BlmRecordError                        a BLM record not in the release format
        │   ├── LexiconError                          a BLM lexicon file with a bad entry
        │   ├── ModelFileError                        a model weights file that cannot be read
        │   └── NoReadableWords                       no draw of BLM words reads well
        ├── InvalidTypeError            (TypeError)   an argument of the wrong type
        ├── PublishError                              publishing failed in a way one can act on
        ├── ModelNotFoundError   (FileNotFoundError)  no loadable model of that name or path
        ├── WordNetNotFoundError (FileNotFoundError)  no WordNet data on this machine
        ├── OutputWriteError            (OSError)     writing an output failed (disk full ...)
        ├── NotARegularFileError        (OSError)     a source that is a folder, FIFO, device
        ├── ModelCacheError             (OSError)     the converted default model's cache
        ├── QuantizationUnavailableError (ImportError) a quantization's package is missing
        └── LinkRefusedError            (OSError)     a cache path that is a link we did not make

    PoeticEvalWarning (UserWarning)                   root of the package's warnings
    ├── TruncationWarning                             poems longer than the encoder reads
    ├── CacheFileWarning                              a cache file is rebuilt
    ├── EnglishOnlyEncoderWarning                     German poems, the English default encoder
    └── BlmRecordWarning                              an inconsistent BLM record read anyway

This module imports nothing from the package, so every layer may import it. The classes are
also importable where they used to live (``poetic_eval.files.UserError``,
``poetic_eval.blm.BlmRecordError`` ...).
"""

from __future__ import annotations

import errno
from pathlib import Path


class PoeticEvalError(Exception):
    """Root of every exception poetic-eval raises on purpose."""


class UserError(PoeticEvalError):
    """Something the user gave or asked for is wrong; the message names it and what to do."""


# --- bad values (also ValueError) -----------------------------------------------------------


class InvalidValueError(UserError, ValueError):
    """A value the user gave that is out of range or malformed; the message names it."""


class UnknownNameError(InvalidValueError):
    """A name that is not one of the choices; the message lists them (and the closest)."""


class OutputLocationError(InvalidValueError):
    """An output path that cannot be written (checked before the work starts)."""


class DeviceError(InvalidValueError):
    """A torch device that this machine (or this torch build) does not have."""


class TextFileError(InvalidValueError):
    """A text source that cannot be read as UTF-8 text."""


class UnsafeNameError(InvalidValueError):
    """A name from data that cannot be used as a file or folder name."""


class DataFileError(InvalidValueError):
    """A data file of a dataset folder that cannot be read, or differs from its card."""


class CardError(InvalidValueError):
    """A dataset or metric card (its README.md YAML header) that does not parse, or a field of
    it that is malformed; the message names the card and the field."""


class NoQuatrainError(InvalidValueError):
    """A side has no poem of exactly 4 lines, so it has no quatrain scheme distribution."""


class BlmRecordError(InvalidValueError):
    """A BLM record that does not have the release's format; the message names the item."""


class LexiconError(InvalidValueError):
    """A lexicon file with a missing field or a reference to an unknown word."""


class ModelFileError(InvalidValueError):
    """A model's weights file that cannot be read: truncated, damaged, or a pickle that is not
    plain tensors. The message names the file; nothing in the file was run."""


class NoReadableWords(InvalidValueError):
    """No draw of words reads well where it must (the generator then draws the matrix again;
    it reaches the user only when the lexicon offers no readable draw at all)."""


# --- bad types (also TypeError) -------------------------------------------------------------


class InvalidTypeError(UserError, TypeError):
    """An argument of the wrong type; the message names it and the type expected."""


# --- the hub --------------------------------------------------------------------------------


class PublishError(UserError):
    """Publishing failed in a way the user can act on; the message says how, in one line."""


# --- missing things and files (also FileNotFoundError / OSError) ----------------------------


class ModelNotFoundError(UserError, FileNotFoundError):
    """A model name or path that names no model that can be loaded here."""


class WordNetNotFoundError(UserError, FileNotFoundError):
    """No WordNet data on this machine; the message says how to install it."""


class OutputWriteError(UserError, OSError):
    """Writing an output file failed (disk full, permission denied, ...); names the file."""

    @classmethod
    def of(cls, error: OSError, target: str | Path) -> OutputWriteError:
        """The error for ``error`` raised while writing ``target``."""
        reason = error.strerror or str(error)
        full = error.errno in (errno.ENOSPC, errno.EDQUOT)
        what = "disk full: free some space or choose another location" if full else ""
        wrapped = cls(f"could not write {target}: {reason}" + (f" ({what})" if what else ""))
        wrapped.errno = error.errno
        return wrapped


class NotARegularFileError(UserError, OSError):
    """A source path that exists but is a folder, a named pipe, a device or a socket."""


class ModelCacheError(UserError, OSError):
    """The converted default model's cache cannot be written or read; names the folder."""


class QuantizationUnavailableError(UserError, ImportError):
    """A quantization whose package is not installed; names the package to install."""


class LinkRefusedError(UserError, OSError):
    """A cache path is a symbolic link poetic-eval did not make: it is neither followed nor
    replaced, so whatever it points at stays untouched."""


# --- warnings -------------------------------------------------------------------------------


class PoeticEvalWarning(UserWarning):
    """Root of the warnings poetic-eval issues."""


class TruncationWarning(PoeticEvalWarning):
    """Some poems are longer than the encoder reads: only their beginning was embedded."""


class CacheFileWarning(PoeticEvalWarning):
    """A cache file was corrupted or did not fit its use: it is rebuilt."""


class EnglishOnlyEncoderWarning(PoeticEvalWarning):
    """Poems of another language are embedded with the English-only default encoder."""


class BlmRecordWarning(PoeticEvalWarning):
    """An inconsistent BLM record read anyway; the message names the item and the judgement."""
