"""Job files on a real server (no job is started): a job created from a YAML file (a registered dataset with its
format, a plain file with the format the file gives it) is written back by GET /jobs/{job}/spec, and that file,
in YAML and as JSON, creates an identical job; every refusal names its field and its line and creates nothing; the
CLI writes a job's file and creates a job from it."""

import json
from pathlib import Path

import pytest
import yaml

from training_platform.jobs.spec import MAX_JOB_FILE_BYTES

# What differs between two identical jobs.
OWN = {"id", "name", "output_dir", "created_at", "updated_at"}


@pytest.fixture(scope="module")
def alpaca(tmp_path_factory, demo_assets) -> Path:
    """The demo SFT rows in LLaMA-Factory's alpaca shape, which only a data format makes readable."""
    rows = [json.loads(line) for line in demo_assets["sft"].read_text().splitlines() if line.strip()]
    path = tmp_path_factory.mktemp("job_files") / "alpaca.jsonl"
    path.write_text("".join(json.dumps({"instruction": r["prompt"], "output": r["response"]}) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def first(server, demo_assets, alpaca) -> dict:
    """A job created from a file: a registered dataset for training, a plain file with its format for evaluation."""
    registered = {"name": "demo-sft", "path": str(demo_assets["sft"]), "kind": "sft"}
    assert server.api.post("/datasets", json=registered).status_code == 201
    text = f"""\
name: from-file
algorithm: sft
model_path: {demo_assets["model"]}
dataset_paths: [dataset:demo-sft]
eval_dataset_path: {alpaca}
dataset_formats:
  {alpaca}: {{preset: alpaca}}
params:
  learning_rate: 1.0e-4
  max_steps: 2
health:
  actions: {{pause_on_non_finite: true}}
"""
    response = server.api.post("/jobs/spec", json={"text": text})
    assert response.status_code == 201, response.text
    return response.json()


def spec(server, job: str) -> str:
    response = server.api.get(f"/jobs/{job}/spec")
    assert response.status_code == 200, response.text
    return response.json()["text"]


def same(a: dict, b: dict) -> None:
    assert {k: v for k, v in a.items() if k not in OWN} == {k: v for k, v in b.items() if k not in OWN}


def test_a_job_file_creates_an_identical_job_in_yaml_and_json(server, first, demo_assets, alpaca):
    assert (
        list(first["dataset_formats"]) == [str(alpaca)] and first["dataset_formats"][str(alpaca)]["preset"] == "alpaca"
    )
    assert first["params"]["learning_rate"] == 1e-4 and first["health_settings"]["actions"]["pause_on_non_finite"]
    text = spec(server, "from-file")
    document = yaml.safe_load(text)
    # The stored job's resolved fields: the registered dataset's file (its format as the platform's own is none).
    assert document["dataset_paths"] == [str(demo_assets["sft"])] and "start" not in document

    again = server.api.post("/jobs/spec", json={"text": text, "name": "from-file-again"})
    assert again.status_code == 201, again.text
    same(first, again.json())
    assert spec(server, "from-file-again") == text.replace("from-file", "from-file-again")

    as_json = json.dumps({**document, "name": "from-json"}, indent="\t")
    created = server.api.post("/jobs/spec", json={"text": as_json})
    assert created.status_code == 201, created.text
    same(first, created.json())


def errors(server, text: str) -> list[dict]:
    before = len(server.api.get("/jobs").json())
    response = server.api.post("/jobs/spec", json={"text": text})
    assert response.status_code == 422, response.text
    assert len(server.api.get("/jobs").json()) == before  # nothing created
    return response.json()["errors"]


def test_every_refusal_names_its_field_and_line(server, first, demo_assets, alpaca):
    text = spec(server, "from-file").replace("name: from-file", "name: refused")
    lines = text.splitlines()
    at = next(number for number, line in enumerate(lines, 1) if "learning_rate:" in line)

    bad_param = "\n".join(line.replace("0.0001", "-1.0") if "learning_rate" in line else line for line in lines)
    found = errors(server, bad_param)
    assert [(e["field"], e["line"]) for e in found] == [("params.learning_rate", at)], found

    found = errors(server, text + "colour: blue\n")
    assert [(e["field"], e["code"], e["line"]) for e in found] == [
        ("colour", "validation.extra_forbidden", len(lines) + 1)
    ]

    found = errors(server, text + "start: true\n")
    assert [(e["field"], e["line"]) for e in found] == [("start", len(lines) + 1)], found

    broken = text.replace("algorithm: sft", "algorithm: [sft", 1)
    [found] = errors(server, broken)
    assert found["field"] == "text" and found["code"] == "yaml" and found["line"] > 1, found

    document = yaml.safe_load(text)
    document["dataset_formats"] = {f"{alpaca}.other": {"preset": "alpaca"}}
    stray = yaml.safe_dump(document, sort_keys=False)
    key = next(number for number, line in enumerate(stray.splitlines(), 1) if ".other:" in line)
    found = errors(server, stray)
    # The line of the field's value (a block mapping: the line below its key), as a pipeline's problems have it.
    assert [(e["field"], e["line"]) for e in found] == [(f"dataset_formats.{alpaca}.other", key + 1)], found

    bomb = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n"
    [found] = errors(server, bomb)
    assert found["code"] == "yaml" and "anchors and aliases" in found["message"], found

    [found] = errors(server, text + "params:\n  max_steps: 5\n")  # params given twice: the first is not dropped
    assert (found["field"], found["code"], found["line"]) == ("text", "yaml", len(lines) + 1), found
    assert "'params' is given twice" in found["message"]

    [found] = errors(server, "name: big\n" + "#" * MAX_JOB_FILE_BYTES)
    assert found["field"] == "text", found

    missing = text.replace(str(demo_assets["model"]), "/nowhere/model")
    [found] = errors(server, missing)
    model_line = next(number for number, line in enumerate(lines, 1) if line.startswith("model_path:"))
    assert (found["field"], found["line"]) == ("model_path", model_line), found


def test_the_cli_writes_a_job_file_and_creates_a_job_from_it(server, first, tmp_path):
    exported = server.cli("jobs", "export-spec", "from-file")
    assert exported.returncode == 0, exported.stderr
    file = tmp_path / "job.yaml"
    file.write_text(exported.stdout)
    created = server.cli("jobs", "create", "-f", str(file), "--name", "from-cli")
    assert created.returncode == 0, created.stderr + created.stdout
    same(first, server.job("from-cli"))
