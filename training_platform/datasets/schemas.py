"""What the datasets API accepts and returns."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from training_platform.contract.data import DroppedColumns, FieldMapping, PresetChoice, ShareGptTags
from training_platform.datafiles.kinds import DATASET_KINDS
from training_platform.datafiles.layout import SUPPORTED_SUFFIXES, SUPPORTED_TYPES
from training_platform.datasets.audit import SEMANTIC_THRESHOLD, Finding
from training_platform.datasets.preview import RowOut
from training_platform.errors import FieldError, InvalidInputError, field_errors_from_pydantic
from training_platform.tasks import BackgroundTaskRead

DatasetKind = Literal[DATASET_KINDS]  # datafiles/kinds.py
MAX_DETECT_COLUMNS = 1000  # of a row sent to be detected
DatasetName = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]


def field_assignments(entries: list[str], field: str = "field") -> dict[str, str]:
    """`["prompt=question", "response=answer"]` → a field mapping (how the CLI and the upload query spell it)."""
    mapping, errors = {}, []
    for index, entry in enumerate(entries):
        target, sep, source = entry.partition("=")
        if not sep or not target.strip() or not source.strip():
            errors.append(FieldError(f"{field}.{index}", f"expected FIELD=COLUMN, got {entry!r}"))
        else:
            mapping[target.strip()] = source.strip()
    if errors:
        raise InvalidInputError(errors)
    return mapping


def sharegpt_tags(entries: list[str]) -> ShareGptTags:
    """`["role_tag=role", "user_tag=user"]` → a sharegpt preset's tags (how the CLI and the upload query spell them)."""
    try:
        return ShareGptTags(**field_assignments(entries, "tag"))
    except ValidationError as error:
        raise InvalidInputError(field_errors_from_pydantic(error, prefix="tag")) from None


def upload_request(**values: Any) -> "DatasetUpload":
    """An upload's query parameters as its request: refused with the fields named (a mapping path too long, say),
    as a JSON body would be."""
    try:
        return DatasetUpload(**values)
    except ValidationError as error:
        raise InvalidInputError(field_errors_from_pydantic(error)) from None


class DatasetKindRead(BaseModel):
    """A kind of dataset as the UI offers it (datafiles/kinds.py): the fields a column may be mapped to, and the
    format presets that read it."""

    kind: DatasetKind
    fields: list[str]
    presets: list[str]


class FileTypesRead(BaseModel):
    """The file types a dataset file may be (datafiles/layout.py), uploaded or registered where it is; a folder
    registered where it is holds files of these types (docs/datasets.md)."""

    suffixes: list[str] = Field(description="e.g. .jsonl")
    summary: str = Field(description="The suffixes in one phrase, as help texts show them.")

    @classmethod
    def accepted(cls) -> "FileTypesRead":
        return cls(suffixes=list(SUPPORTED_SUFFIXES), summary=SUPPORTED_TYPES)


