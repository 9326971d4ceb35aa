from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.length_histogram import LengthHistogram


T = TypeVar("T", bound="SampleLengths")


@_attrs_define
class SampleLengths:
    """The training data's tokenized sample lengths (prompt and response together), as its statistics give them.

    Attributes:
        mean (float): Mean tokens of a sample, before truncation.
        histogram (LengthHistogram | None | Unset): Their histogram (the statistics' `lengths[].histogram`): the padding
            it implies.
        padding_ratio (float | None | Unset): Share of padding in padded micro-batches, as a run measured it (its
            padding_ratio metric); used where no histogram is given.
    """

    mean: float
    histogram: LengthHistogram | None | Unset = UNSET
    padding_ratio: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.length_histogram import LengthHistogram  # noqa: PLC0415

        mean = self.mean

        histogram: dict[str, Any] | None | Unset
        if isinstance(self.histogram, Unset):
            histogram = UNSET
        elif isinstance(self.histogram, LengthHistogram):
            histogram = self.histogram.to_dict()
        else:
            histogram = self.histogram

        padding_ratio: float | None | Unset
        if isinstance(self.padding_ratio, Unset):
            padding_ratio = UNSET
        else:
            padding_ratio = self.padding_ratio

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mean": mean,
            }
        )
        if histogram is not UNSET:
            field_dict["histogram"] = histogram
        if padding_ratio is not UNSET:
            field_dict["padding_ratio"] = padding_ratio

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.length_histogram import LengthHistogram  # noqa: PLC0415

        d = dict(src_dict)
        mean = d.pop("mean")

        def _parse_histogram(data: object) -> LengthHistogram | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                histogram_type_0 = LengthHistogram.from_dict(data)

                return histogram_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LengthHistogram | None | Unset, data)

        histogram = _parse_histogram(d.pop("histogram", UNSET))

        def _parse_padding_ratio(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        padding_ratio = _parse_padding_ratio(d.pop("padding_ratio", UNSET))

        sample_lengths = cls(
            mean=mean,
            histogram=histogram,
            padding_ratio=padding_ratio,
        )

        return sample_lengths
