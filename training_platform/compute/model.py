"""Decoder-only transformer descriptions (Llama / Qwen2 / Mistral style) with exact parameter counts.

Counts come from the architecture, so a preset and the config.json it was taken from agree to the
parameter: embeddings V·h; per layer q (h·a·d), k and v (h·k·d each, with biases for Qwen2), o (a·d·h),
gate/up/down (3·h·i), two RMSNorm weights (2·h); a final norm (h); an lm_head (V·h) unless tied.
"""

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from training_platform.common.paths import OUTSIDE_ROOTS, under_roots
from training_platform.errors import FieldError, InvalidInputError, field_errors_from_pydantic

# A dimension of a model's config.json (docs/security.md, "Limits"): far beyond any published model.
MAX_DIMENSION = 2**24


class ModelSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    vocab_size: int = Field(gt=0, le=MAX_DIMENSION)
    hidden_size: int = Field(gt=0, le=MAX_DIMENSION)
    intermediate_size: int = Field(gt=0, le=MAX_DIMENSION)
    num_layers: int = Field(gt=0, le=MAX_DIMENSION)
    num_heads: int = Field(gt=0, le=MAX_DIMENSION)
    num_kv_heads: int = Field(gt=0, le=MAX_DIMENSION)
    head_dim: int = Field(default=0, ge=0, le=MAX_DIMENSION, description="0 means hidden_size / num_heads.")
    tie_embeddings: bool = False
    attention_bias: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> "ModelSpec":
        if self.head_dim == 0:
            if self.hidden_size % self.num_heads:
                raise ValueError(f"hidden_size {self.hidden_size} is not a multiple of num_heads {self.num_heads}")
            object.__setattr__(self, "head_dim", self.hidden_size // self.num_heads)
        if self.num_heads % self.num_kv_heads:
            raise ValueError(f"num_heads {self.num_heads} is not a multiple of num_kv_heads {self.num_kv_heads}")
        return self

    @property
    def q_dim(self) -> int:
        return self.num_heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.num_kv_heads * self.head_dim

    @property
    def embedding_params(self) -> int:
        return self.vocab_size * self.hidden_size

    @property
    def attention_params(self) -> int:
        h = self.hidden_size
        weights = h * self.q_dim + 2 * h * self.kv_dim + self.q_dim * h
        biases = self.q_dim + 2 * self.kv_dim if self.attention_bias else 0
        return weights + biases

    @property
    def mlp_params(self) -> int:
        return 3 * self.hidden_size * self.intermediate_size

    @property
    def layer_params(self) -> int:
        return self.attention_params + self.mlp_params + 2 * self.hidden_size

    @property
    def lm_head_params(self) -> int:
        return 0 if self.tie_embeddings else self.vocab_size * self.hidden_size

    @property
    def num_parameters(self) -> int:
        return self.embedding_params + self.num_layers * self.layer_params + self.hidden_size + self.lm_head_params

    @property
    def largest_module_params(self) -> int:
        """The biggest single weight-holding module (DeepSpeed's "largest layer"): the embedding or lm_head
        for most LLMs, else the MLP's widest projection."""
        return max(self.embedding_params, self.hidden_size * self.intermediate_size)

    def linear_shapes(self) -> dict[str, tuple[int, int]]:
        """(in, out) of each projection of a decoder layer, by its usual module name (LoRA targets)."""
        h, i = self.hidden_size, self.intermediate_size
        return {
            "q_proj": (h, self.q_dim),
            "k_proj": (h, self.kv_dim),
            "v_proj": (h, self.kv_dim),
            "o_proj": (self.q_dim, h),
            "gate_proj": (h, i),
            "up_proj": (h, i),
            "down_proj": (i, h),
        }

    def lora_params(self, rank: int, targets: list[str]) -> int:
        """Trainable parameters of LoRA adapters: rank·(in + out) per targeted projection per layer."""
        shapes = self.linear_shapes()
        unknown = [t for t in targets if t not in shapes]
        if unknown:
            raise InvalidInputError(
                [FieldError("lora_targets", f"unknown module(s) {', '.join(unknown)}; known: {', '.join(shapes)}")]
            )
        return self.num_layers * sum(rank * (shapes[t][0] + shapes[t][1]) for t in targets)


def _qwen2(name, vocab, hidden, inter, layers, heads, kv, tied) -> ModelSpec:
    return ModelSpec(
        name=name,
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=inter,
        num_layers=layers,
        num_heads=heads,
        num_kv_heads=kv,
        tie_embeddings=tied,
        attention_bias=True,
    )


def _llama(name, vocab, hidden, inter, layers, heads, kv) -> ModelSpec:
    return ModelSpec(
        name=name,
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=inter,
        num_layers=layers,
        num_heads=heads,
        num_kv_heads=kv,
    )


# Values from each model's published config.json.
PRESETS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        _qwen2("Qwen2.5-0.5B", 151936, 896, 4864, 24, 14, 2, True),
        _qwen2("Qwen2.5-1.5B", 151936, 1536, 8960, 28, 12, 2, True),
        _qwen2("Qwen2.5-3B", 151936, 2048, 11008, 36, 16, 2, True),
        _qwen2("Qwen2.5-7B", 152064, 3584, 18944, 28, 28, 4, False),
        _qwen2("Qwen2.5-14B", 152064, 5120, 13824, 48, 40, 8, False),
        _qwen2("Qwen2.5-32B", 152064, 5120, 27648, 64, 40, 8, False),
        _qwen2("Qwen2.5-72B", 152064, 8192, 29568, 80, 64, 8, False),
        _llama("Llama-3-8B", 128256, 4096, 14336, 32, 32, 8),
        _llama("Llama-3-70B", 128256, 8192, 28672, 80, 64, 8),
        _llama("Mistral-7B-v0.3", 32768, 4096, 14336, 32, 32, 8),
    )
}

