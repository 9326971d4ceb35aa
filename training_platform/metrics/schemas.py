"""What the monitoring API returns."""

from pydantic import BaseModel

from training_platform.contract.metrics import json_number
from training_platform.metrics.ingest import IngestReport
from training_platform.metrics.store import SeriesData


class SeriesOut(BaseModel):
    key: str
    steps: list[int]
    values: list[float | str]  # NaN/Infinity as "NaN", "Infinity", "-Infinity"
    total_points: int
    downsampled: bool

    @classmethod
    def of(cls, series: SeriesData) -> "SeriesOut":
        return cls(
            key=series.key,
            steps=series.steps,
            values=[json_number(v) for v in series.values],
            total_points=series.total_points,
            downsampled=series.downsampled,
        )


class MetricsOut(BaseModel):
    job_id: str
    series: list[SeriesOut]


class KeyOut(BaseModel):
    key: str
    points: int
    first_step: int
    last_step: int


class AnomalyOut(BaseModel):
    step: int
    kind: str
    message: str


class MalformedOut(BaseModel):
    line_number: int
    reason: str


class SyncOut(BaseModel):
    records: int
    values: int
    bytes_read: int
    rewrites: int
    malformed: list[MalformedOut]

    @classmethod
    def of(cls, report: IngestReport) -> "SyncOut":
        malformed = [MalformedOut(line_number=m.line_number, reason=m.reason) for m in report.malformed]
        return cls(
            records=report.records,
            values=report.values,
            bytes_read=report.bytes_read,
            rewrites=report.rewrites,
            malformed=malformed,
        )


class ImportOut(SyncOut):
    """An imported file: the job it went into (made for it when the name was new) and what was read."""

    job_id: str
    job_name: str
