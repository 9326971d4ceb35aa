"""Writing derived datasets: a subset of rows (deduplication), the layout the TRL engine reads, and splits.

Derived files hold only readable rows. They are Parquet, except when a column mixes types that Parquet cannot
hold in one column (a prompt that is text in some rows and a message list in others): then JSON Lines.
"""

import json
from pathlib import Path
from typing import Literal

import numpy as np
import polars as pl
from pydantic import BaseModel, Field

from training_platform.datafiles.table import ROW


class ConvertRequest(BaseModel):
    format: Literal["trl", "verl"] = Field(default="trl", description="Layout of the engine that will read it.")
    validation_fraction: float = Field(
        default=0.0, ge=0, lt=1, description="Share of rows split off as a validation set; 0 keeps one dataset."
    )
    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="Seed of the shuffle before the split.")
    name: str | None = Field(default=None, max_length=200, description="Name of the result (default: '<name>-trl').")


def suffix_for(frame: pl.DataFrame) -> str:
    return ".jsonl" if any(dtype == pl.Object for dtype in frame.dtypes) else ".parquet"


def write_frame(frame: pl.DataFrame, path: Path) -> None:
    """Write the rows (without the row-number column) in the format the path's suffix names."""
    data = frame.drop(ROW)
    if path.suffix == ".parquet":
        data.write_parquet(path)
        return
    with open(path, "w", encoding="utf-8") as handle:
        for row in data.iter_rows(named=True):
            handle.write(json.dumps({k: v for k, v in row.items() if v is not None}, ensure_ascii=False) + "\n")


def trl_layout(frame: pl.DataFrame, field_mapping: dict[str, str]) -> pl.DataFrame:
    """Columns under the platform's field names (what engines/trl reads), the mapped source columns dropped."""
    mapped_sources = set(field_mapping.values()) - set(field_mapping)
    return frame.drop([name for name in mapped_sources if name in frame.columns])


def split(frame: pl.DataFrame, validation_fraction: float, seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A shuffled split; both parts keep the original row order."""
    validation_size = max(1, round(frame.height * validation_fraction))
    chosen = np.zeros(frame.height, dtype=bool)
    chosen[np.random.default_rng(seed).permutation(frame.height)[:validation_size]] = True
    mask = pl.Series(chosen)
    return frame.filter(~mask), frame.filter(mask)
