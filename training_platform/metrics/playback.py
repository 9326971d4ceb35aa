"""History playback: recorded steps replayed at 0.1x-10x of the pace they were logged at."""

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from pydantic import BaseModel, Field, model_validator

from training_platform.contract.params import MAX_STEPS
from training_platform.metrics.live import metric_message

# A long pause in the recording (a paused job, a slow evaluation) replays as at most this long at 1x.
MAX_GAP_SECONDS = 2.0
# Steps logged without a timestamp (verl's file logger writes none) replay this far apart at 1x.
UNTIMED_GAP_SECONDS = 0.1


class PlaybackRequest(BaseModel):
    # Steps fit a 64-bit column with room to spare (docs/security.md, "Limits").
    start_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)
    end_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)
    speed: float = Field(default=1.0, ge=0.1, le=10.0)

    @model_validator(mode="after")
    def _ordered(self) -> "PlaybackRequest":
        if self.start_step is not None and self.end_step is not None and self.start_step > self.end_step:
            raise ValueError(f"start_step {self.start_step} is after end_step {self.end_step}")
        return self


async def playback(
    records: list[tuple[int, dict[str, float]]],
    request: PlaybackRequest,
    sleep: Callable[[float], Awaitable[Any]],
) -> AsyncIterator[dict[str, Any]]:
    total = len(records)
    yield {
        "type": "playback_info",
        "total_metrics": total,
        "start_step": records[0][0] if records else request.start_step,
        "end_step": records[-1][0] if records else request.end_step,
        "speed": request.speed,
    }
    previous: float | None = None
    for index, (step, values) in enumerate(records):
        timestamp = values.get("timestamp")
        if index:
            gap = UNTIMED_GAP_SECONDS if timestamp is None or previous is None else timestamp - previous
            await sleep(min(max(gap, 0.0), MAX_GAP_SECONDS) / request.speed)
        previous = timestamp
        message = metric_message(step, values)
        message.update(progress=(index + 1) / total, current_index=index, total=total)
        yield message
    yield {"type": "playback_complete", "total": total}
