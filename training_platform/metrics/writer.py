"""Training-side writer of `{job_id}_metrics.jsonl`: one JSON line per logged step, flushed at once.

Cheap enough to call every step and independent of the database: a follower (the platform's ingester,
`tail -f`) sees each line as soon as it is written. NaN and Infinity are written as such (Python's
JSON dialect), because they are exactly what diagnostics look for.
"""

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from training_platform.metrics.canonical import canonicalize, to_grouped


class MetricsWriter:
    def __init__(self, path: Path, key_map: Mapping[str, str]):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.key_map = key_map
        self._file = open(path, "a", encoding="utf-8")

    def write(self, step: int, raw_values: Mapping[str, Any], anomaly: Mapping[str, str] | None = None) -> None:
        record: dict[str, Any] = {"step": step, "timestamp": time.time()}
        record.update(to_grouped(canonicalize(raw_values, self.key_map)))
        if anomaly:
            record["anomaly"] = dict(anomaly)
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
