"""Hugging Face hub: the dataset-folder writer, its cards, the metric Spaces, and publishing."""

from .cards import (
    BUILT_MARKER,
    built_here,
    parquet_path,
    render_card,
)
from .dataset_repo import ConfigData, HubDataset, check_replaceable, write_hub_dataset
from .publish import PublishError, PublishResult, publish
from .upload_plan import (
    RepoUpload,
    UploadFile,
    built_dataset_folders,
    describe_plan,
    plan_dataset_uploads,
)

__all__ = [
    "BUILT_MARKER",
    "ConfigData",
    "HubDataset",
    "PublishError",
    "PublishResult",
    "RepoUpload",
    "UploadFile",
    "built_dataset_folders",
    "built_here",
    "check_replaceable",
    "describe_plan",
    "parquet_path",
    "plan_dataset_uploads",
    "publish",
    "render_card",
    "write_hub_dataset",
]
