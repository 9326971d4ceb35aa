"""Registered models on SQLite and PostgreSQL: a Hugging Face directory under a unique name, with what its config
and weights say."""

import json
import uuid

import numpy as np
import pytest
from safetensors.numpy import save_file

from training_platform.db.tables import RegisteredModel
from training_platform.errors import ConflictError, InvalidInputError, NotFoundError
from training_platform.models.schemas import ModelRead, ModelRegister


def model_dir(path, model_type="qwen2"):
    """A config and 8×4 + 4 = 36 parameters: all the registry reads."""
    path.mkdir()
    (path / "config.json").write_text(json.dumps({"model_type": model_type}))
    weights = {"embed": np.zeros((8, 4), dtype=np.float32), "bias": np.zeros(4, dtype=np.float32)}
    save_file(weights, str(path / "model.safetensors"))
    return path.resolve()


def test_register_list_and_get(platform, tmp_path):
    path = model_dir(tmp_path / "tiny")
    tiny = platform.models.register(ModelRegister(name="tiny", path=str(path), description="for the tests"))
    assert isinstance(tiny, ModelRead)
    assert (tiny.name, tiny.path, tiny.architecture, tiny.num_parameters, tiny.description) == (
        "tiny",
        str(path),
        "qwen2",
        36,
        "for the tests",
    )
    platform.models.register(ModelRegister(name="another", path=str(model_dir(tmp_path / "other", "llama"))))
    assert [m.name for m in platform.models.list_all()] == ["another", "tiny"]
    assert platform.models.get("tiny") == platform.models.get(tiny.id) == tiny
    with pytest.raises(NotFoundError, match="no model with id or name 'nope'"):
        platform.models.get("nope")


def test_a_taken_name_is_a_conflict(platform, tmp_path):
    path = str(model_dir(tmp_path / "tiny"))
    platform.models.register(ModelRegister(name="tiny", path=path))
    with pytest.raises(ConflictError, match="a model named 'tiny' is already registered"):
        platform.models.register(ModelRegister(name="tiny", path=path))
    assert len(platform.models.list_all()) == 1


def test_a_name_taken_between_check_and_insert_is_a_conflict(platform):
    def row():
        return RegisteredModel(id=uuid.uuid4().hex, name="tiny", path="/models/tiny")

    platform.models.store.add(row())
    with pytest.raises(ConflictError, match="model 'tiny' was registered meanwhile"):
        platform.models.store.add(row())


def test_a_path_that_is_no_model_directory_is_refused_on_path(platform, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text("{not json")
    expected = {
        "missing": "does not exist or is not a directory",
        "empty": "is not a Hugging Face model directory (no config.json)",
        "broken": "config.json is not valid JSON",
    }
    for name, message in expected.items():
        with pytest.raises(InvalidInputError) as caught:
            platform.models.register(ModelRegister(name=name, path=str(tmp_path / name)))
        [error] = caught.value.errors
        assert error.field == "path" and message in error.message, name
    assert platform.models.list_all() == []
