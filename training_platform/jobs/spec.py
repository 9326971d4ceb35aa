"""A job as one document, a job file: what POST /jobs takes (JobCreate's fields, less `start`, which is a flag of
the request) and the data format of each plain data file, in YAML or JSON. Every problem names its field and its
line; a job's file, written back from the stored job, creates an identical job (docs/jobs.md, "Job files").

The stored job holds what its creation resolved: absolute paths, a registered dataset's file and format in place of
its `dataset:<name>`, an `auto` engine as the engine chosen, every parameter with its default. So is its file:
created again, it is the same job whatever has changed since among the registered datasets and models.
"""

from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from training_platform.common.yaml_text import YamlText, YamlTextError, read_yaml
from training_platform.contract.data import DataFormat
from training_platform.contract.params import Algorithm
from training_platform.datafiles.layout import DATASET_REFERENCE
from training_platform.db.tables import Job
from training_platform.errors import ConflictError, FieldError, InvalidInputError, field_errors_from_items
from training_platform.jobs.schemas import JobCreate, JobName

MAX_JOB_FILE_BYTES = 256 * 1024
# The data format of each data file that is a path, by the path as `dataset_paths` or `eval_dataset_path` has it
# (a registered dataset brings its own); the stored job's `dataset_formats`.
FORMATS = "dataset_formats"
# The request's flag, never the document's: a file creates a job, and starting it is asked each time.
FLAG = "start"
DOCUMENT_FIELDS = (*(name for name in JobCreate.model_fields if name != FLAG), FORMATS)
STORED_AS = {"health": "health_settings"}  # a Job column named otherwise than its JobCreate field
_FORMATS = TypeAdapter(dict[str, DataFormat])


class JobFileCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(
        max_length=MAX_JOB_FILE_BYTES,
        description=f"The job file: YAML or JSON, at most {MAX_JOB_FILE_BYTES} bytes; its keys: "
        f"{', '.join(DOCUMENT_FIELDS)}.",
    )
    start: bool = Field(default=False, description="Start the job right after creating it.")
    name: JobName | None = Field(default=None, description="Create it under this name instead of the file's.")


class JobFile(BaseModel):
    name: str
    text: str = Field(description="The job file (YAML): POST /jobs/spec with it creates an identical job.")


class JobDocument:
    """A job file read: the request it makes, the data formats it gives, and the line of each of its parts."""

    def __init__(self, read: YamlText, request: JobCreate, formats: dict[str, DataFormat]):
        self.read, self.request, self.formats = read, request, formats

    def located(self, error: InvalidInputError) -> InvalidInputError:
        """The service's refusal of the request, each field with its line in the file."""
        return InvalidInputError([_with_line(item, self.read) for item in error.errors])


def read_job_file(text: str, start: bool = False, name: str | None = None) -> JobDocument:
    """The job file's request (`name` in place of the file's); InvalidInputError names every problem's line."""
    if text.lstrip().startswith("{"):
        # JSON, which YAML reads, but PyYAML (YAML 1.1) refuses a tab as indentation; JSON's strings hold no raw
        # tab, so every one is whitespace, and a space in its place keeps every line where it was.
        text = text.replace("\t", " ")
    try:
        read = read_yaml(text, "job file", MAX_JOB_FILE_BYTES)
    except YamlTextError as error:
        raise InvalidInputError([FieldError("text", error.message, code=error.code, line=error.line)]) from None
    if not isinstance(read.value, dict):
        keys = ", ".join(DOCUMENT_FIELDS)
        raise InvalidInputError([FieldError("text", f"a job file is a mapping of {keys}", code="yaml", line=1)])
    document = dict(read.value)
    errors = []
    if FLAG in document:
        message = "a job file does not start its job: ask for it with the request's start (tplat jobs create --start)"
        errors.append(FieldError(FLAG, message, code="unknown_field", line=read.line_of((FLAG,))))
        document.pop(FLAG)
    formats: dict[str, DataFormat] = {}
    try:
        formats = _FORMATS.validate_python(document.pop(FORMATS, None) or {})
    except ValidationError as error:
        errors += field_errors_from_items(_prefixed(error, FORMATS))
    try:
        request = JobCreate.model_validate({**document, **({"name": name} if name else {}), FLAG: start})
    except ValidationError as error:
        request = None
        errors += field_errors_from_items(error.errors(include_url=False))
    if request is not None:
        errors += _format_problems(request, formats)
    if errors:
        raise InvalidInputError([_with_line(item, read) for item in errors])
    return JobDocument(read, request, formats)


def job_file(job: Job) -> JobFile:
    """The file that creates `job` again: its stored fields, a JobCreate field each (and its data formats)."""
    if job.algorithm not in {algorithm.value for algorithm in Algorithm}:
        raise ConflictError(f"job '{job.name}' is a {job.algorithm} run, not a training job: it has no job file")
    values = {name: getattr(job, STORED_AS.get(name, name)) for name in DOCUMENT_FIELDS}
    document = {name: value for name, value in values.items() if value not in (None, {})}
    header = f"# Job {job.name}: tplat jobs create -f FILE [--name NEW] creates it again (docs/jobs.md).\n"
    return JobFile(name=job.name, text=header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True))


def _format_problems(request: JobCreate, formats: dict[str, DataFormat]) -> list[FieldError]:
    entries = {*request.dataset_paths, *([request.eval_dataset_path] if request.eval_dataset_path else [])}
    problems = []
    for path in formats:
        if path.startswith(DATASET_REFERENCE):
            message = "a registered dataset brings its own data format (PATCH /datasets/{dataset} changes it)"
        elif path not in entries:
            message = "not one of dataset_paths or eval_dataset_path: a data format is given for a file the job reads"
        else:
            continue
        problems.append(FieldError(f"{FORMATS}.{path}", message, code="unknown_field"))
    return problems


def _prefixed(error: ValidationError, prefix: str) -> list[dict[str, Any]]:
    return [{**item, "loc": (prefix, *item["loc"])} for item in error.errors(include_url=False)]


def _with_line(error: FieldError, read: YamlText) -> FieldError:
    """`error` with the line of its field: the field's dotted name walked along the document's keys (a key may hold
    dots itself: a data file's path under dataset_formats)."""
    if error.line is not None:
        return error
    loc: list[str | int] = []
    value, rest = read.value, error.field
    while rest and isinstance(value, dict | list):
        if isinstance(value, list):
            head, _, rest = rest.partition(".")
            if not head.isdigit() or int(head) >= len(value):
                break
            loc.append(int(head))
            value = value[int(head)]
            continue
        key = max(
            (k for k in value if isinstance(k, str) and (rest == k or rest.startswith(k + "."))), key=len, default=None
        )
        if key is None:
            break
        loc.append(key)
        value, rest = value[key], rest[len(key) + 1 :]
    if not loc:
        return error
    return FieldError(error.field, error.message, error.row, error.code, error.params, line=read.line_of(tuple(loc)))
