"""Acceptance: merging two fine-tuned variants of the demo model with each method gives the same tensors as
mergekit's own command line on the same inputs and YAML, run by the test.

The command line runs in one subprocess that calls `mergekit-yaml`'s entry point once per recipe (its startup,
mostly imports, is paid once), at the same time as the platform's merges run in this process.
"""

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from training_platform.contract.surgery import MERGE_METHODS
from training_platform.merging.mergekit_run import run_merge_with_progress
from training_platform.merging.recipe import parse_recipe

CLI_TIMEOUT_S = 300
# mergekit-yaml's own entry point, called as its console script does, once for each (recipe, output) pair.
CLI_DRIVER = """
import sys
from mergekit.scripts.run_yaml import main

for recipe, out in zip(sys.argv[1::2], sys.argv[2::2], strict=True):
    main([recipe, out, "--random-seed", "0", "--quiet"], standalone_mode=False)
"""
RECIPES = {
    "linear": """
merge_method: linear
models:
  - model: {a}
    parameters: {{weight: 0.7}}
  - model: {b}
    parameters: {{weight: 0.5}}
dtype: float16
""",
    "task_arithmetic": """
merge_method: task_arithmetic
base_model: {base}
models:
  - model: {a}
    parameters: {{weight: 0.7}}
  - model: {b}
    parameters: {{weight: 0.4}}
parameters: {{lambda: 0.9}}
""",
    "ties": """
merge_method: ties
base_model: {base}
models:
  - model: {a}
    parameters: {{weight: 1.0, density: 0.5}}
  - model: {b}
    parameters: {{weight: 0.6, density: 0.7}}
parameters: {{int8_mask: true}}
""",
    "dare_ties": """
merge_method: dare_ties
base_model: {base}
models:
  - model: {base}
  - model: {a}
    parameters: {{weight: 0.6, density: 0.5}}
  - model: {b}
    parameters: {{weight: 0.4, density: 0.6}}
""",
    "dare_linear": """
merge_method: dare_linear
base_model: {base}
models:
  - model: {a}
    parameters: {{weight: 0.5, density: 0.4}}
  - model: {b}
    parameters: {{weight: 0.5, density: 0.8}}
parameters: {{normalize: true}}
""",
    "slerp": """
merge_method: slerp
base_model: {a}
models:
  - model: {a}
  - model: {b}
parameters: {{t: 0.3}}
""",
    "slerp_gradient": """
merge_method: slerp
base_model: {a}
models:
  - model: {a}
  - model: {b}
parameters:
  t: [0, 0.5, 0.3, 0.7, 1]
""",
}


def build_variants(root: Path) -> dict[str, Path]:
    """The demo model as the base, and two 'fine-tuned' variants: the base plus two different small perturbations."""
    from transformers import AutoModelForCausalLM

    from training_platform.demo.assets import build_model, build_tokenizer

    tokenizer = build_tokenizer(root / "base")
    build_model(root / "base", tokenizer)
    models = {"base": root / "base"}
    for seed, name in enumerate(["a", "b"], start=1):
        model = AutoModelForCausalLM.from_pretrained(root / "base")
        generator = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.add_(torch.randn(parameter.shape, generator=generator) * 0.02)
        model.save_pretrained(root / name)
        tokenizer.save_pretrained(root / name)
        models[name] = root / name
    return models


def tensors(directory: Path) -> dict[str, torch.Tensor]:
    weights: dict[str, torch.Tensor] = {}
    for shard in sorted(directory.glob("*.safetensors")):
        weights.update(load_file(shard))
    return weights


def _recorder(calls: list[tuple[int, int]]):
    return lambda done, total: calls.append((done, total))


@pytest.fixture(scope="module")
def merges(tmp_path_factory):
    """Every recipe merged twice: by mergekit's command line in a subprocess and by the platform meanwhile here."""
    root = tmp_path_factory.mktemp("equivalence")
    models = build_variants(root / "models")
    texts = {name: recipe.format(**models) for name, recipe in RECIPES.items()}
    arguments = []
    for name, text in texts.items():
        (root / f"{name}.yml").write_text(text, encoding="utf-8")
        arguments += [str(root / f"{name}.yml"), str(root / "cli" / name)]
    log = root / "cli.log"
    with open(log, "w", encoding="utf-8") as output:
        cli = subprocess.Popen([sys.executable, "-c", CLI_DRIVER, *arguments], stdout=output, stderr=output)
    progress: dict[str, list[tuple[int, int]]] = {}
    try:
        for name, text in texts.items():
            calls = progress[name] = []
            run_merge_with_progress(parse_recipe(text), root / "ours" / name, _recorder(calls))
        returncode = cli.wait(timeout=CLI_TIMEOUT_S)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert returncode == 0, log.read_text(encoding="utf-8")[-4000:]
    return {"root": root, "models": models, "texts": texts, "progress": progress}


