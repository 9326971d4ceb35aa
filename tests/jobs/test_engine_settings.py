"""Engine settings (JobCreate.engine_settings) on a real server: TRL config fields and verl overrides shown by the
preview (POST /jobs/preview, the job file's, the CLI's) without creating anything; refused with the key named when
the platform sets them, when they reach outside the job, when the engine does not know them, or when its own checks
refuse the value; kept by the job and its job file; and taken by TRL in a real run (its resolved config)."""

import json
from pathlib import Path

import yaml

from tests.support.jobs import sft_body

TRL_SETTINGS = {"adam_beta2": 0.95, "neftune_noise_alpha": 5.0, "optim": "adamw_torch"}


def refused(server, body: dict, path: str = "/jobs/preview") -> dict[str, str]:
    response = server.api.post(path, json=body)
    assert response.status_code == 422, response.text
    return {error["field"]: error["message"] for error in response.json()["errors"]}


def test_trl_settings_are_previewed_kept_in_the_job_file_and_trained_with(server, demo_assets, tmp_path):
    body = {**sft_body(demo_assets, "trl-settings", max_steps=2, save_interval=None), "engine_settings": TRL_SETTINGS}
    response = server.api.post("/jobs/preview", json=body)
    assert response.status_code == 200, response.text
    preview = response.json()
    arguments = preview["configuration"]["trl_arguments"]
    assert {key: arguments[key] for key in TRL_SETTINGS} == TRL_SETTINGS
    assert arguments["learning_rate"] == body["params"]["learning_rate"] and arguments["report_to"] == "none"
    assert preview["engine"] == "trl" and preview["device"] == "cpu"
    assert preview["command"][1:3] == ["-m", "training_platform.engines.trl"]
    assert server.api.get("/jobs/trl-settings").status_code == 404  # nothing was created

    job = server.create_job(**body, start=True)
    assert job["engine_settings"] == TRL_SETTINGS
    done = server.wait_for_status(job["id"], "completed", "failed")
    assert done["status"] == "completed", done["error"]
    resolved = json.loads((Path(job["output_dir"]) / "resolved_config.json").read_text())
    assert {key: resolved[key] for key in TRL_SETTINGS} == TRL_SETTINGS

    text = server.api.get("/jobs/trl-settings/spec").json()["text"]
    assert yaml.safe_load(text)["engine_settings"] == TRL_SETTINGS
    job_file = tmp_path / "job.yaml"
    job_file.write_text(text)
    shown = server.cli("jobs", "preview", "-f", str(job_file), "--name", "trl-settings-again")
    assert shown.returncode == 0, shown.stderr
    assert "adam_beta2: 0.95" in shown.stdout and "training_platform.engines.trl" in shown.stdout


def test_trl_settings_are_refused_with_their_key(server, demo_assets):
    body = sft_body(demo_assets, "trl-refused", max_steps=2)
    # What the platform sets, and what reaches outside the job: said by the server itself, every key at once.
    settings = {"learning_rate": 0.1, "push_to_hub": True, "report_to": "wandb", "output_dir": "/tmp/elsewhere",
                # packing that lets samples attend to each other ('wrapped' cuts and joins them, without
                # padding_free the pack gets one attention mask), and vLLM's server mode
                "packing_strategy": "wrapped", "padding_free": False, "vllm_mode": "server"}  # fmt: skip
    errors = refused(server, {**body, "engine_settings": settings})
    assert set(errors) == {f"engine_settings.{key}" for key in settings}
    assert "change the parameter" in errors["engine_settings.learning_rate"]
    assert "change the parameter" in errors["engine_settings.packing_strategy"]
    assert "change the parameter" in errors["engine_settings.padding_free"]
    assert "server on the network" in errors["engine_settings.vllm_mode"]
    assert "docs/trackers.md" in errors["engine_settings.report_to"]
    # What TRL's SFTConfig does not have, and a field it parses from JSON text into options.
    errors = refused(server, {**body, "engine_settings": {"no_such_field": 1, "dataset_kwargs": "{}"}})
    assert errors == {
        "engine_settings.no_such_field": "not a field of TRL's SFTConfig",
        "engine_settings.dataset_kwargs": "a field TRL reads as a mapping of options: not an engine setting",
    }
    # A value TRL's own checks refuse.
    errors = refused(server, {**body, "engine_settings": {"optim": "no_such_optimizer"}}, "/jobs")
    assert list(errors) == ["engine_settings.optim"] and "refuses it" in errors["engine_settings.optim"]
    # A mapping is not a setting's value, whatever the key.
    response = server.api.post("/jobs/preview", json={**body, "engine_settings": {"optim_args": {"a": 1}}})
    assert response.status_code == 422 and response.json()["errors"][0]["field"].startswith("engine_settings")
    assert server.api.get("/jobs/trl-refused").status_code == 404


def test_verl_settings_are_appended_to_the_command_and_checked_by_verl(server, demo_assets):
    body = {**sft_body(demo_assets, "verl-settings", max_steps=2), "engine": "verl"}
    settings = {"optim.betas": [0.9, 0.95], "trainer.balance_batch": False}
    response = server.api.post("/jobs/preview", json={**body, "engine_settings": settings})
    assert response.status_code == 200, response.text
    preview = response.json()
    assert preview["command"][-2:] == ["optim.betas=[0.9,0.95]", "trainer.balance_batch=false"]
    assert preview["configuration"]["verl_overrides"][-2:] == preview["command"][-2:]

    hostile = {
        "optim.lr": 0.5,  # the platform's, from params.learning_rate
        "trainer.project_name": "${oc.env:HOME}",  # an interpolation
        "hydra.searchpath": "[file:///tmp]",  # Hydra's own
    }
    errors = refused(server, {**body, "engine_settings": hostile})
    assert {"engine_settings.optim.lr", "engine_settings.trainer.project_name"} <= set(errors)
    assert "engine_settings.hydra.searchpath" in errors
    errors = refused(server, {**body, "engine_settings": {"trainer.no_such_key": 0}})  # verl's config has none
    assert list(errors) == ["engine_settings.trainer.no_such_key"]
    assert "Could not override 'trainer.no_such_key'" in errors["engine_settings.trainer.no_such_key"]
