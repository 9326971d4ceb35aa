"""mergekit's YAML recipes read into MergeParams and written back: every refusal names its line or its key, and a
recipe that is accepted means to mergekit, after the round trip, exactly what it meant as written."""

import subprocess
import sys

import pytest
import yaml

from training_platform.contract.surgery import MAX_INPUTS, MergeModel, MergeParams, ModelSource
from training_platform.merging.recipe import MAX_RECIPE_BYTES, RecipeError, parse_recipe, to_mergekit

# Recipes in the shape of mergekit's own examples, one or more per method.
REAL_WORLD = {
    "linear": """
models:
  - model: /models/psmathur-orca_mini_v3_13b
    parameters:
      weight: 1.0
  - model: /models/WizardLM-WizardLM-13B-V1.2
    parameters:
      weight: 0.3
  - model: /models/garage-bAInd-Platypus2-13B
    parameters:
      weight: 0.5
merge_method: linear
dtype: float16
""",
    "task_arithmetic": """
base_model: /models/Mistral-7B-v0.1
models:
  - model: /models/Mistral-7B-Instruct-v0.2
    parameters:
      weight: 0.5
  - model: /models/OpenHermes-2.5-Mistral-7B
    parameters:
      weight: 0.5
merge_method: task_arithmetic
parameters:
  lambda: 0.8
dtype: bfloat16
""",
    "ties": """
models:
  - model: /models/psmathur-orca_mini_v3_13b
    parameters:
      density: [1, 0.7, 0.1]
      weight: 1.0
  - model: /models/garage-bAInd-Platypus2-13B
    parameters:
      density: 0.5
      weight: [0, 0.3, 0.7, 1]
merge_method: ties
base_model: /models/TheBloke-Llama-2-13B-fp16
parameters:
  normalize: true
  int8_mask: true
dtype: float16
""",
    "dare_ties": """
models:
  - model: /models/Mistral-7B-v0.1
    # no parameters necessary for base model
  - model: /models/samir-fama-SamirGPT-v1
    parameters:
      density: 0.53
      weight: 0.4
  - model: /models/abacusai-Slerp-CM-mist-dpo
    parameters:
      density: 0.53
      weight: 0.3
merge_method: dare_ties
base_model: /models/Mistral-7B-v0.1
parameters:
  int8_mask: true
dtype: bfloat16
""",
    "dare_linear": """
merge_method: dare_linear
base_model: /models/Qwen2.5-7B
models:
  - model: /models/Qwen2.5-Math-7B
    parameters: {weight: 0.5, density: 0.6}
  - model: /models/Qwen2.5-Coder-7B
    parameters: {weight: 0.5, density: 0.6}
parameters:
  rescale: true
""",
    "slerp": """
base_model: /models/OpenPipe-mistral-ft-optimized-1218
models:
  - model: /models/OpenPipe-mistral-ft-optimized-1218
  - model: /models/mlabonne-NeuralHermes-2.5-Mistral-7B
merge_method: slerp
parameters:
  t: [0, 0.5, 0.3, 0.7, 1]
dtype: bfloat16
""",
    "slerp_scalar_base_unlisted": """
merge_method: slerp
base_model: /models/a
models:
  - model: /models/b
parameters:
  t: 0.5
""",
}
# mergekit's ties example gives density and weight as gradients: the platform takes numbers per model.
PLATFORM_SHAPED = {name: text for name, text in REAL_WORLD.items() if name != "ties"}


def refusal(text: str) -> RecipeError:
    with pytest.raises(RecipeError) as caught:
        parse_recipe(text)
    return caught.value


@pytest.mark.parametrize("name", PLATFORM_SHAPED)
def test_real_world_recipes_mean_to_mergekit_what_they_meant_as_written(name):
    from mergekit.config import MergeConfiguration

    text = PLATFORM_SHAPED[name]
    params = parse_recipe(text)
    assert params.method == yaml.safe_load(text)["merge_method"]
    ours = MergeConfiguration.model_validate(to_mergekit(params))
    assert ours == MergeConfiguration.model_validate(yaml.safe_load(text))


def test_a_recipe_maps_onto_merge_params_field_by_field():
    params = parse_recipe(REAL_WORLD["dare_ties"])
    assert params == MergeParams(
        method="dare_ties",
        base_model=ModelSource(path="/models/Mistral-7B-v0.1"),
        models=[
            MergeModel(model=ModelSource(path="/models/Mistral-7B-v0.1")),
            MergeModel(
                model=ModelSource(path="/models/samir-fama-SamirGPT-v1"), parameters={"weight": 0.4, "density": 0.53}
            ),
            MergeModel(
                model=ModelSource(path="/models/abacusai-Slerp-CM-mist-dpo"),
                parameters={"weight": 0.3, "density": 0.53},
            ),
        ],
        parameters={"int8_mask": True},
        dtype="bfloat16",
    )
    assert params.random_seed == 0 and params.num_gpus == 0  # the run's settings, not the recipe's


