"""What a verl command's Hydra overrides may say: data, and nothing Hydra or OmegaConf would run or resolve.

verl composes its config with Hydra and turns config groups into dataclasses with `hydra.utils.instantiate`,
so an override is code when it reaches one of these:
- an instantiation key (`_target_` and the keys that steer it) anywhere: in the key, or in a dict value;
- an interpolation (`${...}`: another key, or a resolver such as `oc.env`, which reads the server's
  environment, or `oc.decode`), quoted, escaped or nested in a list or dict: any `$` in a value is refused;
- a config group choice (`engine=...`, `actor@actor_rollout_ref.actor=...`): Hydra reads `<group>/<value>.yaml`
  and follows `../` out of verl's config directory, to a file whose `_target_` verl would then instantiate,
  so a choice is an option name (and in the verl environment, one of the group's own files);
- keys Hydra itself acts on (`hydra.searchpath` adds config sources, some of them Python packages);
- what verl itself runs while it only builds a config (HFModelConfig.__post_init__ in verl 0.9.1's
  workers/config/model.py, which the validation reaches): `external_lib` is imported, `trust_remote_code` runs a
  model directory's code, and an `hdfs://` path is fetched through a shell command (utils/hdfs_io.py `os.system`),
  so a value naming HDFS anywhere is refused, and these keys keep their defaults (null, false);
- additions (`+`, `++`) of keys verl does not declare, which reach code that reads them as options; only the
  ones the platform adds itself are allowed; deletions (`~`) are refused.

Two checks, the same rules: `refusals` reads the text of each override in the server, which may not have Hydra
installed; `parsed_refusals` reads them with Hydra's own parser, in the verl environment's validation process
(validate.py), against verl's config directory. Either refuses with the override's key named.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from training_platform.common.paths import under_roots
from training_platform.errors import FieldError, InvalidInputError

# Keys hydra.utils.instantiate acts on (Hydra's documentation, "Instantiating objects"), and the defaults list.
INSTANTIATION_KEYS = ("_target_", "_partial_", "_args_", "_recursive_", "_convert_")
RESERVED_SEGMENTS = frozenset({*INSTANTIATION_KEYS, "defaults", "_self_"})
# Keys the platform adds to verl's configs (command.py): `+`/`++` is allowed for these alone.
ADDABLE = tuple(
    re.compile(pattern)
    for pattern in (
        r"(engine|actor_rollout_ref\.(actor|ref)\.fsdp_config|critic\.fsdp)\.mixed_precision",
        r"(model|actor_rollout_ref\.model|critic\.model)\.override_config\.attn_implementation",
        r"ray_kwargs\.ray_init\.(address|include_dashboard|_temp_dir|num_gpus|num_cpus)",
        r"(actor_rollout_ref|reward\.reward_model)\.rollout\.enable_sleep_mode",
    )
)
# Of Hydra's own keys, where it writes its outputs (the platform points it into the job's directory).
HYDRA_KEYS = frozenset({"hydra.run.dir"})
# Keys of verl's model configs that run code as soon as the config is built: only their defaults are allowed.
CODE_KEYS = ("external_lib", "trust_remote_code")
_DEFAULTS = frozenset({"null", "false"})
_REMOTE = re.compile(r"hdfs:", re.IGNORECASE)

_PREFIX = re.compile(r"(\+\+|\+|~)?")
_SEGMENT = r"[A-Za-z_][A-Za-z0-9_\-]*|0|[1-9][0-9]*"
# A config key (`a.b.0.c`), or a config group (`a/b`) with an optional package (`group@a.b`).
_KEY = re.compile(rf"(?:{_SEGMENT})(?:[./](?:{_SEGMENT}))*(?:@(?:{_SEGMENT})(?:\.(?:{_SEGMENT}))*)?")
# A config group's option: the name of one of its YAML files, or null (no option).
_OPTION = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*")
# A quoted string as Hydra's lexer reads one (OverrideLexer.g4, QUOTED_VALUE): it closes at the first quote after
# an even number of backslashes.
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Refusal:
    key: str  # the override's key as written (without its +/++/~)
    reason: str

    def __str__(self) -> str:
        return f"override '{self.key}' refused: {self.reason}"


def split_override(override: str) -> tuple[str, str, str | None]:
    """(prefix: '', '+', '++' or '~'; key; value, None when there is no '=') of one override's text."""
    prefix = _PREFIX.match(override).group(0)
    key, sep, value = override[len(prefix) :].partition("=")
    return prefix, key, value if sep else None


def refusals(overrides: Iterable[str]) -> list[Refusal]:
    """What in these overrides Hydra or OmegaConf would execute or resolve, read from their text alone."""
    found = []
    for override in overrides:
        prefix, key, value = split_override(override)
        reason = _key_refusal(prefix, key) or _value_refusal(key, value)
        if reason:
            found.append(Refusal(key, reason))
    return found


def check(overrides: Iterable[str], field: str | None = None) -> None:
    """Raise InvalidInputError naming each refused override: under `field` (a request's command), or as
    `verl:<key>` (the platform's own command, from a job's parameters)."""
    if found := refusals(overrides):
        raise InvalidInputError([FieldError(field or f"verl:{r.key}", str(r)) for r in found])


def _key_refusal(prefix: str, key: str) -> str | None:
    if not _KEY.fullmatch(key):
        return "not a Hydra override key (letters, digits, '_', '-', separated by '.' or '/')"
    segments = re.split(r"[./@]", key)
    if reserved := RESERVED_SEGMENTS.intersection(segments):
        return f"'{sorted(reserved)[0]}' is a key Hydra acts on (instantiation, defaults), not configuration"
    if segments[0] == "hydra" and key not in HYDRA_KEYS:
        return f"Hydra's own settings are not overridden here (only {', '.join(sorted(HYDRA_KEYS))})"
    if prefix == "~":
        return "deleting keys ('~') is not allowed"
    if prefix and not any(pattern.fullmatch(key) for pattern in ADDABLE):
        return f"adding keys ('{prefix}') is allowed only for the keys the platform adds itself"
    return None


