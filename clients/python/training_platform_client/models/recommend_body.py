from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm
from ..models.recommend_body_attention_type_0 import RecommendBodyAttentionType0
from ..models.recommend_body_precision import RecommendBodyPrecision
from ..types import UNSET, Unset

T = TypeVar("T", bound="RecommendBody")


@_attrs_define
class RecommendBody:
    """
    Attributes:
        model (str): Preset name (GET /compute/models), or a model directory / config.json under the data roots.
        seq_len (int):
        algorithm (Algorithm | Unset):
        allow_lora (bool | Unset):  Default: True.
        attention (None | RecommendBodyAttentionType0 | Unset): Default: flash on CUDA, sdpa elsewhere.
        global_batch (int | None | Unset): Samples (prompts for RL) per step.
        gpu (str | Unset): GPU name (GET /compute/gpus) or 'cpu'. Default: 'H100-80G'.
        host_memory_gib (float | None | Unset): RAM of one host, shared by the job's GPUs on it (at most 8), for
            offloading (default: the GPU class's typical machine).
        lora_rank (int | Unset):  Default: 16.
        num_gpus (int | Unset):  Default: 1.
        precision (RecommendBodyPrecision | Unset):  Default: RecommendBodyPrecision.BF16_AMP.
        reward_model (None | str | Unset): PPO: the reward model (preset or path).
        rollout_n (int | Unset):  Default: 8.
        safety_margin (float | Unset): Fraction of memory kept free. Default: 0.1.
        samples (int | None | Unset): Samples the job trains on (rows × epochs; prompts for RL): the expected duration
            covers them.
    """

    model: str
    seq_len: int
    algorithm: Algorithm | Unset = UNSET
    allow_lora: bool | Unset = True
    attention: None | RecommendBodyAttentionType0 | Unset = UNSET
    global_batch: int | None | Unset = UNSET
    gpu: str | Unset = "H100-80G"
    host_memory_gib: float | None | Unset = UNSET
    lora_rank: int | Unset = 16
    num_gpus: int | Unset = 1
    precision: RecommendBodyPrecision | Unset = RecommendBodyPrecision.BF16_AMP
    reward_model: None | str | Unset = UNSET
    rollout_n: int | Unset = 8
    safety_margin: float | Unset = 0.1
    samples: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        seq_len = self.seq_len

        algorithm: str | Unset = UNSET
        if not isinstance(self.algorithm, Unset):
            algorithm = self.algorithm.value

        allow_lora = self.allow_lora

        attention: None | str | Unset
        if isinstance(self.attention, Unset):
            attention = UNSET
        elif isinstance(self.attention, RecommendBodyAttentionType0):
            attention = self.attention.value
        else:
            attention = self.attention

        global_batch: int | None | Unset
        if isinstance(self.global_batch, Unset):
            global_batch = UNSET
        else:
            global_batch = self.global_batch

        gpu = self.gpu

        host_memory_gib: float | None | Unset
        if isinstance(self.host_memory_gib, Unset):
            host_memory_gib = UNSET
        else:
            host_memory_gib = self.host_memory_gib

        lora_rank = self.lora_rank

        num_gpus = self.num_gpus

        precision: str | Unset = UNSET
        if not isinstance(self.precision, Unset):
            precision = self.precision.value

        reward_model: None | str | Unset
        if isinstance(self.reward_model, Unset):
            reward_model = UNSET
        else:
            reward_model = self.reward_model

        rollout_n = self.rollout_n

        safety_margin = self.safety_margin

        samples: int | None | Unset
        if isinstance(self.samples, Unset):
            samples = UNSET
        else:
            samples = self.samples

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "seq_len": seq_len,
            }
        )
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if allow_lora is not UNSET:
            field_dict["allow_lora"] = allow_lora
        if attention is not UNSET:
            field_dict["attention"] = attention
        if global_batch is not UNSET:
            field_dict["global_batch"] = global_batch
        if gpu is not UNSET:
            field_dict["gpu"] = gpu
        if host_memory_gib is not UNSET:
            field_dict["host_memory_gib"] = host_memory_gib
        if lora_rank is not UNSET:
            field_dict["lora_rank"] = lora_rank
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if precision is not UNSET:
            field_dict["precision"] = precision
        if reward_model is not UNSET:
            field_dict["reward_model"] = reward_model
        if rollout_n is not UNSET:
            field_dict["rollout_n"] = rollout_n
        if safety_margin is not UNSET:
            field_dict["safety_margin"] = safety_margin
        if samples is not UNSET:
            field_dict["samples"] = samples

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = d.pop("model")

        seq_len = d.pop("seq_len")

        _algorithm = d.pop("algorithm", UNSET)
        algorithm: Algorithm | Unset
        if isinstance(_algorithm, Unset):
            algorithm = UNSET
        else:
            algorithm = Algorithm(_algorithm)

        allow_lora = d.pop("allow_lora", UNSET)

        def _parse_attention(data: object) -> None | RecommendBodyAttentionType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                attention_type_0 = RecommendBodyAttentionType0(data)

                return attention_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecommendBodyAttentionType0 | Unset, data)

        attention = _parse_attention(d.pop("attention", UNSET))

        def _parse_global_batch(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        global_batch = _parse_global_batch(d.pop("global_batch", UNSET))

        gpu = d.pop("gpu", UNSET)

        def _parse_host_memory_gib(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        host_memory_gib = _parse_host_memory_gib(d.pop("host_memory_gib", UNSET))

        lora_rank = d.pop("lora_rank", UNSET)

        num_gpus = d.pop("num_gpus", UNSET)

        _precision = d.pop("precision", UNSET)
        precision: RecommendBodyPrecision | Unset
        if isinstance(_precision, Unset):
            precision = UNSET
        else:
            precision = RecommendBodyPrecision(_precision)

        def _parse_reward_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reward_model = _parse_reward_model(d.pop("reward_model", UNSET))

        rollout_n = d.pop("rollout_n", UNSET)

        safety_margin = d.pop("safety_margin", UNSET)

        def _parse_samples(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        samples = _parse_samples(d.pop("samples", UNSET))

        recommend_body = cls(
            model=model,
            seq_len=seq_len,
            algorithm=algorithm,
            allow_lora=allow_lora,
            attention=attention,
            global_batch=global_batch,
            gpu=gpu,
            host_memory_gib=host_memory_gib,
            lora_rank=lora_rank,
            num_gpus=num_gpus,
            precision=precision,
            reward_model=reward_model,
            rollout_n=rollout_n,
            safety_margin=safety_margin,
            samples=samples,
        )

        return recommend_body
