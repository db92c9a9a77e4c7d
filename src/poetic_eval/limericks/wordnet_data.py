"""Find WordNet 3.0 on this machine and open it with nltk's reader, offline.

In order: an explicit ``root``; nltk's own data (``nltk.download("wordnet")``, found by
``nltk.data.find("corpora/wordnet")``); ``$WNHOME/dict``; Debian's ``wordnet-base`` package
(``/usr/share/wordnet``). nltk's reader also needs a ``lexnames`` file that the Debian package
lacks, so for Debian the files are copied (once; nltk refuses linked corpus files) into a user
cache folder (``poetic_eval.files.cache_root() / "wordnet"``) next to a generated ``lexnames``
holding the 45 standard lexicographer file names, numbered 0-44. When neither exists,
:class:`WordNetNotFoundError` says how to install one.
"""

from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path

from ..errors import WordNetNotFoundError
from ..files import cache_root

INSTALL_HINT = (
    "WordNet is needed for synonyms and was not found. Install it with "
    "`sudo apt-get install wordnet-base` (Debian/Ubuntu) or "
    "`python -c \"import nltk; nltk.download('wordnet')\"`."
)
DEBIAN_WORDNET = Path("/usr/share/wordnet")
#: The standard WordNet 3.0 lexicographer files (lexnames(5WN)), numbered 0-44.
LEXICOGRAPHER_FILES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather",
    "adj.ppl",
)  # fmt: skip
_LEXNAME_POS = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
_DEBIAN_FILES = (
    "cntlist.rev", "data.adj", "data.adv", "data.noun", "data.verb", "index.adj", "index.adv",
    "index.noun", "index.verb", "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)  # fmt: skip


def lexnames_text() -> str:
    """The ``lexnames`` file nltk's reader expects: number, name, part-of-speech number."""
    return "".join(
        f"{index:02d}\t{name}\t{_LEXNAME_POS[name.split('.')[0]]}\n"
        for index, name in enumerate(LEXICOGRAPHER_FILES)
    )


def prepare_debian_wordnet(debian_dir: Path, cache_dir: Path | None = None) -> Path:
    """Mirror Debian's WordNet files next to a generated ``lexnames``; return that folder."""
    target = cache_dir or cache_root() / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in _DEBIAN_FILES:
        source = debian_dir / name
        if not source.is_file():
            raise WordNetNotFoundError(f"{source} is missing. {INSTALL_HINT}")
        _mirror_file(source, target / name)
    lexnames = target / "lexnames"
    if not lexnames.is_file() or lexnames.read_text() != lexnames_text():
        temporary = lexnames.with_suffix(".tmp")
        temporary.write_text(lexnames_text())
        temporary.replace(lexnames)
    return target


def _mirror_file(source: Path, copy: Path) -> None:
    """Copy ``source`` to ``copy`` unless an up-to-date copy is there (28 MB, once).

    Not a link: nltk refuses corpus files whose real path leaves the corpus root and
    hard-linked files.
    """
    if (
        copy.is_file()
        and not copy.is_symlink()
        and copy.stat().st_size == source.stat().st_size
        and copy.stat().st_mtime >= source.stat().st_mtime
    ):
        return
    temporary = copy.with_suffix(copy.suffix + ".tmp")
    shutil.copyfile(source, temporary)
    shutil.copystat(source, temporary)
    temporary.replace(copy)


def find_wordnet_root(root: str | Path | None = None) -> Path:
    """The folder nltk's WordNetCorpusReader should read (see the module docstring)."""
    if root is not None:
        root = Path(root)
        if (root / "lexnames").is_file():
            return root
        if (root / "data.noun").is_file():
            return prepare_debian_wordnet(root)
        raise WordNetNotFoundError(f"{root} holds no WordNet data files. {INSTALL_HINT}")
    import nltk

    try:
        return Path(str(nltk.data.find("corpora/wordnet")))
    except LookupError:
        pass
    candidates = [DEBIAN_WORDNET]
    if os.environ.get("WNHOME"):
        candidates.insert(0, Path(os.environ["WNHOME"]) / "dict")
    for candidate in candidates:
        if (candidate / "data.noun").is_file():
            return prepare_debian_wordnet(candidate)
    raise WordNetNotFoundError(INSTALL_HINT)


def wordnet_available() -> bool:
    """Whether :func:`load_wordnet` would succeed (without loading it)."""
    try:
        find_wordnet_root()
    except WordNetNotFoundError:
        return False
    return True


@lru_cache(maxsize=4)
def load_wordnet(root: str | Path | None = None):
    """An nltk ``WordNetCorpusReader`` over the WordNet found by :func:`find_wordnet_root`."""
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class EnglishWordNetReader(WordNetCorpusReader):
        """English WordNet only: no mapping to nltk's own copy for the multilingual data.

        nltk maps the loaded WordNet to its ``corpora/wordnet`` through ``index.sense`` files
        for Open Multilingual WordNet look-ups; Debian's package has no ``index.sense`` and
        there may be no nltk copy at all. Synonyms need neither.
        """

        def map_wn(self, version: str = "wordnet") -> None:
            return None

    folder = find_wordnet_root(root)
    _authorize_for_nltk(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return EnglishWordNetReader(str(folder), None)


def _authorize_for_nltk(folder: Path) -> None:
    """Add ``folder`` to nltk's allowed data roots.

    nltk (3.9+) only opens corpus files under ``nltk.data.path``; the documented way to
    allow another folder is to append it there.
    """
    import nltk

    if str(folder.resolve()) not in nltk.data.path:
        nltk.data.path.append(str(folder.resolve()))
