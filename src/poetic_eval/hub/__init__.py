"""Hugging Face hub datasets: the dataset-folder writer, its cards, and publishing."""

from .dataset_repo import ConfigData, HubDataset, parquet_path, write_hub_dataset
from .publish import built_dataset_folders, declares_configs, describe_plan, plan_uploads, publish

__all__ = [
    "ConfigData",
    "HubDataset",
    "built_dataset_folders",
    "declares_configs",
    "describe_plan",
    "parquet_path",
    "plan_uploads",
    "publish",
    "write_hub_dataset",
]
