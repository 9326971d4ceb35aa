"""`tplat compute` prints the speed of an estimate and the expected duration of a recommendation as the API gives
them."""

from training_platform.cli import compute
from training_platform.cli.common import console
from training_platform.compute.schemas import EstimateBody, RecommendBody
from training_platform.compute.service import ComputeService


def test_durations_read_in_the_two_largest_units():
    assert [compute.duration_text(s) for s in (4.24, 200, 7_500, 200_000)] == ["4.2 s", "3 min 20 s", "2 h 05 min",
                                                                              "2 d 07 h"]  # fmt: skip


def test_estimate_and_recommendation_print_speed_and_duration():
    estimate = ComputeService().estimate(
        EstimateBody(model="Qwen2.5-0.5B", gpu="H100-80G", seq_len=2048, micro_batch=4)
    )
    with console.capture() as captured:
        compute._print_estimate(estimate.model_dump(mode="json"))
    speed = estimate.speed
    assert f"speed: {speed.tokens_per_second:,.0f} tokens/s, {compute.duration_text(speed.step_seconds)} per step" in (
        captured.get()
    )
    body = RecommendBody(model="Qwen2.5-7B", gpu="H100-80G", seq_len=1024, precision="bf16", samples=50_000)
    answer = ComputeService().recommend(body).model_dump(mode="json")
    with console.capture() as captured:
        compute.print_recommendation(answer)
    duration = answer["duration"]
    expected = f"expected duration: {compute.duration_text(duration['total_seconds'])} for {duration['steps']} steps"
    assert expected in captured.get() and "engine: trl" in captured.get()
