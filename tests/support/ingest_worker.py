"""A follower loop in its own process, for tests that kill it at random instants:
python -m tests.support.ingest_worker DATABASE_URL JOB_ID FILE"""

import sys
import time
from pathlib import Path

from training_platform.db import Database
from training_platform.metrics.ingest import MetricsIngester
from training_platform.metrics.reader import LocalFileSource
from training_platform.metrics.store import MetricStore


def main(database_url: str, job_id: str, path: str) -> None:
    ingester = MetricsIngester(MetricStore(Database(database_url)), job_id, LocalFileSource(Path(path)), 7, 0.05)
    print("ready", flush=True)
    while True:
        ingester.poll()
        if ingester.flush_due():
            ingester.flush()
        time.sleep(0.002)


if __name__ == "__main__":
    main(*sys.argv[1:4])
