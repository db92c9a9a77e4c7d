"""QuaTrain, de-duplicated as in *Evaluating Diversity in Automatic Poetry Generation*, with
pseudo-sonnets: reading the release formats (or a plain-text corpus of stanzas), the sequential
pass, the iterative overlap removal, the seeded 9:1 split and the SonNet draw.

The builder ``poetic-eval build quatrain`` (``builders/quatrain.py``) publishes the result;
the modules here do the work:

- :mod:`.sources` reads JSON lines, a JSON list or plain text into a :class:`QuatrainCorpus`;
- :mod:`.sequential` and :mod:`.overlap` are the two de-duplication stages;
- :mod:`.splitting` and :mod:`.sonnets` the split and the pseudo-sonnets;
- :mod:`.pipeline` runs them for one language and counts each stage;
- :mod:`.rows` makes the dataset rows and features.
"""

from .overlap import PAPER_P
from .pipeline import deduplicate, prepare_language
from .rows import quatrain_features, quatrain_rows, sonnet_features, sonnet_rows
from .sonnets import COUPLET_RULES
from .sources import read_quatrain_source

__all__ = [
    "COUPLET_RULES",
    "PAPER_P",
    "deduplicate",
    "prepare_language",
    "quatrain_features",
    "quatrain_rows",
    "read_quatrain_source",
    "sonnet_features",
    "sonnet_rows",
]
