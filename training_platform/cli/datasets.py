"""`tplat datasets ...`: upload, inspect, audit, analyse, search, deduplicate and convert datasets.

Everything goes through the API, except `audit FILE`, which checks a local file right here (no server needed).
"""

import json
import re
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from training_platform.cli.common import (
    JsonOpt,
    client,
    console,
    err_console,
    follow_task,
    print_json,
    print_tasks,
    upload,
)
from training_platform.datafiles.kinds import DATASET_KINDS
from training_platform.datafiles.layout import SUPPORTED_TYPES
from training_platform.errors import field_errors_from_pydantic
from training_platform.settings import get_settings

app = typer.Typer(help="Upload, audit, analyse, search and deduplicate datasets.", no_args_is_help=True)
DatasetArg = Annotated[str, typer.Argument(help="Dataset name or id.")]
KindOpt = Annotated[
    str, typer.Option("--algorithm", "-a", help=f"{', '.join(DATASET_KINDS[:-1])} or {DATASET_KINDS[-1]}.")
]
FieldOpt = Annotated[
    list[str],
    typer.Option(
        "--field", help="Field mapping FIELD=COLUMN or FIELD=a.dotted.path (e.g. prompt=question); repeatable."
    ),
]
PresetOpt = Annotated[
    str,
    typer.Option(
        help="Format preset: alpaca, sharegpt, openai, trl-prompt-completion, trl-preference, sharegpt-preference, "
        "verl-rl, platform, or auto (detected)."
    ),
]
TagOpt = Annotated[
    list[str], typer.Option("--tag", help="Sharegpt tag KEY=VALUE (e.g. role_tag=role, user_tag=user); repeatable.")
]
DropOpt = Annotated[
    list[str],
    typer.Option(
        "--drop",
        help="A column left out of every row on purpose (a media column: multimodal training is not supported); "
        "repeatable.",
    ),
]


def _registered(dataset: dict, what: str) -> None:
    """The registration line, then what training will not read: the columns dropped on purpose and those nothing
    reads."""
    console.print(f"registered dataset [bold]{escape(dataset['name'])}[/bold] ({dataset['id']}): {what}")
    if dataset["dropped_columns"]:
        console.print(f"dropped on purpose: {escape(', '.join(dataset['dropped_columns']))}")
    if dataset["unused_columns"]:
        console.print(f"columns training will not read: {escape(', '.join(dataset['unused_columns']))}")


@app.command("upload")
def upload_file(
    file: Annotated[Path, typer.Argument(help=f"A {SUPPORTED_TYPES} file.", exists=True, dir_okay=False)],
    algorithm: KindOpt,
    name: Annotated[str | None, typer.Option(help="Dataset name (default: the file name without suffix).")] = None,
    description: Annotated[str, typer.Option(help="What the data is.")] = "",
    field: FieldOpt = [],  # noqa: B006
    label: Annotated[list[str], typer.Option(help="A label column for distributions; repeatable.")] = [],  # noqa: B006
    preset: PresetOpt = "auto",
    tag: TagOpt = [],  # noqa: B006
    drop: DropOpt = [],  # noqa: B006
    allow_invalid_rows: Annotated[bool, typer.Option(help="Register even with invalid rows.")] = False,
) -> None:
    """Upload a file to the platform's data directory and register it (refused whole if it does not validate)."""
    params = {
        "name": name or re.sub(r"[^A-Za-z0-9._-]", "-", file.stem).lstrip("-._") or "dataset",
        "kind": algorithm,
        "filename": file.name,
        "description": description,
        "field": field,
        "label_fields": label,
        "preset": preset,
        "tag": tag,
        "drop_columns": drop,
        "allow_invalid_rows": allow_invalid_rows,
    }
    dataset = upload(
        file,
        f"uploading {file.name}",
        lambda chunks: client().post("/datasets/upload", params=params, content=chunks, timeout=None),
    )
    _registered(
        dataset,
        f"{dataset['kind']}, {dataset['num_rows']} rows, {dataset['num_invalid']} invalid, "
        f"format {dataset['preset'] or 'platform'}",
    )


