"""torchao's import-time noise, kept from users who did not ask for quantization.

transformers imports torchao whenever it is installed, on its first model class
(``transformers.quantizers`` checks for it at import), so a plain model load printed torchao's
log lines: "Failed to load ... .so" for each CUDA kernel library a CPU build cannot load, and
torch's ``_pytree`` warning that registering torchao's Enum classes is deprecated. Neither
concerns a model loaded without quantization. :func:`import_transformers_quietly` drops exactly
those records while transformers' model base is first imported; every other log line passes, and a
quantized load (which imports torchao itself, :mod:`poetic_eval.lm.quantization`) is not
silenced.
"""

from __future__ import annotations

import importlib.util
import logging
import sys

#: the loggers that carry torchao's import-time noise
NOISY_LOGGERS = ("torchao", "torch.utils._pytree")


class TorchaoImportNoise(logging.Filter):
    """Drops torchao's "Failed to load" lines and torch's Enum-registration warning for
    torchao's classes; passes everything else."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "torchao":
            return not str(record.msg).startswith("Failed to load")
        args = record.args if isinstance(record.args, tuple) else ()
        registered = getattr(args[0], "__module__", "") if args else ""
        return not (registered.startswith("torchao") and "register_constant()" in str(record.msg))


def import_transformers_quietly() -> None:
    """Imports transformers' model base (which imports torchao where it is installed) with
    torchao's import noise dropped; nothing is done once torchao is imported, or where it is
    not installed."""
    if "torchao" in sys.modules or importlib.util.find_spec("torchao") is None:
        return
    noise = TorchaoImportNoise()
    loggers = [logging.getLogger(name) for name in NOISY_LOGGERS]
    for logger in loggers:
        logger.addFilter(noise)
    try:
        importlib.import_module("transformers.modeling_utils")
    finally:
        for logger in loggers:
            logger.removeFilter(noise)
