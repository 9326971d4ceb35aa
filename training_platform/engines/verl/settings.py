"""Engine settings of the verl engine: overrides of verl's config (`actor_rollout_ref.rollout.gpu_memory_utilization:
0.6`), given per job and appended to the command the platform composes (command.py setting_overrides), under the
same rules as a hand-written command's overrides (overrides.py).

Refused here, each naming its key (`engine_settings.<key>`): a key the platform's own overrides set (the job
parameter that sets it is the one to change), what Hydra or OmegaConf would execute or resolve, and a path outside
the data roots. The whole command, settings included, is then composed and checked by verl itself in its
validation process (engine.py check): an unknown key or a value verl refuses comes back naming its setting.
"""

from pathlib import Path

from training_platform.contract.run import RunSpec
from training_platform.engines.verl.command import Target, VerlFiles, platform_overrides, setting_overrides
from training_platform.engines.verl.overrides import paths_outside_roots, refusals, split_override
from training_platform.errors import FieldError, InvalidInputError

SETTING = "engine_settings."
PLATFORM_SETS = "the platform sets it for this job (from its params, or for the devices it runs on): change the param"


def setting_problems(spec: RunSpec, target: Target, roots: list[Path]) -> list[FieldError]:
    """Why the job's settings cannot be appended to its verl command, before verl itself is asked."""
    if not spec.engine_settings:
        return []
    given, problems = [], []
    for key, value in spec.engine_settings.items():
        try:
            given += setting_overrides({key: value})
        except InvalidInputError as error:  # a string verl cannot be given ('$', control characters)
            problems += error.errors
    composed = platform_overrides(spec, target, VerlFiles(spec.layout.root))
    platform = {split_override(override)[1] for override in composed}
    problems += [FieldError(SETTING + key, PLATFORM_SETS) for key in spec.engine_settings if key in platform]
    problems += [FieldError(SETTING + refusal.key, str(refusal)) for refusal in refusals(given)]
    problems += [
        FieldError(SETTING + key, "names a path outside the platform's data roots")
        for key in paths_outside_roots(given, roots)
    ]
    return problems


def problem_field(spec: RunSpec, override: str) -> str:
    """The field a problem verl found in the job's command belongs to: one of its settings, or the platform's own
    override (`verl:<override>`), which a job parameter sets."""
    key = split_override(override)[1]
    return SETTING + key if key in spec.engine_settings else f"verl:{override}"
