"""mergekit's YAML recipe (what `mergekit-yaml` reads) to the platform's MergeParams and back, on the server: it
imports neither mergekit nor torch, so reading a recipe costs the server no heavy import; the price is that the
recipe's rules are restated here, held to mergekit's own by tests/merging.

A recipe merges whole models: `merge_method`, `base_model`, `models` (each `model` with its `parameters`),
`parameters` and `dtype`. What mergekit reads but a MergeParams cannot carry is refused with why, never dropped:
`slices` and `modules` (layer surgery), `tokenizer_source`, `tokenizer` and `chat_template` (the result takes the
base model's tokenizer, or the first model's), LoRA (`model+adapter`) and hub revisions (`model@rev`) in a model's
name, per-tensor parameter filters, and an `out_dtype` other than `dtype`.

dtype: mergekit's `dtype` is the dtype the weights are loaded and combined in, and the output's when `out_dtype`
is unset; `out_dtype` is the output's alone. MergeParams holds one dtype, written to mergekit as `dtype`, so it is
both the arithmetic's and the output's. A recipe that sets `out_dtype` must set `dtype` to the same value: reading
"combine in float32, write bfloat16" (or "combine in the inputs' dtype, write bfloat16") as one dtype would change
the result's numbers without a word.

`random_seed` (DARE's drops) and the device are the run's settings, not the recipe's (mergekit takes them on its
command line, --random-seed and --cuda), so a parsed recipe leaves them at MergeParams' defaults.

The document is read with a safe loader that also refuses aliases (`*name`), so a small text cannot expand into a
large object, and is bounded: at most MAX_RECIPE_BYTES and MAX_INPUTS models.
"""

from typing import Any

import yaml
from pydantic import ValidationError

from training_platform.contract.surgery import MAX_INPUTS, MERGE_METHODS, MergeParams, ModelSource, located

MAX_RECIPE_BYTES = 1 << 20
# mergekit's MergeConfiguration fields that a MergeParams carries.
RECIPE_KEYS = ("merge_method", "base_model", "models", "parameters", "dtype", "out_dtype")
# mergekit's other MergeConfiguration fields: known to mergekit, refused here with why.
REFUSED_KEYS = {
    "slices": "slices are not supported: list whole models",
    "modules": "modules are not supported: list whole models",
    "tokenizer_source": "tokenizer_source is not supported: the result takes the base model's tokenizer "
    "(or the first model's)",
    "tokenizer": "tokenizer is not supported: the result takes the base model's tokenizer (or the first model's)",
    "chat_template": "chat_template is not supported: the result keeps the base model's chat template "
    "(or the first model's)",
}
MODEL_ENTRY_KEYS = ("model", "parameters")
# MergeParams' field names where the recipe names them otherwise.
RECIPE_NAME = {"method": "merge_method"}


class RecipeError(ValueError):
    """A recipe that cannot be merged: `field` is the dotted path of the offending key (None: the whole text)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class _NoAliasLoader(yaml.SafeLoader):
    """yaml's safe loader, refusing aliases: they let a few lines stand for an exponentially large document."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not accepted: write the value out", self.peek_event().start_mark
            )
        return super().compose_node(parent, index)


def parse_recipe(text: str) -> MergeParams:
    """A mergekit recipe as MergeParams, or RecipeError naming the line or the key that is wrong."""
    document = _load(text)
    if not isinstance(document, dict):
        raise RecipeError(f"a recipe is a mapping of keys (merge_method, models, ...), not {_kind(document)}")
    for key in document:
        if key in REFUSED_KEYS:
            raise RecipeError(REFUSED_KEYS[key], field=str(key))
    _known_keys(document, RECIPE_KEYS, where=None, hint=f": a recipe takes {', '.join(RECIPE_KEYS)}")
    method = document.get("merge_method")
    if method is None:
        raise RecipeError(f"merge_method is required: one of {', '.join(MERGE_METHODS)}", field="merge_method")
    spec = MERGE_METHODS.get(method) if isinstance(method, str) else None

    fields: dict[str, Any] = {"method": method}
    if document.get("base_model") is not None:
        fields["base_model"] = {"path": _model_path(document["base_model"], "base_model")}
    models = document.get("models")
    if not isinstance(models, list) or not models:
        raise RecipeError("models: a list of the models to merge, each `- model: <path>`", field="models")
    if len(models) > MAX_INPUTS:
        raise RecipeError(f"models: at most {MAX_INPUTS} models; {len(models)} given", field="models")
    fields["models"] = [_model_entry(entry, f"models.{index}", method) for index, entry in enumerate(models)]
    parameters = _parameters(document.get("parameters"), "parameters", spec.global_ if spec else None, method)
    if parameters:
        fields["parameters"] = parameters
    dtype, out_dtype = document.get("dtype"), document.get("out_dtype")
    if out_dtype is not None and out_dtype != dtype:
        raise RecipeError(
            f"out_dtype {out_dtype} differs from dtype {dtype}: the platform combines and writes in one dtype, "
            "set `dtype` alone",
            field="out_dtype",
        )
    if dtype is not None:
        fields["dtype"] = dtype
    try:
        return MergeParams.model_validate(fields)
    except ValidationError as error:
        raise _recipe_error(error) from None


