"""Each algorithm's default charts (GET /algorithms): the loss, then what only that algorithm logs, under the names
its engines' trainers log them, then the canonical metrics."""

from training_platform.contract.params import Algorithm
from training_platform.engines.charts import CANONICAL_CHARTS, LOSS, default_charts
from training_platform.engines.registry import engines


def charts_of(algorithm: Algorithm) -> dict[str, tuple[str, ...]]:
    return {chart.id: chart.keys for chart in default_charts(algorithm, [engine.charts for engine in engines()])}


def test_each_algorithm_shows_its_own_charts_after_the_loss_and_before_the_canonical_ones():
    dpo = charts_of(Algorithm.DPO)
    assert list(dpo)[:4] == ["loss", "margins", "accuracies", "chosen_rejected"]
    assert dpo["chosen_rejected"] == ("rewards/chosen", "rewards/rejected")
    assert list(dpo)[-len(CANONICAL_CHARTS) :] == [chart.id for chart in CANONICAL_CHARTS]
    ppo = charts_of(Algorithm.PPO)
    assert ppo["value_loss"] == ("value_loss",) and "critic/returns/mean" in ppo["returns"]
    assert list(charts_of(Algorithm.SFT))[0] == LOSS.id


def test_a_chart_both_engines_declare_has_the_keys_of_each():
    grpo = charts_of(Algorithm.GRPO)
    assert grpo["reward_components"] == ("rewards/*/mean",)  # TRL's, one line per reward function
    assert "completions/mean_length" in grpo["completion_length"]  # TRL
    assert "response_length/mean" in grpo["completion_length"]  # verl
    assert charts_of(Algorithm.GSPO) == grpo