_REQUIRED = {
    "vocab_size": "vocab_size",
    "hidden_size": "hidden_size",
    "intermediate_size": "intermediate_size",
    "num_layers": "num_hidden_layers",
    "num_heads": "num_attention_heads",
}


def from_hf_config(config: dict, name: str, source: str = "config.json") -> ModelSpec:
    """A Llama/Qwen2/Mistral-style config.json → ModelSpec; a missing field is named in the error."""
    missing = [key for key in _REQUIRED.values() if key not in config]
    if missing:
        raise InvalidInputError([FieldError(f"{source}.{key}", "missing from the model config") for key in missing])
    try:
        return ModelSpec(
            name=name,
            **{field: config[key] for field, key in _REQUIRED.items()},
            num_kv_heads=config.get("num_key_value_heads") or config["num_attention_heads"],
            head_dim=config.get("head_dim") or 0,
            tie_embeddings=bool(config.get("tie_word_embeddings", False)),
            attention_bias=bool(config.get("attention_bias", config.get("model_type") == "qwen2")),
        )
    except ValidationError as error:
        raise InvalidInputError(field_errors_from_pydantic(error, prefix=source)) from None


def resolve_model(path_or_preset: str, roots: Sequence[Path], field: str = "model") -> ModelSpec:
    """A preset name, or a model directory (or its config.json) under the data roots (common/paths.py)."""
    if path_or_preset in PRESETS:
        return PRESETS[path_or_preset]
    path = under_roots(path_or_preset, roots)
    if path is None:
        message = f"not a preset ({', '.join(PRESETS)}), and as a path it is {OUTSIDE_ROOTS}"
        raise InvalidInputError([FieldError(field, message)])
    config_path = path / "config.json" if path.is_dir() else path
    if not config_path.is_file():
        raise InvalidInputError(
            [FieldError(field, f"'{path_or_preset}' is neither a preset ({', '.join(PRESETS)}) nor a config.json")]
        )
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InvalidInputError([FieldError(field, f"{config_path} is not valid JSON: {error}")]) from None
    return from_hf_config(config, name=str(path_or_preset), source=field)