def to_mergekit(params: MergeParams, paths: dict[str, str] | None = None) -> dict:
    """The mergekit configuration of `params`: for MergeConfiguration.model_validate, or written out as the
    recipe `mergekit-yaml` reads. `paths` maps an input's path to where it is found on this machine when that
    differs; a path not in it is used as is. The inputs' provenance (job, step) is not part of a recipe."""
    local_paths = paths or {}

    def reference(source: ModelSource) -> str | dict:
        path = local_paths.get(source.path, source.path)
        # mergekit reads `a+b` in a model's name as LoRA b on model a and `a@r` as revision r: a path holding
        # either is written in its long form, which mergekit takes literally.
        return {"model": {"path": path}} if "+" in path or "@" in path else path

    config: dict[str, Any] = {"merge_method": params.method}
    if params.base_model is not None:
        config["base_model"] = reference(params.base_model)
    config["models"] = [
        {"model": reference(entry.model), **({"parameters": dict(entry.parameters)} if entry.parameters else {})}
        for entry in params.models
    ]
    if params.parameters:
        config["parameters"] = dict(params.parameters)
    if params.dtype is not None:
        config["dtype"] = params.dtype
    return config


def _load(text: str) -> Any:
    if len(text.encode("utf-8", errors="replace")) > MAX_RECIPE_BYTES:
        raise RecipeError(f"the recipe is larger than {MAX_RECIPE_BYTES // 1024} KiB")
    try:
        return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise RecipeError(f"{where}{error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise RecipeError(f"not YAML: {error}") from None
    except RecursionError:
        raise RecipeError("the recipe is nested too deeply") from None


def _known_keys(mapping: dict, allowed: tuple[str, ...] | dict, where: str | None, hint: str = "") -> None:
    for key in mapping:
        if key not in allowed:
            at = f" (at {where})" if where else ""
            field = f"{where}.{key}" if where else str(key)
            raise RecipeError(f"unknown key {key!r}{at}{hint}", field=field)


def _model_entry(entry: Any, where: str, method: Any) -> dict:
    if isinstance(entry, str):
        raise RecipeError(f"{where}: write `- model: {entry}`, with the model under `model:`", field=where)
    if not isinstance(entry, dict):
        raise RecipeError(f"{where}: a mapping with `model:` and `parameters:`, not {_kind(entry)}", field=where)
    _known_keys(entry, MODEL_ENTRY_KEYS, where)
    if entry.get("model") is None:
        raise RecipeError(f"{where}.model: each entry names its model", field=f"{where}.model")
    spec = MERGE_METHODS.get(method) if isinstance(method, str) else None
    parameters = _parameters(entry.get("parameters"), f"{where}.parameters", spec.per_model if spec else None, method)
    for name, value in parameters.items():
        if isinstance(value, list):
            raise RecipeError(
                f"{where}.parameters.{name}: a number: the platform takes a gradient over the layers only for "
                "slerp's t",
                field=f"{where}.parameters.{name}",
            )
    return {"model": {"path": _model_path(entry["model"], f"{where}.model")}, "parameters": parameters}


def _model_path(value: Any, where: str) -> str:
    """A model's path, from mergekit's short form (`path`) or long form (`model: {path: ...}`)."""
    if isinstance(value, dict):
        _known_keys(value, ("model",), where, hint=": LoRA and architecture overrides are not supported")
        inner = value.get("model")
        if isinstance(inner, dict):
            _known_keys(inner, ("path",), f"{where}.model", hint=": hub revisions are not supported")
            path = inner.get("path")
            if not isinstance(path, str) or not path:
                raise RecipeError(f"{where}.model.path: a model directory", field=f"{where}.model.path")
            return path  # the long form is literal: no `+` or `@` reading
        return _model_path(inner, f"{where}.model")
    if not isinstance(value, str) or not value:
        raise RecipeError(f"{where}: a model directory, not {_kind(value)}", field=where)
    if "+" in value:
        raise RecipeError(
            f"{where}: {value!r} is a LoRA on a model in mergekit's notation: fold it into its model first "
            "(a lora_fold run) and merge the result",
            field=where,
        )
    if "@" in value:
        raise RecipeError(f"{where}: {value!r} names a hub revision: give a model directory", field=where)
    return value


def _parameters(value: Any, where: str, allowed: dict | None, method: str | None) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecipeError(f"{where}: a mapping of parameter names to values, not {_kind(value)}", field=where)
    if allowed is not None:
        takes = ", ".join(allowed) if allowed else "no parameters"
        _known_keys(value, allowed, where, hint=f": {method} takes {takes}")
    for name, setting in value.items():
        if isinstance(setting, dict) or (isinstance(setting, list) and any(isinstance(v, dict) for v in setting)):
            raise RecipeError(
                f"{where}.{name}: per-tensor filters are not supported: give a number (for t, a number or a list "
                "of numbers)",
                field=f"{where}.{name}",
            )
    return dict(value)


def _recipe_error(error: ValidationError) -> RecipeError:
    """MergeParams' complaint in the recipe's own names (merge_method, models.0.model), each as "<field>: <why>"."""
    messages, fields = [], []
    for detail in error.errors():
        location = [RECIPE_NAME.get(str(part), str(part)) for part in detail["loc"]]
        if location[-1:] == ["path"] and location[-2:-1] in (["model"], ["base_model"]):
            location = location[:-1]
        message = detail["msg"].removeprefix("Value error, ")
        field, why = (".".join(location), message) if location else located(message)
        messages.append(f"{field}: {why}" if field else why)
        fields.append(field)
    return RecipeError("; ".join(messages), field=fields[0])


def _kind(value: Any) -> str:
    return "nothing" if value is None else f"a {type(value).__name__}"
