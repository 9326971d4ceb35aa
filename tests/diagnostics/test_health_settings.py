"""Diagnostics settings: defaults valid, partial overrides keep the rest, bad input names the field."""

import pytest
from pydantic import ValidationError

from training_platform.contract.health import DiagnosticsSettings


def error_of(raw: dict) -> dict:
    with pytest.raises(ValidationError) as caught:
        DiagnosticsSettings.model_validate(raw)
    [error] = caught.value.errors()
    return error


def test_the_defaults_are_valid_and_every_detector_is_on():
    settings = DiagnosticsSettings.model_validate(DiagnosticsSettings().model_dump())
    assert all(getattr(settings, name).enabled for name in DiagnosticsSettings.model_fields)


def test_an_override_changes_only_what_it_names():
    settings = DiagnosticsSettings.model_validate({"grad_explosion": {"ceiling": 50}, "slow_step": {"save_steps": 100}})
    assert (settings.grad_explosion.ceiling, settings.grad_explosion.steps) == (50, 5)
    assert (settings.slow_step.save_steps, settings.slow_step.factor) == (100, 3.0)
    assert settings.kl_explosion == DiagnosticsSettings().kl_explosion


@pytest.mark.parametrize(
    ("raw", "location", "error_type"),
    [
        ({"grad_explosion": {"ceilng": 50}}, ("grad_explosion", "ceilng"), "extra_forbidden"),
        ({"gradient_explosion": {}}, ("gradient_explosion",), "extra_forbidden"),
        ({"kl_explosion": {"ceiling": 0}}, ("kl_explosion", "ceiling"), "greater_than"),
        ({"kl_explosion": {"ceiling": 1e13}}, ("kl_explosion", "ceiling"), "less_than_equal"),
        ({"throughput_drop": {"fraction": 1.5}}, ("throughput_drop", "fraction"), "less_than"),
        ({"slow_step": {"window": 10**6}}, ("slow_step", "window"), "less_than_equal"),
        ({"initial_loss": {"sft": {"low": 1, "high": 2, "hgh": 2}}}, ("initial_loss", "sft", "hgh"), "extra_forbidden"),
        ({"overfitting": {"enabled": "sometimes"}}, ("overfitting", "enabled"), "bool_parsing"),
    ],
)
def test_unknown_names_and_out_of_range_values_fail_at_their_field(raw, location, error_type):
    error = error_of(raw)
    assert (error["loc"], error["type"]) == (location, error_type)


@pytest.mark.parametrize(
    ("raw", "location", "words"),
    [
        ({"initial_loss": {"dpo": {"low": 0.9, "high": 0.5}}}, ("initial_loss", "dpo"), "low (0.9) must be below high"),
        ({"slow_step": {"window": 5, "warmup": 10}}, ("slow_step",), "warmup (10) cannot exceed window (5)"),
        ({"kl_explosion": {"min_kl": 2}}, ("kl_explosion",), "min_kl (2.0) must be below ceiling (1.0)"),
        ({"grad_vanishing": {"floor": 200}}, (), "grad_vanishing.floor (200.0) must be below grad_explosion.ceiling"),
    ],
)
def test_inconsistent_thresholds_fail_naming_both(raw, location, words):
    error = error_of(raw)
    assert error["loc"] == location and words in error["msg"]
