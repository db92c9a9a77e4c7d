"""PoeticDiversityCallback(language=...): checked at construction, passed to the profile."""

from __future__ import annotations

import pytest
from callback_training import PROMPTS, references, tiny_llama, trainer_for
from tiny_language_models import word_tokenizer

from poetic_eval.diversity import poetic_diversity
from poetic_eval.integrations import PoeticDiversityCallback

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_the_language_reaches_the_diversity_profile(tmp_path, monkeypatch):
    trainer = trainer_for(tiny_llama(), word_tokenizer(), tmp_path, max_steps=1)
    with pytest.raises(ValueError, match="did you mean 'de'"):
        PoeticDiversityCallback(trainer, PROMPTS, references(), language="dee")
    seen = []
    import poetic_eval.integrations.trainer_callback as module

    original = module.diversity_profile

    def recording(*args, **options):
        seen.append(options["language"])
        return original(*args, **options)

    monkeypatch.setattr(module, "diversity_profile", recording)
    callback = PoeticDiversityCallback(
        trainer, PROMPTS, references(), num_poems=4, dimensions=["lexical", "length"],
        generation_kwargs={"max_new_tokens": 5}, language="de",
    )  # fmt: skip
    metrics = callback.compute_metrics()
    assert seen == ["de"]
    kept = [poem for poem in callback.last_poems if poem.strip()]
    expected = poetic_diversity(kept, references(), dimensions=["lexical", "length"], language="de")
    assert {key: metrics[f"poetic/{key}"] for key in expected} == expected
