"""/api/v1/datasets: HTTP in, service calls out. Uploads stream the request body straight to the staging file."""

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse

from training_platform.api.deps import LanguageDep, PlatformDep
from training_platform.contract.data import LossTurns, PresetChoice
from training_platform.contract.params import MAX_SEQUENCE_LENGTH, MAX_STEPS
from training_platform.datasets.audit import AuditOptions
from training_platform.datasets.convert import ConvertRequest
from training_platform.datasets.preview import LossPreview, RowsPage
from training_platform.datasets.schemas import (
    AuditTaskRead,
    DatasetKind,
    DatasetKindRead,
    DatasetName,
    DatasetRead,
    DatasetRegister,
    DatasetUpdate,
    DedupRequest,
    DetectRequest,
    DetectResult,
    FileTypesRead,
    IndexState,
    LlamaFactoryImport,
    LlamaFactoryImportResult,
    SearchHitOut,
    SearchRequest,
    TaskRead,
    field_assignments,
    sharegpt_tags,
    upload_request,
)
from training_platform.datasets.stats import DatasetStats

router = APIRouter(prefix="/datasets", tags=["datasets"])


@router.get("")
def list_datasets(platform: PlatformDep, kind: DatasetKind | None = None) -> list[DatasetRead]:
    return platform.datasets.list_all(kind)


@router.get("/kinds")
def dataset_kinds(platform: PlatformDep) -> list[DatasetKindRead]:
    """Each kind of dataset: its fields and the format presets that read it."""
    return platform.datasets.kinds()


@router.get("/file-types")
def file_types() -> FileTypesRead:
    """The file types a dataset file may be: the one list the CLI's and the web dialog's upload help show."""
    return FileTypesRead.accepted()


@router.post("", status_code=status.HTTP_201_CREATED)
def register_dataset(body: DatasetRegister, platform: PlatformDep) -> DatasetRead:
    """Register a file or a directory already on the server's disk, where it is."""
    return platform.datasets.register(body)


@router.post("/import/llamafactory")
def import_llamafactory(body: LlamaFactoryImport, platform: PlatformDep) -> LlamaFactoryImportResult:
    """Register every local dataset a LLaMA-Factory dataset_info.json describes, with its format, columns and tags;
    each entry says whether it was registered, skipped (and why: hub datasets, media, KTO) or failed (and why)."""
    return platform.datasets.import_llamafactory(body)


@router.post("/detect")
def detect_format(body: DetectRequest, platform: PlatformDep, language: LanguageDep) -> DetectResult:
    """The format a file's first rows would register with (read by the client before it sends the file), with
    those rows as the engines would receive them; why no preset fits in the reader's language."""
    return platform.datasets.detect(body, language)


@router.post("/upload", status_code=status.HTTP_201_CREATED)
async def upload_dataset(
    request: Request,
    platform: PlatformDep,
    name: DatasetName,
    kind: DatasetKind,
    filename: Annotated[
        str, Query(min_length=1, max_length=255, description=f"The file's name: {FileTypesRead.accepted().summary}.")
    ],
    description: Annotated[str, Query(max_length=10_000)] = "",
    field: Annotated[list[str], Query(description="Field mapping entries FIELD=COLUMN, e.g. prompt=question.")] = [],  # noqa: B006
    label_fields: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI copies it)
    preset: Annotated[PresetChoice, Query(description="The rows' format preset; auto detects it.")] = "auto",
    tag: Annotated[list[str], Query(description="Sharegpt tags KEY=VALUE, e.g. role_tag=role.")] = [],  # noqa: B006
    allow_invalid_rows: bool = False,
    drop_columns: Annotated[
        list[str], Query(description="A column left out of every row on purpose (a media column); repeatable.")
    ] = [],  # noqa: B006
) -> DatasetRead:
    """The request body is the file itself (any content type), streamed to disk; it is registered only if it
    reads and validates, and refused whole otherwise."""
    upload = upload_request(
        name=name,
        kind=kind,
        filename=filename,
        description=description,
        field_mapping=field_assignments(field),
        label_fields=label_fields,
        preset=preset,
        tags=sharegpt_tags(tag),
        allow_invalid_rows=allow_invalid_rows,
        drop_columns=drop_columns,
    )
    await run_in_threadpool(platform.datasets.check_upload, upload)
    with platform.datasets.receive(filename) as staged:
        async for chunk in request.stream():
            await run_in_threadpool(staged.write, chunk)
        return await run_in_threadpool(platform.datasets.finish_upload, staged, upload)


