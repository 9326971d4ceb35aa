from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_failure_cause_stream_type_0 import JobFailureCauseStreamType0
from ..models.job_failure_kind import JobFailureKind

if TYPE_CHECKING:
    from ..models.job_failure_text import JobFailureText


T = TypeVar("T", bound="JobFailure")


@_attrs_define
class JobFailure:
    """Why a failed job failed, as decided when it failed (jobs/failures.py).

    Attributes:
        cause (None | str): The line of its log that says why (the exception its traceback ends with), as the log has
            it.
        cause_stream (JobFailureCauseStreamType0 | None): The log that holds `cause`.
        kind (JobFailureKind):
        resume_advised (bool): Resume is the action to try first: something outside the run ended it (a signal, a lost
            process or node, a hang, memory). False when the run itself failed: resumed, it would fail the same way.
        text (JobFailureText): The reason and the advice per language: en, zh-CN.
    """

    cause: None | str
    cause_stream: JobFailureCauseStreamType0 | None
    kind: JobFailureKind
    resume_advised: bool
    text: JobFailureText
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cause: None | str
        cause = self.cause

        cause_stream: None | str
        if isinstance(self.cause_stream, JobFailureCauseStreamType0):
            cause_stream = self.cause_stream.value
        else:
            cause_stream = self.cause_stream

        kind = self.kind.value

        resume_advised = self.resume_advised

        text = self.text.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cause": cause,
                "cause_stream": cause_stream,
                "kind": kind,
                "resume_advised": resume_advised,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_failure_text import JobFailureText  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_cause(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cause = _parse_cause(d.pop("cause"))

        def _parse_cause_stream(data: object) -> JobFailureCauseStreamType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cause_stream_type_0 = JobFailureCauseStreamType0(data)

                return cause_stream_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobFailureCauseStreamType0 | None, data)

        cause_stream = _parse_cause_stream(d.pop("cause_stream"))

        kind = JobFailureKind(d.pop("kind"))

        resume_advised = d.pop("resume_advised")

        text = JobFailureText.from_dict(d.pop("text"))

        job_failure = cls(
            cause=cause,
            cause_stream=cause_stream,
            kind=kind,
            resume_advised=resume_advised,
            text=text,
        )

        job_failure.additional_properties = d
        return job_failure

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
