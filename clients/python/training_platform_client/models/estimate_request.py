from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm
from ..models.estimate_request_attention import EstimateRequestAttention
from ..models.estimate_request_engine import EstimateRequestEngine
from ..models.estimate_request_optimizer import EstimateRequestOptimizer
from ..models.estimate_request_optimizer_implementation_type_0 import EstimateRequestOptimizerImplementationType0
from ..models.estimate_request_precision import EstimateRequestPrecision
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sample_lengths import SampleLengths


T = TypeVar("T", bound="EstimateRequest")


@_attrs_define
class EstimateRequest:
    """Bounded as a job's parameters are (contract/params.py), so that no request costs seconds to price.

    Attributes:
        seq_len (int): Tokens per sample (prompt + response for RL).
        algorithm (Algorithm | Unset):
        attention (EstimateRequestAttention | Unset):  Default: EstimateRequestAttention.FLASH.
        engine (EstimateRequestEngine | Unset): What runs the step: the platform's TRL or verl engine, or a plain
            PyTorch loop (forward with labels); each holds different memory. Default: EstimateRequestEngine.TRL.
        gpu_memory_utilization (float | Unset): RL: vLLM's share of the GPU. Default: 0.5.
        gradient_checkpointing (bool | Unset):  Default: False.
        host_memory_gib (float | None | Unset): RAM of one host, shared by the job's GPUs on it (at most 8), for
            offloading (default: the GPU class's typical machine).
        lora_dropout (float | Unset): LoRA dropout (the platform's default). Default: 0.05.
        lora_rank (int | Unset):  Default: 0.
        lora_targets (list[str] | Unset):
        micro_batch (int | Unset): Samples per GPU per forward pass. Default: 1.
        num_gpus (int | Unset):  Default: 1.
        offload_optimizer (bool | Unset):  Default: False.
        offload_params (bool | Unset):  Default: False.
        optimizer (EstimateRequestOptimizer | Unset):  Default: EstimateRequestOptimizer.ADAMW.
        optimizer_implementation (EstimateRequestOptimizerImplementationType0 | None | Unset): AdamW's implementation;
            default: the one the engine uses on the device.
        packing (bool | None | Unset): SFT: samples packed into one sequence of micro_batch × mean sample tokens (a
            longer sample alone) per micro-batch (a job's params.packing); unset: packed where the engine packs, as a job
            leaves it.
        precision (EstimateRequestPrecision | Unset):  Default: EstimateRequestPrecision.BF16_AMP.
        prompts_per_gpu (int | None | Unset): RL: prompts one GPU rolls out at once.
        reference_model (bool | None | Unset): Keep a reference model (default per algorithm).
        rollout_n (int | Unset): RL: responses per prompt. Default: 8.
        sample_lengths (None | SampleLengths | Unset): The training data's sample lengths (its statistics): packing's
            budget and the padding of padded micro-batches; without them every sample counts as seq_len tokens.
        shard_size (int | None | Unset): HSDP: shard within groups of this size.
        zero_stage (int | Unset): ZeRO / FSDP sharding stage. Default: 0.
    """

    seq_len: int
    algorithm: Algorithm | Unset = UNSET
    attention: EstimateRequestAttention | Unset = EstimateRequestAttention.FLASH
    engine: EstimateRequestEngine | Unset = EstimateRequestEngine.TRL
    gpu_memory_utilization: float | Unset = 0.5
    gradient_checkpointing: bool | Unset = False
    host_memory_gib: float | None | Unset = UNSET
    lora_dropout: float | Unset = 0.05
    lora_rank: int | Unset = 0
    lora_targets: list[str] | Unset = UNSET
    micro_batch: int | Unset = 1
    num_gpus: int | Unset = 1
    offload_optimizer: bool | Unset = False
    offload_params: bool | Unset = False
    optimizer: EstimateRequestOptimizer | Unset = EstimateRequestOptimizer.ADAMW
    optimizer_implementation: EstimateRequestOptimizerImplementationType0 | None | Unset = UNSET
    packing: bool | None | Unset = UNSET
    precision: EstimateRequestPrecision | Unset = EstimateRequestPrecision.BF16_AMP
    prompts_per_gpu: int | None | Unset = UNSET
    reference_model: bool | None | Unset = UNSET
    rollout_n: int | Unset = 8
    sample_lengths: None | SampleLengths | Unset = UNSET
    shard_size: int | None | Unset = UNSET
    zero_stage: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        from ..models.sample_lengths import SampleLengths  # noqa: PLC0415

        seq_len = self.seq_len

        algorithm: str | Unset = UNSET
        if not isinstance(self.algorithm, Unset):
            algorithm = self.algorithm.value

        attention: str | Unset = UNSET
        if not isinstance(self.attention, Unset):
            attention = self.attention.value

        engine: str | Unset = UNSET
        if not isinstance(self.engine, Unset):
            engine = self.engine.value

        gpu_memory_utilization = self.gpu_memory_utilization

        gradient_checkpointing = self.gradient_checkpointing

        host_memory_gib: float | None | Unset
        if isinstance(self.host_memory_gib, Unset):
            host_memory_gib = UNSET
        else:
            host_memory_gib = self.host_memory_gib

        lora_dropout = self.lora_dropout

        lora_rank = self.lora_rank

        lora_targets: list[str] | Unset = UNSET
        if not isinstance(self.lora_targets, Unset):
            lora_targets = self.lora_targets

        micro_batch = self.micro_batch

        num_gpus = self.num_gpus

        offload_optimizer = self.offload_optimizer

        offload_params = self.offload_params

        optimizer: str | Unset = UNSET
        if not isinstance(self.optimizer, Unset):
            optimizer = self.optimizer.value

        optimizer_implementation: None | str | Unset
        if isinstance(self.optimizer_implementation, Unset):
            optimizer_implementation = UNSET
        elif isinstance(self.optimizer_implementation, EstimateRequestOptimizerImplementationType0):
            optimizer_implementation = self.optimizer_implementation.value
        else:
            optimizer_implementation = self.optimizer_implementation

        packing: bool | None | Unset
        if isinstance(self.packing, Unset):
            packing = UNSET
        else:
            packing = self.packing

        precision: str | Unset = UNSET
        if not isinstance(self.precision, Unset):
            precision = self.precision.value

        prompts_per_gpu: int | None | Unset
        if isinstance(self.prompts_per_gpu, Unset):
            prompts_per_gpu = UNSET
        else:
            prompts_per_gpu = self.prompts_per_gpu

        reference_model: bool | None | Unset
        if isinstance(self.reference_model, Unset):
            reference_model = UNSET
        else:
            reference_model = self.reference_model

        rollout_n = self.rollout_n

        sample_lengths: dict[str, Any] | None | Unset
        if isinstance(self.sample_lengths, Unset):
            sample_lengths = UNSET
        elif isinstance(self.sample_lengths, SampleLengths):
            sample_lengths = self.sample_lengths.to_dict()
        else:
            sample_lengths = self.sample_lengths

        shard_size: int | None | Unset
        if isinstance(self.shard_size, Unset):
            shard_size = UNSET
        else:
            shard_size = self.shard_size

        zero_stage = self.zero_stage

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seq_len": seq_len,
            }
        )
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if attention is not UNSET:
            field_dict["attention"] = attention
        if engine is not UNSET:
            field_dict["engine"] = engine
        if gpu_memory_utilization is not UNSET:
            field_dict["gpu_memory_utilization"] = gpu_memory_utilization
        if gradient_checkpointing is not UNSET:
            field_dict["gradient_checkpointing"] = gradient_checkpointing
        if host_memory_gib is not UNSET:
            field_dict["host_memory_gib"] = host_memory_gib
        if lora_dropout is not UNSET:
            field_dict["lora_dropout"] = lora_dropout
        if lora_rank is not UNSET:
            field_dict["lora_rank"] = lora_rank
        if lora_targets is not UNSET:
            field_dict["lora_targets"] = lora_targets
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch
        if num_gpus is not UNSET:
            field_dict["num_gpus"] = num_gpus
        if offload_optimizer is not UNSET:
            field_dict["offload_optimizer"] = offload_optimizer
        if offload_params is not UNSET:
            field_dict["offload_params"] = offload_params
        if optimizer is not UNSET:
            field_dict["optimizer"] = optimizer
        if optimizer_implementation is not UNSET:
            field_dict["optimizer_implementation"] = optimizer_implementation
        if packing is not UNSET:
            field_dict["packing"] = packing
        if precision is not UNSET:
            field_dict["precision"] = precision
        if prompts_per_gpu is not UNSET:
            field_dict["prompts_per_gpu"] = prompts_per_gpu
        if reference_model is not UNSET:
            field_dict["reference_model"] = reference_model
        if rollout_n is not UNSET:
            field_dict["rollout_n"] = rollout_n
        if sample_lengths is not UNSET:
            field_dict["sample_lengths"] = sample_lengths
        if shard_size is not UNSET:
            field_dict["shard_size"] = shard_size
        if zero_stage is not UNSET:
            field_dict["zero_stage"] = zero_stage

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sample_lengths import SampleLengths  # noqa: PLC0415

        d = dict(src_dict)
        seq_len = d.pop("seq_len")

        _algorithm = d.pop("algorithm", UNSET)
        algorithm: Algorithm | Unset
        if isinstance(_algorithm, Unset):
            algorithm = UNSET
        else:
            algorithm = Algorithm(_algorithm)

        _attention = d.pop("attention", UNSET)
        attention: EstimateRequestAttention | Unset
        if isinstance(_attention, Unset):
            attention = UNSET
        else:
            attention = EstimateRequestAttention(_attention)

        _engine = d.pop("engine", UNSET)
        engine: EstimateRequestEngine | Unset
        if isinstance(_engine, Unset):
            engine = UNSET
        else:
            engine = EstimateRequestEngine(_engine)

        gpu_memory_utilization = d.pop("gpu_memory_utilization", UNSET)

        gradient_checkpointing = d.pop("gradient_checkpointing", UNSET)

        def _parse_host_memory_gib(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        host_memory_gib = _parse_host_memory_gib(d.pop("host_memory_gib", UNSET))

        lora_dropout = d.pop("lora_dropout", UNSET)

        lora_rank = d.pop("lora_rank", UNSET)

        lora_targets = cast(list[str], d.pop("lora_targets", UNSET))

        micro_batch = d.pop("micro_batch", UNSET)

        num_gpus = d.pop("num_gpus", UNSET)

        offload_optimizer = d.pop("offload_optimizer", UNSET)

        offload_params = d.pop("offload_params", UNSET)

        _optimizer = d.pop("optimizer", UNSET)
        optimizer: EstimateRequestOptimizer | Unset
        if isinstance(_optimizer, Unset):
            optimizer = UNSET
        else:
            optimizer = EstimateRequestOptimizer(_optimizer)

        def _parse_optimizer_implementation(data: object) -> EstimateRequestOptimizerImplementationType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                optimizer_implementation_type_0 = EstimateRequestOptimizerImplementationType0(data)

                return optimizer_implementation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EstimateRequestOptimizerImplementationType0 | None | Unset, data)

        optimizer_implementation = _parse_optimizer_implementation(d.pop("optimizer_implementation", UNSET))

        def _parse_packing(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        packing = _parse_packing(d.pop("packing", UNSET))

        _precision = d.pop("precision", UNSET)
        precision: EstimateRequestPrecision | Unset
        if isinstance(_precision, Unset):
            precision = UNSET
        else:
            precision = EstimateRequestPrecision(_precision)

        def _parse_prompts_per_gpu(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        prompts_per_gpu = _parse_prompts_per_gpu(d.pop("prompts_per_gpu", UNSET))

        def _parse_reference_model(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        reference_model = _parse_reference_model(d.pop("reference_model", UNSET))

        rollout_n = d.pop("rollout_n", UNSET)

        def _parse_sample_lengths(data: object) -> None | SampleLengths | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sample_lengths_type_0 = SampleLengths.from_dict(data)

                return sample_lengths_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SampleLengths | Unset, data)

        sample_lengths = _parse_sample_lengths(d.pop("sample_lengths", UNSET))

        def _parse_shard_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        shard_size = _parse_shard_size(d.pop("shard_size", UNSET))

        zero_stage = d.pop("zero_stage", UNSET)

        estimate_request = cls(
            seq_len=seq_len,
            algorithm=algorithm,
            attention=attention,
            engine=engine,
            gpu_memory_utilization=gpu_memory_utilization,
            gradient_checkpointing=gradient_checkpointing,
            host_memory_gib=host_memory_gib,
            lora_dropout=lora_dropout,
            lora_rank=lora_rank,
            lora_targets=lora_targets,
            micro_batch=micro_batch,
            num_gpus=num_gpus,
            offload_optimizer=offload_optimizer,
            offload_params=offload_params,
            optimizer=optimizer,
            optimizer_implementation=optimizer_implementation,
            packing=packing,
            precision=precision,
            prompts_per_gpu=prompts_per_gpu,
            reference_model=reference_model,
            rollout_n=rollout_n,
            sample_lengths=sample_lengths,
            shard_size=shard_size,
            zero_stage=zero_stage,
        )

        return estimate_request