class DatasetFields(BaseModel):
    """The field configuration, shared by every way of registering a dataset."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(default="", max_length=10_000)
    field_mapping: FieldMapping = Field(default_factory=dict)
    label_fields: list[str] = Field(default_factory=list, description="Columns whose value distribution matters.")
    preset: PresetChoice = Field(
        default="auto",
        description="The shape of the rows: a format preset, 'platform' (the platform's own fields), or 'auto': the "
        "platform's own when the first rows fit them, else the one preset they fit.",
    )
    tags: ShareGptTags = Field(default_factory=ShareGptTags, description="A sharegpt preset's keys and role tags.")
    split: str | None = Field(
        default=None, max_length=100, description="Of a folder holding splits, the one to register (default: train)."
    )
    allow_invalid_rows: bool = Field(
        default=False, description="Register even if some rows are invalid (they are counted and audited)."
    )
    drop_columns: DroppedColumns = Field(
        default_factory=list,
        description="Columns left out of every row on purpose (media columns: multimodal training is not "
        "supported); the dataset's record keeps them as `dropped_columns`.",
    )


class DatasetRegister(DatasetFields):
    name: DatasetName
    path: str = Field(
        min_length=1,
        max_length=4096,
        description="A data file, or a directory of data files of one format, under the data roots.",
    )
    kind: DatasetKind


class DatasetUpload(DatasetFields):
    name: DatasetName
    kind: DatasetKind
    filename: str = Field(min_length=1, description="The uploaded file's name; only its suffix and name are used.")


class DatasetUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str | None = Field(default=None, max_length=10_000)
    field_mapping: FieldMapping | None = None
    label_fields: list[str] | None = None
    preset: PresetChoice | None = Field(
        default=None,
        description="A new format preset ('auto' detects it again, 'platform' reads the platform's own fields); the "
        "dataset's audits and vector index are forgotten when its format changes.",
    )
    tags: ShareGptTags | None = Field(default=None, description="New sharegpt keys and role tags.")


class DatasetRead(BaseModel):
    id: str
    name: str
    path: str
    kind: str
    file_format: str
    num_rows: int
    num_invalid: int
    size_bytes: int
    description: str
    content_hash: str | None
    source: str
    original_filename: str | None
    columns: list[str]
    field_mapping: dict[str, str]
    preset: str | None
    tags: dict[str, str] | None
    split: str | None
    splits: list[str]  # of the folder it was registered from; the others can be registered as evaluation sets
    label_fields: list[str]
    dropped_columns: list[str]  # left out of every row on purpose, at registration
    unused_columns: list[str]  # columns nothing reads: not training, not the label statistics
    parent_id: str | None
    lineage_id: str | None
    version: int
    derivation: str
    created_at: datetime


class TaskRead(BackgroundTaskRead):
    dataset_id: str
    kind: Literal["audit", "index", "dedup"]


class AuditTaskRead(TaskRead):
    """A finished audit shows its first findings (each with its first rows); the report has all of them."""

    findings: list[Finding] | None = None
    findings_total: int | None = None


class IndexState(BaseModel):
    ready: bool  # an index of the current prompts exists (search works)


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=10_000)
    top_k: int = Field(default=5, ge=1, le=100)


class SearchHitOut(BaseModel):
    row: int
    score: float
    text: str


class DedupRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    method: Literal["semantic", "near", "exact"] = "semantic"
    threshold: float | None = Field(
        default=None,
        gt=0,
        le=1,
        description=f"Cosine (semantic, default {SEMANTIC_THRESHOLD}) or Jaccard (near, default 0.8).",
    )
    name: DatasetName | None = Field(default=None, description="Name of the new version (default '<name>-dedup').")


class DetectRequest(BaseModel):
    """The first rows of a file, read by the client, to propose its format before the file is sent."""

    model_config = ConfigDict(extra="forbid")

    kind: DatasetKind
    # Bounded (docs/security.md, "Limits"): each row is normalised once per format tried.
    rows: list[Annotated[dict[str, Any], Field(max_length=MAX_DETECT_COLUMNS)]] = Field(min_length=1, max_length=100)
    field_mapping: FieldMapping = Field(default_factory=dict)
    tags: ShareGptTags = Field(default_factory=ShareGptTags)
    drop_columns: DroppedColumns = Field(default_factory=list)


class PresetTried(BaseModel):
    preset: str
    problem: str | None  # None: every row fits it


class DetectResult(BaseModel):
    preset: str | None  # the format the rows would register with: None for the platform's own fields
    detected: bool  # False: no single format fits (`message` says why); the rows are shown as the platform reads them
    message: str | None
    tried: list[PresetTried]
    rows: list[RowOut]  # each row in the platform's shape, or why it cannot be read
    unused_columns: list[str]  # columns nothing will read


class LlamaFactoryImport(BaseModel):
    """A LLaMA-Factory project's dataset_info.json, each local dataset it describes registered where it is
    (datasets/llamafactory.py)."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(
        min_length=1,
        max_length=4096,
        description="The dataset_info.json on the server's disk, or the folder holding it (LLaMA-Factory's "
        "dataset_dir), under the data roots.",
    )
    prefix: str = Field(
        default="",
        max_length=100,
        pattern=r"^([A-Za-z0-9][A-Za-z0-9._-]*)?$",
        description="Put before each entry's name to make the dataset's name (e.g. 'lf-').",
    )
    dry_run: bool = Field(default=False, description="Say what would be registered, register nothing.")


class ImportedEntry(BaseModel):
    """What became of one entry of a dataset_info.json."""

    entry: str  # its name in the file
    outcome: Literal["registered", "would_register", "skipped", "failed"]
    dataset: str | None = None  # the platform's name of the dataset (registered or would be)
    kind: str | None = None
    preset: str | None = None  # the format preset it is read with
    path: str | None = None  # the data file it stands for
    reason: str | None = None  # why it was skipped or failed
    notes: list[str] = Field(default_factory=list)  # what of the entry the platform does not apply, and why


class LlamaFactoryImportResult(BaseModel):
    path: str  # the dataset_info.json read
    entries: list[ImportedEntry]