@app.command()
def register(
    path: Annotated[
        Path,
        typer.Argument(
            help="A data file, a folder of data files, a save_to_disk folder or a hub snapshot, on the server's disk."
        ),
    ],
    algorithm: KindOpt,
    name: Annotated[str, typer.Option(help="Dataset name.")],
    description: Annotated[str, typer.Option(help="What the data is.")] = "",
    field: FieldOpt = [],  # noqa: B006
    label: Annotated[list[str], typer.Option(help="A label column; repeatable.")] = [],  # noqa: B006
    preset: PresetOpt = "auto",
    tag: TagOpt = [],  # noqa: B006
    split: Annotated[
        str | None, typer.Option(help="Of a folder holding splits, the one to register (default: train).")
    ] = None,
    drop: DropOpt = [],  # noqa: B006
    allow_invalid_rows: Annotated[bool, typer.Option(help="Register even with invalid rows.")] = False,
) -> None:
    """Register data already on disk where it is (the platform never deletes it)."""
    from training_platform.datasets.schemas import field_assignments, sharegpt_tags

    body = {
        "name": name,
        "path": str(path.expanduser().resolve()),
        "kind": algorithm,
        "description": description,
        "field_mapping": field_assignments(field),
        "label_fields": label,
        "preset": preset,
        "tags": sharegpt_tags(tag).model_dump(),
        "split": split,
        "drop_columns": drop,
        "allow_invalid_rows": allow_invalid_rows,
    }
    dataset = client().post("/datasets", json=body)
    _registered(dataset, f"{dataset['num_rows']} rows, format {dataset['preset'] or 'platform'}")
    if others := [split for split in dataset["splits"] if split != (dataset["split"] or "train")]:
        console.print(
            f"the folder also holds the split(s) {', '.join(others)}: register one with --split to evaluate on it"
        )


