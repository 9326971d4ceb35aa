import pytest
from pydantic import ValidationError

from training_platform.contract.params import Algorithm, GSPOParams, parse_params
from training_platform.errors import field_errors_from_pydantic


def fields(error: ValidationError) -> dict[str, str]:
    return {e.field: e.message for e in field_errors_from_pydantic(error, prefix="params")}


def test_defaults_follow_the_user_guide():
    sft = parse_params(Algorithm.SFT, {})
    assert (sft.learning_rate, sft.num_epochs, sft.max_steps) == (2e-5, 1.0, None)
    grpo = parse_params(Algorithm.GRPO, {})
    assert grpo.rollout_n == 8 and grpo.kl_coef == 0.04 and grpo.rewards[0].type == "math_verify"
    gspo = parse_params(Algorithm.GSPO, {})
    assert isinstance(gspo, GSPOParams) and (gspo.clip_ratio, gspo.clip_ratio_high) == (3e-4, 4e-4)


@pytest.mark.parametrize(
    ("algorithm", "params", "field", "fragment"),
    [
        (Algorithm.SFT, {"learning_rate": -1e-5}, "params.learning_rate", "greater than 0"),
        (Algorithm.SFT, {"learning_rate": "fast"}, "params.learning_rate", "valid number"),
        (Algorithm.SFT, {"batch_size": 0}, "params.batch_size", "greater than 0"),
        (Algorithm.SFT, {"num_epochs": 2, "max_steps": 10}, "params", "either num_epochs or max_steps"),
        (Algorithm.SFT, {"batch_size": 10, "micro_batch_size": 4}, "params", "multiple of micro_batch_size"),
        (Algorithm.SFT, {"lora": {"rank": 0}}, "params.lora.rank", "greater than 0"),
        (Algorithm.SFT, {"warmup": 0.1}, "params.warmup", "Extra inputs are not permitted"),
        (Algorithm.DPO, {"beta": 0}, "params.beta", "greater than 0"),
        (Algorithm.GRPO, {"rollout_n": 1}, "params.rollout_n", "greater than or equal to 2"),
        (Algorithm.GRPO, {"kl_coef": -0.1}, "params.kl_coef", "greater than or equal to 0"),
        (Algorithm.GRPO, {"clip_ratio": 1.5}, "params.clip_ratio", "less than 1"),
        (Algorithm.GRPO, {"rewards": []}, "params.rewards", "at least 1 item"),
        (Algorithm.GRPO, {"rewards": [{"type": "custom"}]}, "params.rewards.0.function", "required"),
        (Algorithm.GRPO, {"batch_size": 3, "rollout_n": 2, "micro_batch_size": 4}, "params", "batch_size x rollout_n"),
        (Algorithm.PPO, {}, "params.reward_model_path", "Field required"),
        # Values an engine pastes into a command line, each checked against its own grammar.
        (
            Algorithm.SFT,
            {"lora": {"target_modules": ["q_proj", "x,${oc.env:HOME}"]}},
            "params.lora.target_modules",
            "not a module name",
        ),
        (Algorithm.SFT, {"lora": {"target_modules": ["q_proj]"]}}, "params.lora.target_modules", "not a module name"),
        (Algorithm.SFT, {"lora": {"target_modules": []}}, "params.lora.target_modules", "at least one module"),
        (Algorithm.PPO, {"reward_model_path": "/m/${oc.env:HOME}"}, "params.reward_model_path", "'$'"),
        (Algorithm.PPO, {"reward_model_path": "/m\nx"}, "params.reward_model_path", "control characters"),
    ],
)
def test_invalid_parameters_name_the_field(algorithm, params, field, fragment):
    with pytest.raises(ValidationError) as caught:
        parse_params(algorithm, params)
    found = fields(caught.value)
    assert field in found, found
    assert fragment in found[field]


def test_gradient_accumulation_follows_verl_batch_semantics():
    sft = parse_params(Algorithm.SFT, {"batch_size": 32, "micro_batch_size": 4, "num_gpus": 2})
    assert sft.gradient_accumulation_steps == 4
    grpo = parse_params(Algorithm.GRPO, {"batch_size": 4, "rollout_n": 8, "micro_batch_size": 8})
    assert grpo.samples_per_step == 32 and grpo.gradient_accumulation_steps == 4


def test_lora_alpha_defaults_to_twice_the_rank():
    params = parse_params(Algorithm.SFT, {"lora": {"rank": 8}})
    assert params.lora.effective_alpha == 16
