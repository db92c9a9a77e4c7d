"""Hugging Face hub datasets: the dataset-folder writer, its cards, and publishing."""

from .cards import BUILT_MARKER, built_here, declares_configs, parquet_path, render_card
from .dataset_repo import ConfigData, HubDataset, check_replaceable, write_hub_dataset
from .publish import built_dataset_folders, describe_plan, plan_uploads, publish

__all__ = [
    "BUILT_MARKER",
    "ConfigData",
    "HubDataset",
    "built_dataset_folders",
    "built_here",
    "check_replaceable",
    "declares_configs",
    "describe_plan",
    "parquet_path",
    "plan_uploads",
    "publish",
    "render_card",
    "write_hub_dataset",
]