@app.command("import-llamafactory")
def import_llamafactory(
    path: Annotated[
        Path,
        typer.Argument(help="A LLaMA-Factory dataset_info.json, or the folder holding it, on the server's disk."),
    ],
    prefix: Annotated[str, typer.Option(help="Put before each entry's name to make the dataset's name.")] = "",
    dry_run: Annotated[bool, typer.Option(help="Say what would be registered, register nothing.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Register every local dataset a LLaMA-Factory project describes, with its format, columns and tags; hub
    datasets and what the platform does not train are skipped with the reason. Exits 1 when an entry failed."""
    body = {"path": str(path.expanduser().resolve()), "prefix": prefix, "dry_run": dry_run}
    found = client().post("/datasets/import/llamafactory", json=body, timeout=None)
    if as_json:
        print_json(found)
    else:
        table = Table("entry", "outcome", "dataset", "kind", "format", "why / notes")
        for entry in found["entries"]:
            why = "; ".join(filter(None, [entry["reason"], *entry["notes"]]))
            table.add_row(
                escape(entry["entry"]), entry["outcome"], escape(entry["dataset"] or ""), entry["kind"] or "",
                entry["preset"] or "", escape(why),
            )  # fmt: skip
        console.print(table)
        outcomes = [entry["outcome"] for entry in found["entries"]]
        console.print(", ".join(f"{outcomes.count(o)} {o}" for o in dict.fromkeys(outcomes)) + f" ({found['path']})")
    if any(entry["outcome"] == "failed" for entry in found["entries"]):
        raise typer.Exit(1)


@app.command("list")
def list_datasets(as_json: JsonOpt = False) -> None:
    datasets = client().get("/datasets")
    if as_json:
        print_json(datasets)
        return
    table = Table("name", "kind", "rows", "invalid", "format", "version", "source", "id")
    for d in datasets:
        table.add_row(
            d["name"], d["kind"], str(d["num_rows"]), str(d["num_invalid"]), d["file_format"], str(d["version"]),
            d["source"], d["id"][:12],
        )  # fmt: skip
    console.print(table)


@app.command()
def show(dataset: DatasetArg) -> None:
    """Everything about one dataset, with its versions."""
    api = client()
    print_json({**api.get(f"/datasets/{dataset}"), "versions": api.get(f"/datasets/{dataset}/versions")})


@app.command()
def fields(
    dataset: DatasetArg,
    field: FieldOpt = [],  # noqa: B006
    label: Annotated[list[str], typer.Option(help="Label columns (replaces the current ones); repeatable.")] = [],  # noqa: B006
    preset: Annotated[
        str | None, typer.Option(help="A new format preset (as upload's), or auto to detect it again.")
    ] = None,
    tag: TagOpt = [],  # noqa: B006
) -> None:
    """Set the field configuration: the rows' format (preset, sharegpt tags, field mapping) and label columns.
    A changed format is checked on every row; the dataset's audits and vector index are forgotten."""
    from training_platform.datasets.schemas import field_assignments, sharegpt_tags

    body: dict[str, Any] = {}
    if field:
        body["field_mapping"] = field_assignments(field)
    if label:
        body["label_fields"] = label
    if preset:
        body["preset"] = preset
    if tag:
        body["tags"] = sharegpt_tags(tag).model_dump()
    updated = client().request("PATCH", f"/datasets/{dataset}", json=body)
    console.print(
        f"format {updated['preset'] or 'platform'}, fields {json.dumps(updated['field_mapping'])}, "
        f"labels {json.dumps(updated['label_fields'])}"
    )


@app.command()
def rows(
    dataset: DatasetArg,
    offset: Annotated[int, typer.Option(help="Rows to skip.")] = 0,
    limit: Annotated[int, typer.Option(help="Rows to show.")] = 10,
) -> None:
    print_json(client().get(f"/datasets/{dataset}/rows", params={"offset": offset, "limit": limit}))


@app.command()
def preview(
    dataset: DatasetArg,
    row: Annotated[int, typer.Argument(help="Row number (from 1).")],
    tokenizer: Annotated[str, typer.Option(help="Registered model, or a model/tokenizer directory.")],
    max_length: Annotated[int | None, typer.Option(help="Truncation length (default: the algorithm's).")] = None,
    train_on: Annotated[
        str, typer.Option(help="Which assistant turns train: all_assistant or last_assistant (an SFT job's train_on).")
    ] = "all_assistant",
) -> None:
    """The row as the model sees it; the tokens that carry the loss are shown in green."""
    params = {"tokenizer": tokenizer, "train_on": train_on, **({"max_length": max_length} if max_length else {})}
    found = client().get(f"/datasets/{dataset}/rows/{row}/preview", params=params)
    for sequence in found["sequences"]:
        console.print(f"[bold]{sequence['name']}[/bold]: {sequence['loss_tokens']} of {sequence['num_tokens']} tokens")
        text = "".join(
            f"[green]{escape(span['text'])}[/green]" if span["loss"] else escape(span["text"])
            for span in sequence["spans"]
        )
        console.print(text, soft_wrap=True)


@app.command()
def stats(
    dataset: DatasetArg,
    tokenizer: Annotated[str | None, typer.Option(help="Count tokens with this model's tokenizer.")] = None,
    bins: Annotated[int, typer.Option(help="Histogram bins.")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """Null rates, label distributions and token-length histograms."""
    params = {"bins": bins, **({"tokenizer": tokenizer} if tokenizer else {})}
    found = client().get(f"/datasets/{dataset}/stats", params=params)
    if as_json:
        print_json(found)
        return
    console.print(f"{found['num_rows']} rows, tokens counted by: {found['tokenizer']}")
    columns = Table("column", "type", "nulls", "null rate", "blank")
    for c in found["columns"]:
        columns.add_row(c["name"], c["dtype"], str(c["nulls"]), f"{c['null_rate']:.2%}", str(c["blanks"]))
    console.print(columns)
    for label in found["labels"]:
        values = Table(f"{label['field']} ({label['distinct']} values)", "count", "share")
        for value in label["values"]:
            values.add_row(str(value["value"]), str(value["count"]), f"{value['share']:.1%}")
        console.print(values)
    lengths = Table("field", "min", "p50", "p90", "p99", "max", "mean")
    for length in found["lengths"]:
        lengths.add_row(
            length["field"], *(f"{length[k]:g}" for k in ("min", "p50", "p90", "p99", "max", "mean"))
        )  # fmt: skip
    console.print(lengths)


def _wait(dataset: str, task: dict, what: str) -> dict:
    return follow_task(f"/datasets/{dataset}/tasks/{task['id']}", task, what)


@app.command()
def versions(dataset: DatasetArg, as_json: JsonOpt = False) -> None:
    """Every version of the dataset's lineage (the original, deduplicated and converted copies)."""
    found = client().get(f"/datasets/{dataset}/versions")
    if as_json:
        print_json(found)
        return
    table = Table("version", "name", "rows", "derivation", "parent")
    for item in found:
        table.add_row(
            str(item["version"]), item["name"], str(item["num_rows"]), item["derivation"], item["parent_id"] or ""
        )
    console.print(table)


@app.command()
def tasks(dataset: DatasetArg) -> None:
    """The dataset's background tasks (audits, indexes, deduplications), newest first."""
    print_tasks(client().get(f"/datasets/{dataset}/tasks"))


@app.command()
def audit(
    file_or_dataset: Annotated[str, typer.Argument(help="A local data file, or a registered dataset's name or id.")],
    algorithm: Annotated[str | None, typer.Option("--algorithm", "-a", help="Kind (needed for a file).")] = None,
    field: FieldOpt = [],  # noqa: B006
    preset: Annotated[
        str, typer.Option(help="A local file's format preset (see upload), or platform (its own fields).")
    ] = "platform",
    tag: TagOpt = [],  # noqa: B006
    tokenizer: Annotated[str | None, typer.Option(help="Count tokens with this tokenizer (a directory).")] = None,
    near_threshold: Annotated[float, typer.Option(help="Word-bigram Jaccard for near duplicates.")] = 0.8,
    semantic: Annotated[bool, typer.Option(help="Also look for semantic duplicates (embeds every prompt).")] = False,
    semantic_threshold: Annotated[float, typer.Option(help="Cosine similarity for semantic duplicates.")] = 0.9,
    min_tokens: Annotated[int | None, typer.Option(help="Shorter texts are outliers.")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Longer texts are outliers.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every finding with all its rows as JSON.")] = False,
) -> None:
    """Quality checks; exits 0 whatever they find, 1 only when the data cannot be read at all."""
    from pydantic import ValidationError

    from training_platform.datasets.audit import AuditOptions

    try:
        options = AuditOptions(
            near_threshold=near_threshold,
            semantic=semantic,
            semantic_threshold=semantic_threshold,
            tokenizer=tokenizer,
            min_tokens=min_tokens,
            max_tokens=max_tokens,
        )
    except ValidationError as error:
        raise typer.BadParameter("; ".join(str(e) for e in field_errors_from_pydantic(error))) from None
    path = Path(file_or_dataset).expanduser()
    if path.exists():
        if algorithm is None:
            raise typer.BadParameter("auditing a file needs its kind", param_hint="--algorithm")
        report = _audit_file(path, algorithm, field, preset, tag, options)
    else:
        api = client()
        task = _wait(
            file_or_dataset, api.post(f"/datasets/{file_or_dataset}/audit", json=options.model_dump()), "audit"
        )
        report = api.get(f"/datasets/reports/{task['result']['report']}")
    if as_json:
        print_json(report)
        return
    _print_findings(report)


def _audit_file(path: Path, kind: str, field: list[str], preset: str, tag: list[str], options) -> dict:
    from pydantic import ValidationError

    from training_platform.contract.data import DataFormat
    from training_platform.datafiles.errors import DatasetFileError
    from training_platform.datafiles.formats import schema_for
    from training_platform.datafiles.rows import apply_format
    from training_platform.datafiles.table import load_table
    from training_platform.datasets.audit import audit_table
    from training_platform.datasets.schemas import field_assignments, sharegpt_tags
    from training_platform.datasets.stats import unread_columns
    from training_platform.datasets.tokens import token_counter
    from training_platform.datasets.vectors import Embedder, SemanticIndex, VectorStore
    from training_platform.errors import PlatformError

    settings = get_settings()
    columns = [TextColumn("auditing: {task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%")]
    try:
        with Progress(*columns, TimeElapsedColumn(), console=err_console, transient=True) as progress:
            bar = progress.add_task("reading", total=1.0)
            try:
                data_format = DataFormat(
                    preset=None if preset == "platform" else preset,
                    field_mapping=field_assignments(field),
                    tags=sharegpt_tags(tag),
                )
            except ValidationError as error:
                raise typer.BadParameter("; ".join(str(e) for e in field_errors_from_pydantic(error))) from None
            raw = load_table(path)
            unused = unread_columns(raw.columns, data_format, kind, [])
            table = apply_format(raw, data_format, kind)
            with tempfile.TemporaryDirectory() as vectors_dir:
                semantic = None
                if options.semantic:
                    embedder = Embedder(settings.embedding_batch_size, settings.embedding_cpu_threads)
                    store = VectorStore(str(Path(vectors_dir) / "milvus.db"))
                    semantic = SemanticIndex(store, embedder, "audit", content=str(path))
                report = audit_table(
                    table,
                    kind,
                    schema_for(kind),
                    options,
                    token_counter(options.tokenizer),
                    semantic,
                    lambda fraction, message: progress.update(bar, completed=fraction, description=message),
                    unused_columns=unused,
                )
                if semantic is not None:
                    semantic.store.close()
    except (DatasetFileError, PlatformError) as error:
        err_console.print(f"[red]cannot audit {path}[/red]: {error}")
        raise typer.Exit(1) from None
    return report.model_dump(mode="json")


def _print_findings(report: dict) -> None:
    console.print(f"{report['num_rows']} rows; checks: {', '.join(report['checks'])}")
    if not report["findings"]:
        console.print("[green]no findings[/green]")
        return
    table = Table("kind", "rows", "message", "first rows")
    for finding in report["findings"]:
        first = ", ".join(str(r) for r in finding["rows"][:10]) + (" …" if len(finding["rows"]) > 10 else "")
        table.add_row(finding["kind"], str(len(finding["rows"])), finding["message"], first)
    console.print(table)


@app.command()
def index(dataset: DatasetArg) -> None:
    """Embed every prompt into the vector store (search needs it)."""
    task = _wait(dataset, client().post(f"/datasets/{dataset}/index"), "indexing")
    console.print(f"indexed {task['result']['rows']} prompts with {task['result']['model']}")


@app.command()
def search(
    dataset: DatasetArg,
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    top_k: Annotated[int, typer.Option(help="How many rows.")] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Rows whose prompt means what the query means (builds the vector index first if needed)."""
    api = client()
    if not api.get(f"/datasets/{dataset}/index")["ready"]:
        _wait(dataset, api.post(f"/datasets/{dataset}/index"), "indexing")
    hits = api.post(f"/datasets/{dataset}/search", json={"query": query, "top_k": top_k})
    if as_json:
        print_json(hits)
        return
    table = Table("row", "score", "prompt")
    for hit in hits:
        table.add_row(str(hit["row"]), f"{hit['score']:.3f}", hit["text"])
    console.print(table)


@app.command()
def dedup(
    dataset: DatasetArg,
    method: Annotated[str, typer.Option(help="semantic, near or exact.")] = "semantic",
    threshold: Annotated[float | None, typer.Option(help="Cosine (semantic) or Jaccard (near) similarity.")] = None,
    name: Annotated[str | None, typer.Option(help="Name of the new version.")] = None,
) -> None:
    """Keep one row per duplicate group, as a new version of the dataset."""
    body = {"method": method, "threshold": threshold, "name": name}
    result = _wait(dataset, client().post(f"/datasets/{dataset}/dedup", json=body), "dedup")["result"]
    if result["dataset"] is None:
        console.print("no duplicates found; no new version")
        return
    console.print(
        f"removed {result['removed']} rows in {result['groups']} groups: new version [bold]{result['name']}[/bold]"
    )


@app.command()
def convert(
    dataset: DatasetArg,
    validation_fraction: Annotated[float, typer.Option(help="Share split off for validation (0: no split).")] = 0.0,
    seed: Annotated[int, typer.Option(help="Shuffle seed of the split.")] = 0,
    name: Annotated[str | None, typer.Option(help="Name of the result.")] = None,
) -> None:
    """Write the Parquet layout the TRL engine reads (platform field names, valid rows only) as new versions."""
    body = {"format": "trl", "validation_fraction": validation_fraction, "seed": seed, "name": name}
    for created in client().post(f"/datasets/{dataset}/convert", json=body):
        console.print(
            f"created [bold]{created['name']}[/bold]: {created['num_rows']} rows, version {created['version']}"
        )


@app.command()
def delete(dataset: DatasetArg) -> None:
    """Forget the dataset; files the platform stored (uploads, versions) are deleted with it."""
    client().delete(f"/datasets/{dataset}")
    console.print(f"deleted dataset {dataset}")