@pytest.mark.parametrize("name", PLATFORM_SHAPED)
def test_to_mergekit_then_parse_gives_the_same_params(name):
    params = parse_recipe(PLATFORM_SHAPED[name])
    assert parse_recipe(yaml.safe_dump(to_mergekit(params))) == params


def test_paths_that_mergekit_would_read_as_lora_or_revision_are_written_literally():
    from mergekit.config import MergeConfiguration

    params = MergeParams(
        method="linear", models=[MergeModel(model=ModelSource(path="/runs/a+b@c"), parameters={"weight": 1.0})]
    )
    assert parse_recipe(yaml.safe_dump(to_mergekit(params))) == params
    reference = MergeConfiguration.model_validate(to_mergekit(params)).models[0].model
    assert (reference.model.path, reference.model.revision, reference.lora) == ("/runs/a+b@c", None, None)


def test_paths_are_located_on_this_machine_and_provenance_is_left_out():
    params = MergeParams(
        method="slerp",
        base_model=ModelSource(path="job-1/final", job_id="job-1"),
        models=[MergeModel(model=ModelSource(path="job-2/final", job_id="job-2", step=40))],
        parameters={"t": 0.25},
    )
    config = to_mergekit(params, paths={"job-1/final": "/home/jobs/job-1/final"})
    assert config == {
        "merge_method": "slerp",
        "base_model": "/home/jobs/job-1/final",
        "models": [{"model": "job-2/final"}],
        "parameters": {"t": 0.25},
    }


def test_a_yaml_syntax_error_names_its_line():
    error = refusal("merge_method: linear\nmodels:\n  - model: /a\n   parameters: {weight: 1}\n")
    assert str(error).startswith("line 4: ") and error.field is None
    assert str(refusal("merge_method: linear\nmodels: [\n")).startswith("line 3: ")


@pytest.mark.parametrize("text", ["- /a\n- /b\n", "just words\n", ""])
def test_a_document_that_is_not_a_mapping_is_refused(text):
    assert "a recipe is a mapping of keys" in str(refusal(text))


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (
            "merge_method: linear\nmodel: /a\nmodels: [{model: /a, parameters: {weight: 1}}]\n",
            "model",
            "unknown key 'model': a recipe takes merge_method, base_model, models, parameters, dtype, out_dtype",
        ),
        (
            "merge_method: linear\nmodels: [{model: /a, weight: 1}]\n",
            "models.0.weight",
            "unknown key 'weight' (at models.0)",
        ),
        (
            "merge_method: ties\nbase_model: /b\nmodels:\n  - model: /a\n    parameters: {weight: 1}\n"
            "  - model: /c\n    parameters: {weight: 1, foo: 2}\n",
            "models.1.parameters.foo",
            "unknown key 'foo' (at models.1.parameters): ties takes weight, density",
        ),
        (
            "merge_method: slerp\nbase_model: /a\nmodels: [{model: /b}]\nparameters: {t: 0.5, weight: 1}\n",
            "parameters.weight",
            "unknown key 'weight' (at parameters): slerp takes t",
        ),
    ],
)
def test_an_unknown_key_is_named_with_where_it_is(text, field, message):
    error = refusal(text)
    assert (error.field, str(error)) == (field, message)


def test_aliases_are_refused_with_their_line():
    text = "merge_method: linear\nmodels:\n  - &m {model: /a, parameters: {weight: 1}}\n  - *m\n"
    assert str(refusal(text)) == "line 4: aliases (*name) are not accepted: write the value out"
    assert yaml.safe_load(text)["models"][1] == {"model": "/a", "parameters": {"weight": 1}}  # plain YAML takes it


def test_a_billion_laughs_is_refused_before_it_expands():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    assert "aliases (*name) are not accepted" in str(refusal("\n".join(lines)))


def test_python_tags_are_refused():
    assert "could not determine a constructor" in str(refusal("merge_method: !!python/object/apply:os.system [ls]\n"))


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("slices", "slices are not supported: list whole models"),
        ("modules", "modules are not supported: list whole models"),
        ("tokenizer_source", "tokenizer_source is not supported"),
        ("chat_template", "chat_template is not supported"),
    ],
)
def test_mergekit_keys_the_platform_cannot_carry_are_refused_with_why(key, message):
    error = refusal(f"merge_method: linear\nmodels: [{{model: /a, parameters: {{weight: 1}}}}]\n{key}: base\n")
    assert error.field == key and str(error).startswith(message)


def test_a_slices_recipe_is_refused_as_slices():
    text = """
slices:
  - sources:
      - model: /models/a
        layer_range: [0, 32]
      - model: /models/b
        layer_range: [0, 32]
merge_method: slerp
base_model: /models/a
parameters:
  t: 0.5
"""
    assert str(refusal(text)) == "slices are not supported: list whole models"


def test_slerp_merges_exactly_two_models():
    error = refusal("merge_method: slerp\nbase_model: /a\nmodels: [{model: /a}, {model: /b}, {model: /c}]\n")
    assert error.field == "models"
    assert str(error) == "models: slerp merges exactly 2 models (the base included); 3 given"


