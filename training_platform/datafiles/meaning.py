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

MEDIA_COLUMNS = ("images", "videos", "audios")
KTO_LABEL = "label"
MULTIMODAL = "multimodal training is not supported"
# What reading such a file as each kind would do.
_KTO_AS = {
    "sft": "as SFT the answers labelled false would be trained as targets",
    "dpo": "DPO needs a chosen and a rejected answer to the same prompt, not one answer and a label",
}
_BOOLEAN_TEXTS = {"true", "false"}  # a CSV column is text (datafiles/readers.py)


def _is_boolean(value: Any) -> bool:
    return isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in _BOOLEAN_TEXTS)


def meaning_problems(
    columns: Sequence[str],
    label_values: Iterable[Any],
    kind: str,
    mapping_keys: Iterable[str] = (),
    field: str = "file",
) -> list[tuple[str, str]]:
    """Why rows with these columns (those left after the dropped ones) cannot be trained as they mean, as
    (field, problem), `field` naming the file. `label_values` are the non-null values of the `label` column, if
    there is one (a sample); `mapping_keys` the field mapping's keys (LLaMA-Factory's `images` key names a media
    column)."""
    problems = []
    media = [name for name in MEDIA_COLUMNS if name in columns]
    for name in media:
        problems.append(
            (
                field,
                f"column '{name}' holds media: {MULTIMODAL} (the rows' text alone would train, media placeholders "
                f"such as <image> as text); to train on the text alone, drop it on purpose: "
                f"drop_columns: [{', '.join(repr(m) for m in media)}]",
            )
        )
    for key in mapping_keys:
        if key in MEDIA_COLUMNS:
            problems.append((f"field_mapping.{key}", f"names media: {MULTIMODAL}"))
    values = list(label_values)
    if kind in _KTO_AS and KTO_LABEL in columns and values and all(_is_boolean(v) for v in values):
        problems.append(
            (
                field,
                f"column '{KTO_LABEL}' holds true/false per answer: this is KTO-style unpaired preference data "
                f"(LLaMA-Factory's kto_tag, TRL's unpaired preference), which the platform does not train: "
                f"{_KTO_AS[kind]}. Keep the rows labelled true in a file of their own to train them as SFT.",
            )
        )
    return problems
