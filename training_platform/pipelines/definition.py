"""Every check a pipeline passes before anything runs, all problems at once, each with its stage and field (and its
YAML line when it was written in YAML): the document's shape, unique names, unknown dependencies, cycles (the
stages in each), references to outputs a stage does not have or to a stage that is not among its dependencies,
conditions that are not one comparison, and each stage's parameters checked by the model of the API that will run
it (the same details as that API's 422).

References are data, never code: `${stage.output}` is looked up in the stage's recorded outputs, and a condition is
one comparison of two references or literals, parsed here by a regular expression; nothing reaches an interpreter.
A field that holds a reference is checked once the reference resolves (when its stage is launched).
"""

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from training_platform.common.yaml_text import YamlTextError, read_yaml
from training_platform.errors import FieldError, InvalidInputError
from training_platform.pipelines.schemas import MAX_STAGES, MAX_YAML_BYTES, PipelineDefinition, StageSpec
from training_platform.pipelines.stages import STAGE_KINDS, Check, has_output

REFERENCE = re.compile(r"\$\{([^{}]*)\}")
REFERENCE_BODY = re.compile(r"^([a-z][a-z0-9_]{0,62})\.([A-Za-z0-9_][A-Za-z0-9_./@:-]{0,199})$")
_OPERAND = r"\$\{[^{}]*\}|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|'[^']{0,200}'|\"[^\"]{0,200}\"|true|false"
CONDITION = re.compile(rf"^\s*({_OPERAND})\s*(==|!=|>=|<=|>|<)\s*({_OPERAND})\s*$")


@dataclass
class Problem:
    loc: tuple[str | int, ...]
    msg: str
    type: str
    stage: str | None = None
    stages: list[str] | None = None
    line: int | None = None

    def item(self) -> dict[str, Any]:
        """As the API's 422 lists it (api/errors.py), with the stage, the stages of a cycle and the YAML line."""
        found = {
            "field": ".".join(str(part) for part in self.loc),
            "message": self.msg,
            "code": self.type,
            "stage": self.stage,
            "line": self.line,
            "stages": self.stages,
        }
        return {key: value for key, value in found.items() if value is not None}


class PipelineInvalid(InvalidInputError):
    """A definition with problems; the API answers 422 with every one of them."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__([FieldError(".".join(str(part) for part in p.loc), p.msg) for p in problems])

    def __reduce__(self):
        return (PipelineInvalid, (self.problems,))


@dataclass
class Checked:
    definition: PipelineDefinition
    layers: list[list[str]]
    text: str | None = None

    @property
    def layer_of(self) -> dict[str, int]:
        return {name: number for number, layer in enumerate(self.layers) for name in layer}


def check_text(text: str, service_check: "ServiceCheck | None" = None) -> Checked:
    """A YAML pipeline checked; PipelineInvalid names each problem's line."""
    try:
        read = read_yaml(text, "pipeline", MAX_YAML_BYTES)
    except YamlTextError as error:
        raise PipelineInvalid([Problem(("text",), error.message, error.code, line=error.line)]) from None
    document = read.value
    if not isinstance(document, dict):
        raise PipelineInvalid([Problem(("text",), "a pipeline is a mapping with `name` and `stages`", "yaml", line=1)])
    try:
        checked = check_document(document, service_check)
    except PipelineInvalid as invalid:
        for problem in invalid.problems:
            problem.line = read.line_of(problem.loc)
        raise
    checked.text = text
    return checked


def check_document(document: dict[str, Any], service_check: "ServiceCheck | None" = None) -> Checked:
    """A definition (the API's JSON, or YAML already read) checked as a whole; PipelineInvalid lists every problem.
    `service_check` asks the service that will run a stage what it refuses of its parameters (those known now)."""
    problems: list[Problem] = []
    stages_given = document.get("stages")
    if isinstance(stages_given, list) and len(stages_given) > MAX_STAGES:
        message = f"a pipeline has at most {MAX_STAGES} stages (this one {len(stages_given)})"
        raise PipelineInvalid([Problem(("stages",), message, "too_long")])
    stages: list[StageSpec] = []
    place: dict[str, int] = {}  # each valid stage's position in the document, for the problems' locations
    for index, given in enumerate(stages_given if isinstance(stages_given, list) else []):
        try:
            stage = StageSpec.model_validate(given)
        except ValidationError as error:
            name = given.get("name") if isinstance(given, dict) and isinstance(given.get("name"), str) else None
            problems += _from_validation(error, ("stages", index), name)
            continue
        stages.append(stage)
        place.setdefault(stage.name, index)
    try:
        # The stages are checked one by one above; here the rest of the document (and whether there are stages).
        definition = PipelineDefinition.model_validate({**document, "stages": [s.model_dump() for s in stages]})
    except ValidationError as error:
        definition = None
        problems += [
            problem
            for problem in _from_validation(error, (), None)
            if problem.loc[:1] != ("stages",) or (len(problem.loc) == 1 and not stages_given)
        ]
    graph = _graph_problems(stages, place)
    problems += graph + _reference_problems(stages, place, definition.name if definition else "", service_check)
    if problems or definition is None:
        raise PipelineInvalid(problems)
    layers = layered(stages)
    return Checked(definition, layers)


