"""Where the benches find ../shared/data, the read-only corpora beside the checkout.

``POETIC_EVAL_SHARED_DATA`` points elsewhere (a worktree, a copy), as in the tests' conftest.
The corpora are read from there, never copied into the project; a bench that needs one skips
its part when the folder is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA = Path(
    os.environ.get("POETIC_EVAL_SHARED_DATA")
    or Path(__file__).resolve().parents[2] / "shared" / "data"
)
