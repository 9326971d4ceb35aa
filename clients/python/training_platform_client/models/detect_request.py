from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.detect_request_kind import DetectRequestKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.detect_request_field_mapping import DetectRequestFieldMapping
    from ..models.detect_request_rows_item import DetectRequestRowsItem
    from ..models.share_gpt_tags import ShareGptTags


T = TypeVar("T", bound="DetectRequest")


@_attrs_define
class DetectRequest:
    """The first rows of a file, read by the client, to propose its format before the file is sent.

    Attributes:
        kind (DetectRequestKind):
        rows (list[DetectRequestRowsItem]):
        drop_columns (list[str] | Unset):
        field_mapping (DetectRequestFieldMapping | Unset): Field read → the file's column or a dotted path into it, e.g.
            {"prompt": "question"} or {"solution": "reward_model.ground_truth"}; LLaMA-Factory's dataset_info.json `columns`
            are read too.
        tags (ShareGptTags | Unset): LLaMA-Factory's `tags` of a sharegpt dataset: the keys of a turn and the role each
            tag stands for.
    """

    kind: DetectRequestKind
    rows: list[DetectRequestRowsItem]
    drop_columns: list[str] | Unset = UNSET
    field_mapping: DetectRequestFieldMapping | Unset = UNSET
    tags: ShareGptTags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        drop_columns: list[str] | Unset = UNSET
        if not isinstance(self.drop_columns, Unset):
            drop_columns = self.drop_columns

        field_mapping: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_mapping, Unset):
            field_mapping = self.field_mapping.to_dict()

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "rows": rows,
            }
        )
        if drop_columns is not UNSET:
            field_dict["drop_columns"] = drop_columns
        if field_mapping is not UNSET:
            field_dict["field_mapping"] = field_mapping
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.detect_request_field_mapping import DetectRequestFieldMapping  # noqa: PLC0415
        from ..models.detect_request_rows_item import DetectRequestRowsItem  # noqa: PLC0415
        from ..models.share_gpt_tags import ShareGptTags  # noqa: PLC0415

        d = dict(src_dict)
        kind = DetectRequestKind(d.pop("kind"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = DetectRequestRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        drop_columns = cast(list[str], d.pop("drop_columns", UNSET))

        _field_mapping = d.pop("field_mapping", UNSET)
        field_mapping: DetectRequestFieldMapping | Unset
        if isinstance(_field_mapping, Unset):
            field_mapping = UNSET
        else:
            field_mapping = DetectRequestFieldMapping.from_dict(_field_mapping)

        _tags = d.pop("tags", UNSET)
        tags: ShareGptTags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = ShareGptTags.from_dict(_tags)

        detect_request = cls(
            kind=kind,
            rows=rows,
            drop_columns=drop_columns,
            field_mapping=field_mapping,
            tags=tags,
        )

        return detect_request