@pytest.mark.parametrize("name", RECIPES)
def test_every_tensor_equals_the_command_line_s(merges, name):
    ours, theirs = tensors(merges["root"] / "ours" / name), tensors(merges["root"] / "cli" / name)
    assert ours.keys() == theirs.keys() and len(ours) > 0
    for key, tensor in ours.items():
        assert tensor.dtype == theirs[key].dtype, key
        assert torch.allclose(tensor, theirs[key], rtol=0, atol=1e-6), key
    # The merge did something: it is none of its inputs.
    for model in merges["models"].values():
        inputs = tensors(model)
        assert any(not torch.equal(tensor.to(inputs[key].dtype), inputs[key]) for key, tensor in ours.items())
    assert (merges["root"] / "ours" / name / "config.json").read_text() == (
        merges["root"] / "cli" / name / "config.json"
    ).read_text()


def test_a_recipe_s_dtype_is_the_output_s(merges):
    assert {tensor.dtype for tensor in tensors(merges["root"] / "ours" / "linear").values()} == {torch.float16}
    assert {tensor.dtype for tensor in tensors(merges["root"] / "ours" / "ties").values()} == {torch.float32}


def test_a_slerp_gradient_is_not_the_scalar_slerp(merges):
    gradient, scalar = tensors(merges["root"] / "ours" / "slerp_gradient"), tensors(merges["root"] / "ours" / "slerp")
    assert any(not torch.equal(gradient[key], scalar[key]) for key in gradient)


def test_dare_s_drops_follow_the_seed(merges, tmp_path):
    """DARE drops at random: the same seed gave the command line's tensors above, another seed gives others."""
    params = parse_recipe(merges["texts"]["dare_ties"]).model_copy(update={"random_seed": 1})
    run_merge_with_progress(params, tmp_path / "seed1", lambda done, total: None)
    reseeded, theirs = tensors(tmp_path / "seed1"), tensors(merges["root"] / "cli" / "dare_ties")
    assert any(not torch.equal(reseeded[key], theirs[key]) for key in theirs)


@pytest.mark.parametrize("name", RECIPES)
def test_progress_counts_up_to_the_total(merges, name):
    calls = merges["progress"][name]
    total = calls[0][1]
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [done for done, _ in calls] == list(range(total + 1))
    assert total > len(tensors(merges["root"] / "ours" / name))  # every tensor saved, then the model finalised


def test_the_executor_is_restored_after_a_merge(merges):
    import mergekit.merge
    from mergekit.graph import Executor

    assert mergekit.merge.Executor is Executor


@pytest.mark.parametrize("name", RECIPES)
def test_the_merged_model_loads_in_transformers_and_generates(merges, name):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    directory = merges["root"] / "ours" / name
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForCausalLM.from_pretrained(directory)
    prompt = tokenizer("What is 3 plus 4?", return_tensors="pt")
    generated = model.generate(**prompt, max_new_tokens=4, do_sample=False)
    assert generated.shape[1] > prompt["input_ids"].shape[1]
    assert torch.isfinite(model(**prompt).logits).all()


def test_a_merge_that_fails_leaves_mergekits_own_executor_in_place(tmp_path):
    import mergekit.merge
    from mergekit.graph import Executor

    from training_platform.contract.surgery import MergeModel, MergeParams, ModelSource

    missing = [MergeModel(model=ModelSource(path=str(tmp_path / name)), parameters={"weight": 1}) for name in "ab"]
    params = MergeParams(method="linear", models=missing)
    with pytest.raises(Exception):  # noqa: B017 (whatever mergekit raises for a model that is not there)
        run_merge_with_progress(params, tmp_path / "out", lambda done, total: None)
    assert mergekit.merge.Executor is Executor


@pytest.mark.parametrize("name", sorted(MERGE_METHODS))
def test_the_platforms_method_table_is_mergekits_own(name):
    """MERGE_METHODS (served to the UI, checked in the server without mergekit) says what mergekit's registry says:
    each method's parameters per model and global, their defaults (None: required), its base and input counts."""
    from mergekit.merge_methods import BasePolicy, ParameterScope, get

    spec, ours = get(name).spec, MERGE_METHODS[name]

    def default(parameter):
        return parameter.default if isinstance(parameter.default, (bool, int, float)) else None

    per_model = {p.name: default(p) for p in spec.parameters if p.scope != ParameterScope.SHARED}
    shared = {p.name: default(p) for p in spec.parameters if p.scope == ParameterScope.SHARED}
    assert ours.per_model == per_model and ours.global_ == shared
    bases = {BasePolicy.REQUIRED: "required", BasePolicy.IGNORED: "optional", BasePolicy.OPTIONAL: "optional"}
    assert ours.base == bases[spec.contract.base]
    assert (ours.min_models, ours.max_models) == (spec.contract.min_inputs, spec.contract.max_inputs)
    assert ours.reference == spec.reference_url
