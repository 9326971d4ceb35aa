"""What the health API returns."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from training_platform.contract.health import HealthSettings

Severity = Literal["info", "warning", "critical"]
# Evidence as logged; NaN and ±Inf as the strings "NaN", "Infinity", "-Infinity" (JSON has no such numbers).
Evidence = dict[str, float | str]


class FindingText(BaseModel):
    message: str
    suggestions: list[str]


class SignalRead(BaseModel):
    kind: str
    rule: str | None
    severity: Severity
    step: int
    best_step: int | None
    evidence: Evidence
    params: dict[str, str | int | float]
    text: dict[str, FindingText] = Field(description="The message and suggestions per language: en, zh-CN.")


class FindingRead(BaseModel):
    id: int
    job_id: str
    kind: str
    rule: str | None = Field(description="Which of the kind's conditions held, where it has several.")
    severity: Severity
    first_step: int
    last_step: int = Field(description="The latest step it held; it moves while the condition keeps holding.")
    best_step: int | None = Field(description="The step whose checkpoint to keep (overfitting).")
    evidence: Evidence = Field(description="The metric values of its latest step.")
    params: dict[str, str | int | float]
    actions: list[str] = Field(description="The automatic actions taken for it (each at most once).")
    text: dict[str, FindingText] = Field(description="The message and suggestions per language: en, zh-CN.")
    created_at: datetime
    updated_at: datetime


class HealthRead(BaseModel):
    job_id: str
    job_name: str
    health: Literal["healthy", "warning", "critical", "unknown"] = Field(
        description="As its job shows it (JobRead.health): unknown until the job logged a step."
    )
    findings: list[FindingRead]
    settings: HealthSettings = Field(description="The detector settings and automatic actions the job runs with.")


class StepDiagnosis(BaseModel):
    job_id: str
    step: int
    logged: bool = Field(description="Whether the job logged this step at all.")
    has_anomaly: bool = Field(description="A warning or critical signal fired at this step.")
    signals: list[SignalRead]
