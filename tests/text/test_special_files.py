"""A FIFO, /dev/zero or a folder given as a source is reported as what it is, never as "no
such file", and never read (a FIFO would wait for a writer, /dev/zero never ends; issue 24,
item 16)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from poetic_eval.agreement import convert_source
from poetic_eval.analyzers import read_poem_collection
from poetic_eval.analyzers.poem_sources import read_poem_file
from poetic_eval.blm import read_blm_items
from poetic_eval.blm.item_sources import load_evaluation_sets
from poetic_eval.cli import main
from poetic_eval.limericks import read_limerick_source
from poetic_eval.pairs import load_pair_tables
from poetic_eval.quatrain import read_quatrain_source
from poetic_eval.text import NotARegularFileError, read_poems_by_suffix, read_text_file

READERS = {
    "read_text_file": (read_text_file, "file"),
    "read_poems_by_suffix": (read_poems_by_suffix, "poem file"),
    "read_poem_file": (read_poem_file, "poem file"),
    "read_blm_items": (read_blm_items, "BLM items file"),
    "read_quatrain_source": (read_quatrain_source, "quatrain source"),
    "read_limerick_source": (read_limerick_source, "limerick source"),
}
SOURCES = {  # readers that also take a folder: only the special files are refused
    "read_poem_collection": (read_poem_collection, "poem source"),
    "load_evaluation_sets": (load_evaluation_sets, "BLM source"),
    "load_pair_tables": (lambda path: load_pair_tables(str(path), None, None), "dataset"),
    "convert_source": (convert_source, "agreement source"),
}


@pytest.fixture(params=["fifo", "/dev/zero"])
def special(request, tmp_path):
    if request.param == "/dev/zero":
        return Path("/dev/zero"), "a character device"
    path = tmp_path / "poems.jsonl"
    os.mkfifo(path)
    return path, "a named pipe (FIFO)"


@pytest.mark.parametrize("reader", [*READERS, *SOURCES])
def test_special_files_are_named_as_what_they_are(reader, special):
    path, kind = special
    read, what = {**READERS, **SOURCES}[reader]
    with pytest.raises(
        NotARegularFileError,
        match=f"{what} {path} is {kind.replace('(', '.').replace(')', '.')}, not a regular file",
    ):
        read(path)


@pytest.mark.parametrize("reader", list(READERS))
def test_a_folder_is_named_as_a_folder(reader, tmp_path):
    read, what = READERS[reader]
    with pytest.raises(
        NotARegularFileError, match=f"{what} {tmp_path} is a folder, not a regular file"
    ):
        read(tmp_path)


def test_the_command_line_says_it_in_one_line(tmp_path, capsys):
    fifo = tmp_path / "poem.txt"
    os.mkfifo(fifo)
    assert main(["analyze", str(fifo)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        (
            f"poetic-eval analyze: error: poem source {fifo} is a named pipe (FIFO), not a regular "
            "file; give a file"
        )
    ]
