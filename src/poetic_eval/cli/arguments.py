"""Command-line options several sub-commands share: which pairs to read, which model to run."""

from __future__ import annotations

import argparse


def add_pair_dataset_arguments(parser: argparse.ArgumentParser) -> None:
    """``--dataset``, ``--config`` (repeatable) and ``--split`` of a minimal-pair dataset."""
    parser.add_argument(
        "--dataset", required=True, help="dataset folder, or a parquet/jsonl/csv file"
    )
    parser.add_argument(
        "--config", action="append", help="config(s) to score (default: all with pairs)"
    )
    parser.add_argument(
        "--split", default=None, help="split of a dataset folder (default: its only split, or test)"
    )


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """``--model``, ``--device`` and ``--dtype`` of the scoring language model."""
    parser.add_argument(
        "--model", default=None, help="HF model name or local path (default: SmolLM2-135M)"
    )
    parser.add_argument(
        "--device", default=None, help="cpu, cuda, cuda:1 ... (default: cuda if available)"
    )
    parser.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
