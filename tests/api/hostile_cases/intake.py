"""Attacks on registration that drops nothing without a word: refused shapes, mappings, detection."""

from collections.abc import Callable

from tests.support.hostile import Answer, Case, Hostile, all_of, fast, mentions, refused_naming

CASES: list[Case] = []


# -- JSON and JSON Lines told apart by what a file holds, whatever its name (issue 24): the reader a file's content
# chooses keeps every limit of the reader its name would have chosen.

GOOD_ROW = b'{"prompt": "q", "response": "a"}'
DEEP_ROW = b'{"prompt": "q", "response": "a", "x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"


def upload_file(name: str, filename: str, content: bytes) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        params = {"name": name, "kind": "sft", "filename": filename}
        headers = {"content-type": "application/octet-stream"}
        return h.call("alice", "POST", "/datasets/upload", params=params, content=content, headers=headers)

    return send


def names_row(row: int) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        rows = [error.get("row") for error in answer.json()["errors"]]
        assert row in rows or f"row {row}" in answer.text, answer.text

    return check


CASES += [
    Case(
        "json-named-file-of-json-lines-nested-deep",
        upload_file("deep-lines", "deep-lines.json", GOOD_ROW + b"\n" + DEEP_ROW + b"\n" + GOOD_ROW + b"\n"),
        422,
        names_row(2),
    ),
    Case(
        "json-named-file-first-line-nested-deep",
        upload_file("deep-first-line", "deep-first.json", DEEP_ROW + b"\n" + GOOD_ROW + b"\n"),
        422,
        names_row(1),
    ),
    Case(
        "jsonl-named-json-array-nested-deep",
        upload_file("deep-array", "deep-array.jsonl", b"[" + GOOD_ROW + b",\n" + DEEP_ROW + b"]"),
        422,
        names_row(2),
    ),
]


# -- field mappings (issue 24): `/datasets/detect`, which viewers may call, spent 15 s of CPU on one request of long
# dotted paths, walked once per row and per format tried; a mapping key nothing reads was ignored without a word.

DETECT_ROWS = [{"prompt": "q", "response": "a", "label": True}] * 100


def detect(mapping: dict[str, str], rows: list[dict] = DETECT_ROWS[:1]) -> Callable[[Hostile], Answer]:
    body = {"kind": "sft", "rows": rows, "field_mapping": mapping}
    return lambda h: h.call("val", "POST", "/datasets/detect", json=body)


def register_mapped(mapping: dict[str, str]) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        body = {"name": "mapped", "path": str(h.demo["sft"]), "kind": "sft", "field_mapping": mapping}
        return h.call("alice", "POST", "/datasets", json=body)

    return send


def upload_mapped(entry: str) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        params = {"name": "mapped-upload", "kind": "sft", "filename": "m.jsonl", "field": [entry]}
        content = b'{"prompt": "mapped", "response": "a", "label": "x"}\n'  # a content no dataset has
        return h.call("alice", "POST", "/datasets/upload", params=params, content=content)

    return send


CASES += [
    Case(
        "detect-long-dotted-path",
        detect({"prompt": "a." * 25_000 + "a"}, DETECT_ROWS),
        422,
        all_of(refused_naming("field_mapping.prompt"), fast(2.0)),
    ),
    Case("detect-deep-dotted-path", detect({"prompt": ".".join("abcdefghij")}), 422, refused_naming("field_mapping")),
    Case(
        "detect-many-mapped-fields",
        detect({f"f{i}": "prompt" for i in range(40)}),
        422,
        refused_naming("field_mapping"),
    ),
    Case("detect-many-columns", detect({}, [{f"c{i}": 0 for i in range(2000)}]), 422, refused_naming("rows.0")),
    Case("detect-unknown-mapping-key", detect({"kto_tag": "label"}), 422, refused_naming("field_mapping.kto_tag")),
    Case("detect-kto-labels", detect({}, DETECT_ROWS), 422, mentions("KTO-style unpaired preference data")),
    Case(
        "register-media-mapping-key",
        register_mapped({"images": "prompt"}),
        422,
        all_of(refused_naming("field_mapping.images"), mentions("multimodal training is not supported")),
    ),
    Case("upload-unknown-mapping-key", upload_mapped("kto_tag=label"), 422, refused_naming("field_mapping.kto_tag")),
    Case(
        "upload-long-mapping-path",
        upload_mapped("prompt=" + "p" * 5000),
        422,
        refused_naming("field_mapping.prompt"),
    ),
]