@router.get("/reports/{report_id}")
def download_report(report_id: str, platform: PlatformDep) -> FileResponse:
    """A validation or audit report in full (every row)."""
    path = platform.datasets.report_path(report_id)
    return FileResponse(path, media_type="application/json", filename=f"report-{report_id}.json")


@router.get("/{dataset}")
def get_dataset(dataset: str, platform: PlatformDep) -> DatasetRead:
    return platform.datasets.get(dataset)


@router.patch("/{dataset}")
def update_dataset(dataset: str, body: DatasetUpdate, platform: PlatformDep) -> DatasetRead:
    """Field configuration: which columns are the prompt/response (loss) fields, which are labels."""
    return platform.datasets.update(dataset, body)


@router.delete("/{dataset}", status_code=status.HTTP_204_NO_CONTENT)
def delete_dataset(dataset: str, platform: PlatformDep) -> Response:
    platform.datasets.delete(dataset)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{dataset}/versions")
def dataset_versions(dataset: str, platform: PlatformDep) -> list[DatasetRead]:
    return platform.datasets.versions(dataset)


@router.get("/{dataset}/rows")
def dataset_rows(
    dataset: str,
    platform: PlatformDep,
    offset: Annotated[int, Query(ge=0, le=MAX_STEPS)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 20,
    normalised: Annotated[
        bool, Query(description="The rows in the platform's shape, through the dataset's format preset.")
    ] = False,
) -> RowsPage:
    return platform.datasets.rows(dataset, offset, limit, normalised)


@router.get("/{dataset}/rows/{row}/preview")
def row_preview(
    dataset: str,
    row: Annotated[int, Path(ge=1, le=MAX_STEPS)],
    platform: PlatformDep,
    tokenizer: Annotated[
        str,
        Query(min_length=1, max_length=4096, description="Registered model, or a model/tokenizer directory."),
    ],
    max_length: Annotated[int | None, Query(ge=1, le=MAX_SEQUENCE_LENGTH)] = None,
    train_on: Annotated[LossTurns, Query(description="The SFT job's loss policy: which assistant turns train.")] = (
        "all_assistant"
    ),
) -> LossPreview:
    """The row after the chat template, token by token, with the tokens that carry the loss marked."""
    return platform.datasets.preview(dataset, row, tokenizer, max_length, train_on)


@router.get("/{dataset}/stats")
def dataset_stats(
    dataset: str,
    platform: PlatformDep,
    tokenizer: Annotated[str | None, Query(max_length=4096)] = None,
    bins: Annotated[int, Query(ge=1, le=200)] = 20,
) -> DatasetStats:
    return platform.datasets.stats(dataset, tokenizer, bins)


@router.post("/{dataset}/audit", status_code=status.HTTP_202_ACCEPTED)
def start_audit(dataset: str, body: AuditOptions, platform: PlatformDep) -> TaskRead:
    """Runs in the background; follow it at /datasets/{dataset}/tasks/{task}."""
    return platform.datasets.start_audit(dataset, body)


@router.post("/{dataset}/index", status_code=status.HTTP_202_ACCEPTED)
def start_index(dataset: str, platform: PlatformDep) -> TaskRead:
    """Embed every prompt into the vector store (needed by search)."""
    return platform.datasets.start_index(dataset)


@router.get("/{dataset}/index")
def index_state(dataset: str, platform: PlatformDep) -> IndexState:
    return IndexState(ready=platform.datasets.index_ready(dataset))


@router.post("/{dataset}/search")
def search(dataset: str, body: SearchRequest, platform: PlatformDep) -> list[SearchHitOut]:
    return [SearchHitOut(**vars(hit)) for hit in platform.datasets.search(dataset, body.query, body.top_k)]


@router.post("/{dataset}/dedup", status_code=status.HTTP_202_ACCEPTED)
def start_dedup(dataset: str, body: DedupRequest, platform: PlatformDep) -> TaskRead:
    """Keeps one row per duplicate group and writes the rest as a new version of the dataset."""
    return platform.datasets.start_dedup(dataset, body)


@router.post("/{dataset}/convert", status_code=status.HTTP_201_CREATED)
def convert(dataset: str, body: ConvertRequest, platform: PlatformDep) -> list[DatasetRead]:
    return platform.datasets.convert(dataset, body)


@router.get("/{dataset}/tasks")
def list_tasks(dataset: str, platform: PlatformDep) -> list[TaskRead]:
    return platform.datasets.list_tasks(dataset)


@router.get("/{dataset}/tasks/{task}")
def get_task(dataset: str, task: str, platform: PlatformDep, language: LanguageDep) -> AuditTaskRead:
    """An audit's findings are said in the reader's language."""
    return platform.datasets.task(dataset, task, language)
