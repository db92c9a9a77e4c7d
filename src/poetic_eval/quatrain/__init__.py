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

from .corpus import LABEL_FIELDS, QuatrainCorpus
from .overlap import PAPER_P, OverlapRemoval, default_p, remove_overlaps, top_k_in_order
from .pipeline import Deduplication, PreparedLanguage, deduplicate, prepare_language
from .rows import quatrain_features, quatrain_rows, sonnet_features, sonnet_rows
from .sequential import run_positions, sequential_pass
from .sonnets import COUPLET_RULES, PseudoSonnets, draw_pseudo_sonnets, max_sonnets
from .sources import read_quatrain_source
from .splitting import DEV_SHARE, TrainDevSplit, dev_size, split_train_dev

__all__ = [
    "COUPLET_RULES",
    "DEV_SHARE",
    "LABEL_FIELDS",
    "PAPER_P",
    "Deduplication",
    "OverlapRemoval",
    "PreparedLanguage",
    "PseudoSonnets",
    "QuatrainCorpus",
    "TrainDevSplit",
    "deduplicate",
    "default_p",
    "dev_size",
    "draw_pseudo_sonnets",
    "max_sonnets",
    "prepare_language",
    "quatrain_features",
    "quatrain_rows",
    "read_quatrain_source",
    "remove_overlaps",
    "run_positions",
    "sequential_pass",
    "sonnet_features",
    "sonnet_rows",
    "split_train_dev",
    "top_k_in_order",
]