def layered(stages: list[StageSpec]) -> list[list[str]]:
    """Topological layers (Kahn): a stage's layer is one after its deepest dependency; order within a layer is the
    definition's."""
    depth: dict[str, int] = {}
    remaining = list(stages)
    while remaining:
        ready = [stage for stage in remaining if all(dep in depth for dep in stage.depends_on)]
        if not ready:
            raise ValueError(f"the stages {', '.join(s.name for s in remaining)} cannot be ordered (a cycle)")
        for stage in ready:
            depth[stage.name] = 1 + max((depth[dep] for dep in stage.depends_on), default=-1)
        remaining = [stage for stage in remaining if stage.name not in depth]
    layers: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for stage in stages:
        layers[depth[stage.name]].append(stage.name)
    return layers


def ancestors(stages: list[StageSpec]) -> dict[str, set[str]]:
    """Every stage's direct and indirect dependencies (those that are stages; safe on a cycle)."""
    by_name = {stage.name: stage for stage in stages}
    found: dict[str, set[str]] = {}
    for stage in stages:
        seen: set[str] = set()
        stack = [dep for dep in stage.depends_on if dep in by_name]
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack += [dep for dep in by_name[name].depends_on if dep in by_name]
        found[stage.name] = seen
    return found


def references_in(value: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every `${...}` in a parameter tree, with the path to the string that holds it."""
    if isinstance(value, str):
        for match in REFERENCE.finditer(value):
            yield (), match.group(1)
    elif isinstance(value, dict):
        for key, item in value.items():
            for path, body in references_in(item):
                yield (key, *path), body
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for path, body in references_in(item):
                yield (index, *path), body


def _graph_problems(stages: list[StageSpec], place: dict[str, int]) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for stage in stages:
        if stage.name in seen:
            problems.append(
                Problem(
                    ("stages", place[stage.name], "name"),
                    f"stage {stage.name!r} is named twice",
                    "duplicate",
                    stage.name,
                )
            )
        seen.add(stage.name)
    names = {stage.name for stage in stages}
    for stage in stages:
        for index, dep in enumerate(stage.depends_on):
            if dep not in names:
                problems.append(
                    Problem(
                        ("stages", place[stage.name], "depends_on", index),
                        f"stage {stage.name!r} depends on {dep!r}, which is not a stage of this pipeline",
                        "unknown_dependency",
                        stage.name,
                    )
                )
    for cycle in _cycles(stages):
        first = cycle[0]
        problems.append(
            Problem(
                ("stages", place[first], "depends_on"),
                f"the stages {' -> '.join([*cycle, first])} depend on each other in a cycle",
                "cycle",
                first,
                stages=cycle,
            )
        )
    return problems


def _cycles(stages: list[StageSpec]) -> list[list[str]]:
    """Each cycle once (as the depth-first search meets it), in dependency order; iterative, so a chain of any
    length is walked without Python's recursion."""
    by_name = {stage.name: stage for stage in stages}
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    cycles = []
    for start in stages:
        if start.name in state:
            continue
        path = [start.name]
        pending = [iter(start.depends_on)]
        state[start.name] = 1
        while pending:
            dep = next(pending[-1], None)
            if dep is None:
                state[path.pop()] = 2
                pending.pop()
            elif dep not in by_name:
                continue  # reported as an unknown dependency
            elif state.get(dep) == 1:
                cycles.append(list(reversed(path[path.index(dep) :])))
            elif dep not in state:
                state[dep] = 1
                path.append(dep)
                pending.append(iter(by_name[dep].depends_on))
    return cycles


def _reference_problems(
    stages: list[StageSpec], place: dict[str, int], pipeline: str, service_check: "ServiceCheck | None"
) -> list[Problem]:
    by_name = {stage.name: stage for stage in stages}
    earlier = ancestors(stages)
    problems = []
    for stage in stages:
        here = ("stages", place[stage.name])
        found = [(("params", *path), body) for path, body in references_in(stage.params)]
        if stage.when is not None:
            if not CONDITION.match(stage.when):
                problems.append(
                    Problem(
                        (*here, "when"),
                        "a condition is one comparison (==, !=, >, >=, <, <=) of two references or literals, e.g. "
                        "${eval_dpo.metrics.accuracy} > ${eval_sft.metrics.accuracy}",
                        "condition",
                        stage.name,
                    )
                )
            found += [(("when",), body) for _, body in references_in(stage.when)]
        for path, body in found:
            problem = _reference_problem(body, stage.name, by_name, earlier[stage.name])
            if problem:
                problems.append(Problem((*here, *path), problem, "reference", stage.name))
        name = default_name(pipeline, stage.name)
        found = STAGE_KINDS[stage.type].check(stage.params, name)
        if not found and service_check is not None:
            found = service_check(stage, name)
        problems += [
            Problem((*here, "params", *loc), msg, kind, stage.name)
            for loc, msg, kind in found
            if not _holds_reference(stage.params, loc)
        ]
    return problems


def _reference_problem(body: str, stage: str, by_name: dict[str, StageSpec], earlier: set[str]) -> str | None:
    match = REFERENCE_BODY.match(body)
    if not match:
        return f"${{{body}}} is not a reference: write ${{<stage>.<output>}}, e.g. ${{sft.model}}"
    name, output = match.groups()
    if name not in by_name:
        return f"${{{body}}} names {name!r}, which is not a stage of this pipeline"
    if name == stage or name not in earlier:
        return f"${{{body}}}: {name!r} is not among the dependencies of {stage!r} (add it to depends_on)"
    kind = by_name[name].type
    if not has_output(kind, output):
        outputs = ", ".join(STAGE_KINDS[kind].outputs) or "none"
        return f"${{{body}}}: a {kind} stage has no output {output!r} (its outputs: {outputs})"
    return None


def _holds_reference(params: dict[str, Any], loc: tuple[str | int, ...]) -> bool:
    """Whether the parameter at `loc` (or one inside it) holds a reference: checked when it resolves."""
    value: Any = params
    for key in loc:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            break
    return "${" in json.dumps(value, default=str)


def default_name(pipeline: str, stage: str, attempt: int = 1) -> str:
    """The name of a stage's job (or run, or model): the pipeline's and the stage's, and the attempt from the second."""
    base = f"{pipeline}-{stage.replace('_', '-')}"
    return base if attempt <= 1 else f"{base}-{attempt}"


def _from_validation(error: ValidationError, prefix: tuple, stage: str | None) -> list[Problem]:
    return [
        Problem((*prefix, *detail["loc"]), detail["msg"], detail["type"], stage)
        for detail in error.errors(include_url=False)
    ]


ServiceCheck = Callable[[StageSpec, str], list[Check]]  # a stage and its work's default name → its problems


class Unresolved(ValueError):
    """A reference whose stage did not record that output."""


def resolve(value: Any, outputs: dict[str, dict[str, Any]]) -> Any:
    """Parameters with each reference replaced by the output it names: a string that is one reference becomes that
    output's value (a number stays a number); a reference inside a longer string is written into it."""
    if isinstance(value, dict):
        return {key: resolve(item, outputs) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, outputs) for item in value]
    if not isinstance(value, str) or "${" not in value:
        return value
    whole = REFERENCE.fullmatch(value)
    if whole:
        return _output(whole.group(1), outputs)
    return REFERENCE.sub(lambda match: str(_output(match.group(1), outputs)), value)


