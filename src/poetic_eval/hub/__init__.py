"""Hugging Face hub: the dataset-folder writer, its cards, the metric Spaces, and publishing."""

from .dataset_repo import ConfigData, HubDataset, check_replaceable, write_hub_dataset
from .publish import PublishError, publish
from .upload_plan import built_dataset_folders, describe_plan, plan_dataset_uploads

__all__ = [
    "ConfigData",
    "HubDataset",
    "PublishError",
    "built_dataset_folders",
    "check_replaceable",
    "describe_plan",
    "plan_dataset_uploads",
    "publish",
    "write_hub_dataset",
]
