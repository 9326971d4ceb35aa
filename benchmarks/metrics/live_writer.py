"""Appends platform-format metric lines to several files at a steady rate, each stamped with the time it
was written: python -m benchmarks.metrics.live_writer SECONDS RATE_PER_FILE FILE..."""

import json
import sys
import time


def main(seconds: float, rate: float, paths: list[str]) -> None:
    handles = [open(path, "a", encoding="utf-8") for path in paths]
    interval = 1.0 / (rate * len(handles))
    deadline = time.monotonic() + seconds
    step = 0
    while time.monotonic() < deadline:
        step += 1
        for handle in handles:
            record = {
                "step": step,
                "timestamp": time.time(),
                "loss": {"total_loss": 1.0 / step},
                "custom": {"bench/sent": time.time()},
            }
            handle.write(json.dumps(record) + "\n")
            handle.flush()
            time.sleep(interval)
    for handle in handles:
        handle.close()
    print(step * len(handles))  # lines written, so the benchmark can check every one arrived


if __name__ == "__main__":
    main(float(sys.argv[1]), float(sys.argv[2]), sys.argv[3:])
