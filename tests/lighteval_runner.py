"""Run LightEval's transformers backend on tasks of one custom-task module and print the
results and each document's choice log-probabilities as JSON; run by
tests/integrations/test_lighteval_tasks.py in LightEval's own environment (``.venv-lighteval``).

    python lighteval_runner.py MODULE.py MODEL_ARGS TASK[,TASK...]

It is ``lighteval accelerate`` (lighteval/main_accelerate.py) in Python, with one change:
LightEval 0.13 imports every bundled task module when it builds its registry, and one of them
(tasks/tasks/tiny_benchmarks.py) downloads a pickle from GitHub at import time, which fails
offline; so the registry here holds the custom module's tasks only.
"""

from __future__ import annotations

import json
import sys


def main(module: str, model_args: str, tasks: str) -> None:
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.abstract_model import ModelConfig
    from lighteval.models.transformers.transformers_model import TransformersModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters
    from lighteval.tasks.registry import Registry

    def custom_only(custom_tasks=None, load_multilingual=False):
        return Registry._extract_configs(Registry.create_custom_tasks_module(custom_tasks))

    Registry.load_all_task_configs = staticmethod(custom_only)
    pipeline = Pipeline(
        tasks=tasks,
        pipeline_parameters=PipelineParameters(
            launcher_type=ParallelismManager.ACCELERATE, custom_tasks_directory=module
        ),
        evaluation_tracker=EvaluationTracker(output_dir="lighteval-out", save_details=False),
        model_config=TransformersModelConfig(**ModelConfig._parse_args(model_args)),
    )
    pipeline.evaluate()
    details = {
        task: {detail.doc.id: list(map(float, detail.model_response.logprobs)) for detail in found}
        for task, found in pipeline.get_details().items()
    }
    results = {"results": pipeline.get_results()["results"], "logprobs": details}
    print("RESULTS " + json.dumps(results), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