def holds(condition: str, outputs: dict[str, dict[str, Any]]) -> tuple[bool, str]:
    """Whether a stage's condition holds, and the comparison with its values (shown on the stage)."""
    match = CONDITION.match(condition)
    if match is None:
        raise Unresolved(f"{condition!r} is not a comparison")
    left, operator, right = match.groups()
    a, b = _operand(left, outputs), _operand(right, outputs)
    shown = f"{a!r} {operator} {b!r}"
    if operator in ("==", "!="):
        return (a == b) == (operator == "=="), shown
    if isinstance(a, bool) or isinstance(b, bool) or not all(isinstance(v, int | float) for v in (a, b)):
        raise Unresolved(f"{shown}: {operator} compares numbers")
    result = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[operator]
    return result, shown


def _operand(text: str, outputs: dict[str, dict[str, Any]]) -> Any:
    if text.startswith("${"):
        return _output(text[2:-1], outputs)
    if text in ("true", "false"):
        return text == "true"
    if text[0] in "'\"":
        return text[1:-1]
    return float(text) if any(c in text for c in ".eE") else int(text)


def _output(body: str, outputs: dict[str, dict[str, Any]]) -> Any:
    match = REFERENCE_BODY.match(body)
    if match is None:
        raise Unresolved(f"${{{body}}} is not a reference")
    stage, output = match.groups()
    recorded = outputs.get(stage, {})
    if output not in recorded:
        have = ", ".join(sorted(recorded)) or "none"
        raise Unresolved(f"${{{body}}}: stage {stage!r} recorded no output {output!r} (it has: {have})")
    return recorded[output]
