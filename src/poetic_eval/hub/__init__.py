"""Hugging Face hub: the dataset-folder writer, its cards, the metric Spaces, and publishing."""

from .cards import (
    BUILT_MARKER,
    built_here,
    card_data_files,
    card_infos,
    config_columns,
    config_entries,
    dataset_card,
    declares_configs,
    load_card,
    parquet_path,
    render_card,
)
from .dataset_repo import ConfigData, HubDataset, check_replaceable, write_hub_dataset
from .metric_spaces import plan_metric_spaces, write_space
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
    "card_data_files",
    "card_infos",
    "check_replaceable",
    "config_columns",
    "config_entries",
    "dataset_card",
    "declares_configs",
    "describe_plan",
    "load_card",
    "parquet_path",
    "plan_dataset_uploads",
    "plan_metric_spaces",
    "publish",
    "render_card",
    "write_hub_dataset",
    "write_space",
]
