"""Attacks through job files and a LLaMA-Factory project: YAML that names Python objects, a parameter holding an
interpolation or a Hydra target, engine settings that would run code, reach a hub or resolve the server's
environment, a job's data outside the roots, and a dataset_info.json that points out of its folder or lies outside
the roots itself. A refused file creates nothing; nothing is read outside the roots."""

import json
from collections.abc import Callable

from tests.support.hostile import Answer, Case, Hostile, all_of, mentions, refused_naming


def job_file(lines: Callable[[Hostile], list[str]], name: str) -> Callable[[Hostile], Answer]:
    """A member's job file: a demo SFT job named `name`, with `lines` after its model."""

    def send(h: Hostile) -> Answer:
        head = [f"name: {name}", "algorithm: sft", f"model_path: {json.dumps(str(h.demo['model']))}"]
        return h.call("alice", "POST", "/jobs/spec", json={"text": "\n".join([*head, *lines(h)]) + "\n"})

    return send


def sft_data(h: Hostile) -> list[str]:
    return [f"dataset_paths: [{json.dumps(str(h.demo['sft']))}]"]


def no_job(name: str) -> Callable[[Hostile, Answer], None]:
    def check(hostile: Hostile, _answer: Answer) -> None:
        assert hostile.server.api.get(f"/jobs/{name}").status_code == 404

    return check


def llamafactory_project(h: Hostile, entries: dict, where: str = "data") -> Answer:
    folder = h.data / "llamafactory" if where == "data" else h.root / "llamafactory-beside-the-roots"
    folder.mkdir(exist_ok=True)
    (folder / "dataset_info.json").write_text(json.dumps(entries))
    return h.call("alice", "POST", "/datasets/import/llamafactory", json={"path": str(folder / "dataset_info.json")})


def failed_entry(reason: str) -> Callable[[Hostile, Answer], None]:
    def check(_hostile: Hostile, answer: Answer) -> None:
        [entry] = answer.json()["entries"]
        assert entry["outcome"] == "failed" and reason in entry["reason"], entry

    return check


CASES: list[Case] = [
    Case(
        "job-file-yaml-python-object",
        job_file(
            lambda h: [*sft_data(h), f'params: !!python/object/apply:os.system ["touch {h.canary / "job"}"]'], "j1"
        ),
        422,
        all_of(refused_naming("text"), no_job("j1")),
    ),
    Case(
        "job-file-param-interpolation-and-hydra-target",  # never resolved: refused as parameters no job has
        job_file(lambda h: [*sft_data(h), "params: {_target_: os.system, learning_rate: '${oc.env:HOME}'}"], "j2"),
        422,
        all_of(refused_naming("params"), no_job("j2")),
    ),
    Case(
        "job-file-trl-settings-running-code-or-reaching-a-hub",
        job_file(
            lambda h: [
                *sft_data(h),
                "engine_settings:",
                "  trust_remote_code: true",
                "  push_to_hub: true",
                "  model_init_kwargs: '{\"trust_remote_code\": true}'",
                f"  logging_dir: {json.dumps(str(h.outside))}",
            ],
            "j4",
        ),
        422,
        all_of(
            refused_naming(*(f"engine_settings.{key}" for key in ("trust_remote_code", "push_to_hub", "logging_dir"))),
            refused_naming("engine_settings.model_init_kwargs"),
            no_job("j4"),
        ),
    ),
    Case(
        "job-file-verl-settings-resolving-or-importing",
        job_file(
            lambda h: [
                *sft_data(h),
                "engine: verl",
                "engine_settings:",
                "  trainer.project_name: ${oc.env:HOME}",
                "  hydra.searchpath: '[file:///tmp]'",
                "  model.external_lib: os",
                f"  trainer.default_hdfs_dir: {json.dumps(str(h.outside))}",
            ],
            "j5",
        ),
        422,
        all_of(
            refused_naming("engine_settings.trainer.project_name", "engine_settings.hydra.searchpath"),
            refused_naming("engine_settings.model.external_lib", "engine_settings.trainer.default_hdfs_dir"),
            no_job("j5"),
        ),
    ),
    Case(
        "job-file-data-outside-the-roots",
        job_file(lambda h: [f"dataset_paths: [{json.dumps(str(h.outside / 'x.jsonl'))}]"], "j3"),
        422,
        all_of(refused_naming("dataset_paths"), no_job("j3")),
    ),
    Case(
        "llamafactory-entry-escaping-its-folder",
        lambda h: llamafactory_project(h, {"escape": {"file_name": "../../outside/secret.json"}}),
        200,
        failed_entry("outside"),
    ),
    Case(
        "llamafactory-project-outside-the-roots",
        lambda h: llamafactory_project(h, {"x": {"file_name": "x.json"}}, where="outside"),
        422,
        all_of(refused_naming("path"), mentions("root")),
    ),
]