def _is_group(key: str) -> bool:
    """Whether Hydra may read the key as a config group: a group path, a package, or a top-level name."""
    return "/" in key or "@" in key or "." not in key


def _value_refusal(key: str, value: str | None) -> str | None:
    if value is None:
        return None
    if key.rsplit(".", 1)[-1] in CODE_KEYS:
        if value.strip().lower() in _DEFAULTS:
            return None
        return "makes verl import or run code while building its config; only its default (null, false) is allowed"
    if _CONTROL.search(value):
        return "control characters (newlines, tabs, ...) in a value are not allowed"
    if "$" in value:
        return "'$' (an OmegaConf interpolation or resolver, such as ${oc.env:...}) is not allowed in a value"
    if _is_group(key):
        if not _OPTION.fullmatch(value):
            return "a config group's option is the name of one of its files (letters, digits, '_', '-')"
        return None
    if _REMOTE.search(value):
        return "an hdfs:// path is fetched by verl through a shell command; use a local path"
    # A quoted string is a literal, never a dict key (OverrideParser.g4: dictKey has no quoted form).
    unquoted = _QUOTED.sub("''", value)
    for name in (*INSTANTIATION_KEYS, *CODE_KEYS):
        if name in unquoted:
            return f"'{name}' in a value (a key Hydra or verl would act on) is not allowed"
    return None


def parsed_refusals(overrides: Iterable[str], config_dir: Path) -> list[Refusal]:
    """The same rules, with each override parsed by Hydra's own parser and each config group choice checked
    against the group's files in verl's config directory. Runs where Hydra is installed (the verl environment)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    found = []
    for text in overrides:
        key = split_override(text)[1]
        try:
            override = parser.parse_override(text)
        except HydraException:
            continue  # composing reports the syntax error, naming the override
        reason = _parsed_refusal(override, config_dir)
        if reason:
            found.append(Refusal(key, reason))
    return found


def _parsed_refusal(override, config_dir: Path) -> str | None:
    group = override.key_or_group
    segments = [*re.split(r"[./]", group), *(override.package.split(".") if override.package else [])]
    if reserved := RESERVED_SEGMENTS.intersection(segments):
        return f"'{sorted(reserved)[0]}' is a key Hydra acts on (instantiation, defaults), not configuration"
    if segments[0] == "hydra" and group not in HYDRA_KEYS:
        return f"Hydra's own settings are not overridden here (only {', '.join(sorted(HYDRA_KEYS))})"
    if override.is_delete():
        return "deleting keys ('~') is not allowed"
    if (override.is_add() or override.is_force_add()) and not any(p.fullmatch(group) for p in ADDABLE):
        return "adding keys ('+', '++') is allowed only for the keys the platform adds itself"
    if override.is_sweep_override():
        return "sweeps are not a single command"
    value = override.value()
    if segments[-1] in CODE_KEYS and value not in (None, False):
        return "makes verl import or run code while building its config; only its default (null, false) is allowed"
    if (config_dir / group).is_dir():
        options = {path.stem for path in (config_dir / group).glob("*.yaml")}
        if value is not None and (not isinstance(value, str) or value not in options):
            return f"'{group}' is a config group; its options are {', '.join(sorted(options))}"
        return None
    if override.package is not None:
        return "a package ('@') applies to config groups only"
    return _data_refusal(value)


def _data_refusal(value) -> str | None:
    """Interpolations and HDFS paths in strings, instantiation and code keys in dicts, however deep in the value."""
    if isinstance(value, str):
        if "$" in value:
            return "'$' (an OmegaConf interpolation or resolver) is not allowed in a value"
        if _REMOTE.search(value):
            return "an hdfs:// path is fetched by verl through a shell command; use a local path"
        return None
    if isinstance(value, dict):
        for name, item in value.items():
            if str(name) in (*INSTANTIATION_KEYS, *CODE_KEYS):
                return f"'{name}' in a value (a key Hydra or verl would act on) is not allowed"
            if reason := _data_refusal(str(name)) or _data_refusal(item):
                return reason
    if isinstance(value, list):
        for item in value:
            if reason := _data_refusal(item):
                return reason
    return None


# The last part of a key whose value verl reads as a path: model.path, data.train_files, critic.model.tokenizer_path,
# trainer.default_local_dir.
_PATH_KEY = re.compile(r"(?:^|_)(?:path|paths|file|files|dir|dirs)$")


def paths_outside_roots(overrides: list[str], roots: list[Path]) -> list[str]:
    """The keys of overrides naming a file or directory outside the data roots. verl reads such paths while it
    validates (a model's config, its tokenizer's chat template), so an answer would tell what lies there; a value
    is taken for a path when it could be one (a `/`, or a leading `~` or `.`) or its key names one (`_PATH_KEY`),
    in a list too. A relative path is outside: it would name something under the working directory of the process
    that reads it, never a root (`model.path=somedir`)."""
    outside = []
    for override in overrides:
        _, key, value = split_override(override)
        path_key = _PATH_KEY.search(key.rsplit(".", 1)[-1]) is not None
        items = (value or "").strip("[]").split(",")
        for item in (item.strip().strip("'\"") for item in items):
            looks_like_path = "/" in item or item.startswith(("~", ".")) or (path_key and item not in ("", "null"))
            relative = not item.startswith("~") and not Path(item).is_absolute()
            if looks_like_path and (relative or under_roots(item, roots) is None):
                outside.append(key)
                break
    return outside
