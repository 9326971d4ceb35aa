"""Models and data are read by path only from under the data roots (docs/security.md, "Limits"): outside them every
way in (a job's model, data, evaluation data and PPO reward model, a registered model or dataset, a tokenizer, the
configurator's model) answers one 422 that says nothing about the path, whether it exists or not; a link under a
root that points outside is refused like its target; under a root, what is wrong with a path is said as before."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.datasets.files import clean_sft_rows, write_jsonl
from training_platform.common.paths import OUTSIDE_ROOTS, under_roots
from training_platform.compute.schemas import EstimateBody
from training_platform.contract.params import Algorithm
from training_platform.datasets.audit import AuditOptions
from training_platform.datasets.schemas import DatasetRegister
from training_platform.errors import ConflictError, InvalidInputError
from training_platform.jobs.schemas import JobCreate
from training_platform.models.schemas import ModelRegister

SFT_PARAMS = {"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 5}


@pytest.fixture(scope="module")
def outside(demo_assets):
    """A directory outside pytest's base directory (the tests' data root), holding a real model and dataset: what
    is refused there is refused for where it is, not for what it holds."""
    root = Path(tempfile.mkdtemp(prefix="tplat-outside-")).resolve()
    shutil.copytree(demo_assets["model"], root / "model")
    shutil.copy(demo_assets["sft"], root / "data.jsonl")
    yield root
    shutil.rmtree(root)


def the_refusal(call) -> tuple[str, str]:
    with pytest.raises(InvalidInputError) as caught:
        call()
    [error] = caught.value.errors
    return error.field, error.message


def test_under_roots_resolves_before_it_compares(tmp_path, outside):
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    (root / "link").symlink_to(outside)
    assert under_roots(str(root / "data" / "x.jsonl"), [root]) == root / "data" / "x.jsonl"
    assert under_roots(str(root / "data" / ".." / "data"), [root]) == root / "data"
    for refused in (
        str(root / ".." / "elsewhere"),
        str(root / "link" / "data.jsonl"),
        str(root) + "-sibling",
        "~root/x",
        "a\0b",
        "",
        "relative/path",
    ):
        assert under_roots(refused, [root]) is None, refused


def test_a_job_outside_the_roots_is_one_refusal_whether_the_path_exists_or_not(platform, demo_assets, outside):
    def create(**overrides):
        body = dict(
            name="run-1",
            algorithm=Algorithm.SFT,
            model_path=str(demo_assets["model"]),
            dataset_paths=[str(demo_assets["sft"])],
            params=SFT_PARAMS,
        )
        return lambda: platform.jobs.create(JobCreate(**{**body, **overrides}))

    for existing, missing in [(outside / "model", outside / "no-model"), (Path("/etc"), Path("/no/such/model"))]:
        refusals = {the_refusal(create(model_path=str(path))) for path in (existing, missing)}
        assert refusals == {("model_path", OUTSIDE_ROOTS)}
    for path in (outside / "data.jsonl", outside / "missing.jsonl", Path("/etc/hostname"), Path("/no/such.csv")):
        assert the_refusal(create(dataset_paths=[str(path)])) == ("dataset_paths.0", OUTSIDE_ROOTS)
        assert the_refusal(create(eval_dataset_path=str(path))) == ("eval_dataset_path", OUTSIDE_ROOTS)
    ppo = dict(algorithm=Algorithm.PPO, engine="verl", dataset_paths=[str(demo_assets["grpo"])])
    for path in (outside / "model", outside / "missing"):
        params = {**SFT_PARAMS, "reward_model_path": str(path)}
        with pytest.raises(InvalidInputError) as caught:
            create(**ppo, params=params)()
        assert ("params.reward_model_path", OUTSIDE_ROOTS) in {(e.field, e.message) for e in caught.value.errors}
    assert platform.jobs.list_jobs([], 100, 0) == []


def test_under_the_roots_a_job_is_told_what_is_wrong_as_before(platform, demo_assets, tmp_path):
    def messages(**overrides) -> dict[str, str]:
        body = dict(
            name="run-1",
            algorithm=Algorithm.SFT,
            model_path=str(demo_assets["model"]),
            dataset_paths=[str(demo_assets["sft"])],
            params=SFT_PARAMS,
        )
        with pytest.raises(InvalidInputError) as caught:
            platform.jobs.create(JobCreate(**{**body, **overrides}))
        return {e.field: e.message for e in caught.value.errors}

    assert "does not exist" in messages(model_path=str(tmp_path / "no-model"))["model_path"]
    assert "does not exist" in messages(dataset_paths=[str(tmp_path / "none.jsonl")])["dataset_paths.0"]
    assert "unsupported file type" in messages(dataset_paths=[str(tmp_path / "x.xlsx")])["dataset_paths.0"]
    job = platform.jobs.create(
        JobCreate(
            name="ok",
            algorithm=Algorithm.SFT,
            model_path=str(demo_assets["model"]),
            dataset_paths=[str(demo_assets["sft"])],
            params=SFT_PARAMS,
        )
    )
    assert job.model_path == str(demo_assets["model"].resolve())


def test_a_link_inside_a_root_to_outside_is_refused(platform, demo_assets, tmp_path, outside):
    (tmp_path / "model-link").symlink_to(outside / "model")
    (tmp_path / "data-link.jsonl").symlink_to(outside / "data.jsonl")
    linked_dir = tmp_path / "dir"
    linked_dir.mkdir()
    (linked_dir / "part.jsonl").symlink_to(outside / "data.jsonl")
    assert the_refusal(
        lambda: platform.models.register(ModelRegister(name="m", path=str(tmp_path / "model-link")))
    ) == ("path", OUTSIDE_ROOTS)
    for path in (tmp_path / "data-link.jsonl", linked_dir):
        register = DatasetRegister(name="d", path=str(path), kind="sft")
        assert the_refusal(lambda r=register: platform.datasets.register(r)) == ("path", OUTSIDE_ROOTS)
        body = JobCreate(
            name="run-1",
            algorithm=Algorithm.SFT,
            model_path=str(demo_assets["model"]),
            dataset_paths=[str(path)],
            params=SFT_PARAMS,
        )
        assert the_refusal(lambda b=body: platform.jobs.create(b)) == ("dataset_paths.0", OUTSIDE_ROOTS)


def test_models_datasets_tokenizers_and_the_configurator_outside_the_roots(platform, demo_assets, outside):
    for path in (outside / "model", outside / "missing", "/etc"):
        model = ModelRegister(name="m", path=str(path))
        assert the_refusal(lambda m=model: platform.models.register(m)) == ("path", OUTSIDE_ROOTS)
        body = EstimateBody(model=str(path), seq_len=512)
        field, message = the_refusal(lambda b=body: platform.compute.estimate(b))
        assert field == "model" and message.endswith(OUTSIDE_ROOTS) and str(path) not in message
    for path in (outside / "data.jsonl", outside / "missing.jsonl", "/etc/hostname"):
        register = DatasetRegister(name="d", path=str(path), kind="sft")
        assert the_refusal(lambda r=register: platform.datasets.register(r)) == ("path", OUTSIDE_ROOTS)
    assert platform.models.list_all() == [] and platform.datasets.list_all() == []
    # A tokenizer named by path, in a statistic, an audit or a preview.
    dataset = platform.datasets.register(DatasetRegister(name="d", path=str(demo_assets["sft"]), kind="sft"))
    for call in (
        lambda: platform.datasets.stats(dataset.name, str(outside / "model"), 10),
        lambda: platform.datasets.start_audit(dataset.name, AuditOptions(tokenizer=str(outside / "model"))),
        lambda: platform.datasets.preview(dataset.name, 1, str(outside / "missing"), None),
    ):
        assert the_refusal(call) == ("tokenizer", OUTSIDE_ROOTS)
    # Under the roots all of them work.
    assert platform.models.register(ModelRegister(name="m", path=str(demo_assets["model"]))).num_parameters
    assert platform.compute.estimate(EstimateBody(model=str(demo_assets["model"]), seq_len=512)).model.num_parameters
    assert platform.datasets.stats(dataset.name, "m", 10).tokenizer


def test_a_registered_file_swapped_for_a_link_outside_is_no_longer_read(platform, tmp_path, outside):
    path = write_jsonl(tmp_path / "data.jsonl", clean_sft_rows())
    dataset = platform.datasets.register(DatasetRegister(name="d", path=str(path), kind="sft"))
    assert platform.datasets.rows("d", 0, 5).rows
    path.unlink()
    path.symlink_to(outside / "data.jsonl")
    for call in (lambda: platform.datasets.rows("d", 0, 5), lambda: platform.datasets.stats("d", None, 10)):
        with pytest.raises(ConflictError, match=OUTSIDE_ROOTS.replace("(", r"\(").replace(")", r"\)")):
            call()
    body = JobCreate(
        name="run-1",
        algorithm=Algorithm.SFT,
        model_path=str(tmp_path),
        dataset_paths=[f"dataset:{dataset.name}"],
        params=SFT_PARAMS,
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(body)
    assert any(e.field == "dataset_paths.0" and OUTSIDE_ROOTS in e.message for e in caught.value.errors)


def test_refused_paths_come_with_every_other_problem_at_once(platform, outside):
    body = JobCreate(
        name="run-1",
        algorithm=Algorithm.SFT,
        model_path=str(outside / "model"),
        dataset_paths=[str(outside / "data.jsonl"), "dataset:nope"],
        params={**SFT_PARAMS, "learning_rate": -1},
    )
    with pytest.raises(InvalidInputError) as caught:
        platform.jobs.create(body)
    fields = {e.field: e.message for e in caught.value.errors}
    assert fields["model_path"] == fields["dataset_paths.0"] == OUTSIDE_ROOTS
    assert "nope" in fields["dataset_paths.1"] and "greater than 0" in fields["params.learning_rate"]
