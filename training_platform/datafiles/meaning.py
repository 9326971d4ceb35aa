"""Files the platform cannot train as they mean are refused with the reason, never registered under a kind that
changes their meaning.

- A boolean `label` per answer (LLaMA-Factory's `kto_tag`, TRL's unpaired preference type) is KTO-style unpaired
  preference data: read as SFT, every answer labelled false would become a target; DPO needs pairs. The platform
  trains neither on it.
- Media columns (`images`, `videos`, `audios`: LLaMA-Factory's multimodal keys, TRL's vision datasets): the
  platform trains on text only, and the rows' `<image>` placeholders would be trained as text. Such a file is
  refused unless its registration drops the media columns on purpose (contract/data.py DataFormat.drop_columns),
  which the dataset's record keeps.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from training_platform.common.text import Text

MEDIA_COLUMNS = ("images", "videos", "audios")
KTO_LABEL = "label"
MULTIMODAL = "multimodal training is not supported"  # why LLaMA-Factory's media entries are skipped (llamafactory.py)
# What reading such a file as each kind would do (common/catalogue.py `dataset.kto_as_<kind>`).
_KTO_KINDS = ("sft", "dpo")
_BOOLEAN_TEXTS = {"true", "false"}  # a CSV column is text (datafiles/readers.py)


def _is_boolean(value: Any) -> bool:
    return isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in _BOOLEAN_TEXTS)


def meaning_problems(
    columns: Sequence[str],
    label_values: Iterable[Any],
    kind: str,
    mapping_keys: Iterable[str] = (),
    field: str = "file",
) -> list[tuple[str, Text]]:
    """Why rows with these columns (those left after the dropped ones) cannot be trained as they mean, as
    (field, problem), `field` naming the file. `label_values` are the non-null values of the `label` column, if
    there is one (a sample); `mapping_keys` the field mapping's keys (LLaMA-Factory's `images` key names a media
    column)."""
    problems = []
    media = [name for name in MEDIA_COLUMNS if name in columns]
    dropped = ", ".join(repr(m) for m in media)
    for name in media:
        problems.append((field, Text.of("dataset.media_column", column=name, columns=dropped)))
    for key in mapping_keys:
        if key in MEDIA_COLUMNS:
            problems.append((f"field_mapping.{key}", Text.of("dataset.media_mapping")))
    values = list(label_values)
    if kind in _KTO_KINDS and KTO_LABEL in columns and values and all(_is_boolean(v) for v in values):
        why = Text.of(f"dataset.kto_as_{kind}")
        problems.append((field, Text.of("dataset.kto_label", column=KTO_LABEL, why=why.as_dict())))
    return problems
