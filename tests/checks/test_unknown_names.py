"""A misspelt name (a metric, command, builder, config, analyzer, form, option) is refused with
the closest names and every choice (:func:`poetic_eval.checks.require_choice`)."""

from __future__ import annotations

import pytest

import poetic_eval
from poetic_eval.checks import require_choice, require_choices, unknown_name_message


def test_the_message_suggests_the_closest_names_and_lists_every_choice():
    message = unknown_name_message("mtdl", ["mtld", "rhyme_kl", "blm_f1"], "metric")
    assert message == "unknown metric 'mtdl'; did you mean 'mtld'? choices: mtld, rhyme_kl, blm_f1"
    assert unknown_name_message("zzz", ["abc"], "form") == "unknown form 'zzz'; choices: abc"
    assert unknown_name_message("x", [], "config") == "unknown config 'x'; choices: (none)"
    several = unknown_name_message("agr_i", ["agr_ii", "agr_iii", "od_ii"], "config")
    assert "did you mean 'agr_ii' or 'agr_iii'?" in several


def test_require_choice_returns_a_known_name_and_refuses_others():
    assert require_choice("b", ("a", "b"), "letter") == "b"
    assert require_choices(["a", "b"], {"a": 1, "b": 2}, "letter") == ["a", "b"]
    with pytest.raises(ValueError, match="unknown letter 'c'; choices: a, b"):
        require_choices(["a", "c"], ("a", "b"), "letter")


def test_a_misspelt_metric():
    with pytest.raises(ValueError, match="unknown metric 'mtdl'; did you mean 'mtld'"):
        poetic_eval.metric_path("mtdl")


def test_a_misspelt_command_and_builder(capsys):
    from poetic_eval.builders import builder_module
    from poetic_eval.cli import main

    with pytest.raises(SystemExit):
        main(["metrcs"])
    assert "unknown command 'metrcs'; did you mean 'metrics'?" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["build", "bpmop", "--out", "x"])
    assert "unknown builder 'bpmop'; did you mean 'bpomp'?" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown builder 'quatrian'; did you mean 'quatrain'"):
        builder_module("quatrian")


def test_a_misspelt_config():
    from poetic_eval.agreement import generate_pairs
    from poetic_eval.blm import generate_config

    with pytest.raises(ValueError, match="unknown BLM config 'agr_i'; did you mean 'agr_ii'"):
        generate_config("agr_i", seed=0)
    with pytest.raises(ValueError, match="did you mean 'simple_agrmt'"):
        generate_pairs("simple_agrmnt", n_pairs=2, seed=0)


def test_a_misspelt_analyzer_form_and_option():
    from poetic_eval.analyzers.forms import form_expectations
    from poetic_eval.analyzers.registry import check_options, get_analyzer

    with pytest.raises(ValueError, match="unknown analyzer 'stanza_cuont'; did you mean"):
        get_analyzer("stanza_cuont")
    with pytest.raises(ValueError, match="unknown form 'sonet'; did you mean 'sonnet'"):
        form_expectations("sonet")
    with pytest.raises(ValueError, match="unknown analyzer option 'rhyme_windw'; did you mean"):
        check_options({"rhyme_windw": 3})


def test_a_misspelt_metric_option():
    from poetic_eval.diversity.profile import DIMENSION_NAMES, split_part_options

    with pytest.raises(TypeError, match="length has no option 'binz'; did you mean 'length_bins'"):
        split_part_options({"length_binz": 20}, DIMENSION_NAMES)
    with pytest.raises(TypeError, match="did you mean 'lexical_window'"):
        split_part_options({"lexicl_window": 20}, DIMENSION_NAMES)


def test_a_misspelt_builder_option_value():
    from poetic_eval.builders import quatrain

    with pytest.raises(ValueError, match="unknown --sonnet-couplets 'frist'; did you mean 'first'"):
        quatrain.Config(sonnet_couplets="frist")