def test_linear_needs_a_weight_for_every_model():
    error = refusal("merge_method: linear\nmodels: [{model: /a, parameters: {weight: 1}}, {model: /b}]\n")
    assert error.field == "models.1.parameters.weight"
    assert str(error) == "models.1.parameters.weight: linear needs it for every model"


def test_an_unknown_method_names_the_available_ones():
    error = refusal("merge_method: frankenmerge\nmodels: [{model: /a}]\n")
    assert error.field == "merge_method"
    for method in ("linear", "task_arithmetic", "ties", "dare_ties", "dare_linear", "slerp"):
        assert f"'{method}'" in str(error)
    missing = refusal("models: [{model: /a}]\n")
    assert str(missing).startswith("merge_method is required: one of linear, task_arithmetic, ties")


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (
            "merge_method: ties\nmodels: [{model: /a, parameters: {weight: 1}}]\n",
            "base_model",
            "base_model: ties needs one",
        ),
        (
            "merge_method: slerp\nbase_model: /a\nmodels: [{model: /b}]\n",
            "parameters.t",
            "parameters.t: slerp needs it",
        ),
        (
            "merge_method: slerp\nbase_model: /a\nmodels: [{model: /b}]\nparameters: {t: [0, 1.5]}\n",
            "parameters.t",
            "parameters.t: each value between 0 and 1",
        ),
        (
            "merge_method: linear\nmodels: [{model: /a, parameters: {weight: heavy}}]\n",
            "models.0.parameters.weight",
            "models.0.parameters.weight: Input should be a valid number",
        ),
        (
            "merge_method: linear\nmodels: [{model: /a, parameters: {weight: 1}}]\ndtype: int8\n",
            "dtype",
            "dtype: Input should be 'float32', 'float16' or 'bfloat16'",
        ),
        ("merge_method: linear\nmodels: []\n", "models", "models: a list of the models to merge"),
        ("merge_method: linear\nmodels: [/a, /b]\n", "models.0", "models.0: write `- model: /a`"),
    ],
)
def test_what_merge_params_refuses_is_named_in_the_recipe_s_terms(text, field, message):
    error = refusal(text)
    assert error.field == field and str(error).startswith(message)


def test_gradients_per_model_are_refused_naming_the_parameter():
    error = refusal(REAL_WORLD["ties"])
    assert error.field == "models.0.parameters.density"
    assert str(error) == (
        "models.0.parameters.density: a number: the platform takes a gradient over the layers only for slerp's t"
    )


def test_per_tensor_filters_are_refused():
    text = """
merge_method: slerp
base_model: /a
models: [{model: /a}, {model: /b}]
parameters:
  t:
    - filter: self_attn
      value: [0, 0.5, 0.3, 0.7, 1]
    - value: 0.5
"""
    error = refusal(text)
    assert error.field == "parameters.t" and "per-tensor filters are not supported" in str(error)


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ("/models/base+/adapters/lora", "is a LoRA on a model in mergekit's notation"),
        ("org/model@main", "names a hub revision"),
        ({"model": "/a", "lora": "/l"}, "unknown key 'lora' (at models.0.model): LoRA"),
        ({"model": {"path": "/a", "revision": "main"}}, "unknown key 'revision' (at models.0.model.model)"),
    ],
)
def test_lora_and_revisions_in_a_model_reference_are_refused(model, message):
    text = yaml.safe_dump({"merge_method": "linear", "models": [{"model": model, "parameters": {"weight": 1}}]})
    assert message in str(refusal(text))


def test_the_long_form_of_a_model_reference_is_read():
    text = "merge_method: linear\nmodels: [{model: {model: {path: /a}}, parameters: {weight: 1}}]\n"
    assert parse_recipe(text).models[0].model.path == "/a"


def test_out_dtype_is_taken_only_when_it_is_dtype():
    text = "merge_method: linear\nmodels: [{model: /a, parameters: {weight: 1}}]\n"
    assert parse_recipe(text + "dtype: bfloat16\nout_dtype: bfloat16\n").dtype == "bfloat16"
    for dtypes in ("dtype: float32\nout_dtype: bfloat16\n", "out_dtype: bfloat16\n"):
        error = refusal(text + dtypes)
        assert error.field == "out_dtype" and "the platform combines and writes in one dtype" in str(error)


def test_the_recipe_s_size_and_model_count_are_bounded():
    assert "larger than 1024 KiB" in str(refusal("#" * (MAX_RECIPE_BYTES + 1)))
    models = "".join(f"  - model: /m{i}\n    parameters: {{weight: 1}}\n" for i in range(MAX_INPUTS + 1))
    error = refusal(f"merge_method: linear\nmodels:\n{models}")
    assert error.field == "models" and str(error) == f"models: at most {MAX_INPUTS} models; {MAX_INPUTS + 1} given"
    assert "nested too deeply" in str(refusal("a: " + "[" * 20_000))


def test_reading_a_recipe_imports_neither_torch_nor_mergekit():
    code = (
        "import sys; import training_platform.merging.recipe; "
        "print(sorted(m for m in ('torch', 'mergekit', 'transformers') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "[]"
