"""Switched on by PLATFORM_LAYER_GRAD_NORMS_EVERY=N: per-layer gradient norms (the gradient heatmap) every N steps,
under the keys the TRL engine writes (contract/metrics.py: grad_norm/layer/<group>). verl 0.9.1 logs only the
gradients' total norm; these are measured in its FSDP engine's optimizer_step before it clips, so they are the norms
the update came from. The SFT trainer's step is its fit loop's; for PPO/GRPO the driver marks the actor update of
every Nth step in the update's metadata (one flag beside verl's own in KVBatchMeta.extra_info, which reaches the
workers as the update's non-tensor data), and the actor's workers measure the mini-batch updates it holds (logged,
like actor/grad_norm, as their mean). The critic is never measured.
"""

import functools
from collections.abc import Callable
from types import ModuleType

import torch

from training_platform.engines.verl.plugin.patching import after_import, fit_locals

LAYER_GRAD_NORMS_EVERY = "PLATFORM_LAYER_GRAD_NORMS_EVERY"
# The PPO driver's mark on the data of an actor update whose gradients are measured.
_MEASURE_FLAG = "platform_layer_grad_norms"


def platform_layer_keys(data):
    """verl's PPO trainer prefixes the actor's metrics with actor/: the layer norms keep the platform's names."""
    from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX

    prefixed = "actor/" + LAYER_GRAD_NORM_PREFIX
    if not isinstance(data, dict) or not any(str(key).startswith(prefixed) for key in data):
        return data
    return {key.removeprefix("actor/") if str(key).startswith(prefixed) else key: v for key, v in data.items()}


def layer_grad_norms(module: torch.nn.Module, scale: float = 1.0) -> dict[str, float]:
    """Each layer group's gradient L2 norm (contract/metrics.layer_group), trainable parameters only. Under FSDP2
    the gradients are DTensors: the norms are reduced over their own mesh (one small collective per group), so
    every rank of the mesh must call this at the same point, and every rank gets the same answer."""
    from training_platform.contract.metrics import layer_group

    groups: dict[str, list[torch.Tensor]] = {}
    for name, parameter in module.named_parameters():
        if parameter.requires_grad and parameter.grad is not None:
            groups.setdefault(layer_group(name), []).append(parameter.grad.detach())
    norms = {}
    for group, gradients in sorted(groups.items()):
        norm = torch.nn.utils.get_total_norm(gradients)
        full_tensor = getattr(norm, "full_tensor", None)
        norm = full_tensor() if callable(full_tensor) else norm
        norms[group] = float(norm.item()) / scale
    return norms


def _measure_before_clipping(fsdp_engine_module: ModuleType) -> None:
    """verl 0.9.1's FSDPEngine.optimizer_step unscales (fp16), clips and steps: the gradients it starts with are
    the step's own. A measurement asked for (by `_report_layer_grad_norms`) is taken there, before the clip."""
    engine_class = fsdp_engine_module.FSDPEngine
    original = engine_class.optimizer_step

    @functools.wraps(original)
    def optimizer_step(self, *args, **kwargs):
        if self.__dict__.pop("_platform_measure_layers", False):
            scaler = getattr(self, "scaler", None)  # fp16: the gradients are still scaled here
            scale = float(scaler.get_scale()) if scaler is not None else 1.0
            self._platform_layer_norms = layer_grad_norms(self.module, scale)
        return original(self, *args, **kwargs)

    engine_class.optimizer_step = optimizer_step


def _flagged(tu: ModuleType, data) -> bool:
    try:
        return bool(tu.get(data, _MEASURE_FLAG, default=False))
    except Exception:  # noqa: BLE001 - not verl's TensorDict of an update (the flag travels only in those)
        return False


def _report_layer_grad_norms(every: int) -> Callable[[ModuleType], None]:
    def patch(workers_module: ModuleType) -> None:
        from verl.utils import tensordict_utils as tu

        worker_class = workers_module.TrainingWorker
        original = worker_class.train_batch

        @functools.wraps(original)
        def train_batch(self, data, *args, **kwargs):
            step = fit_locals().get("global_step")
            due = _flagged(tu, data) or (isinstance(step, int) and step % every == 0)
            if due:
                self.engine._platform_measure_layers = True
            output = original(self, data, *args, **kwargs)
            self.engine.__dict__.pop("_platform_measure_layers", None)  # a batch that never reached the step
            norms = self.engine.__dict__.pop("_platform_layer_norms", None)
            if norms and output is not None:
                from training_platform.contract.metrics import LAYER_GRAD_NORM_PREFIX

                metrics = tu.get(output, "metrics")
                metrics.update({f"{LAYER_GRAD_NORM_PREFIX}{group}": value for group, value in norms.items()})
            return output

        worker_class.train_batch = train_batch

    return patch


def _mark_measured_updates(every: int, class_name: str) -> Callable[[ModuleType], None]:
    """The driver's actor update of every Nth step carries the flag in its batch's metadata (the v1 trainer's
    KVBatchMeta.extra_info, the legacy trainer's DataProto.meta_info), which verl hands to the actor's workers
    as non-tensor data of the update."""

    def patch(trainer_module: ModuleType) -> None:
        trainer_class = getattr(trainer_module, class_name)
        original = trainer_class._update_actor

        @functools.wraps(original)
        def _update_actor(self, batch, *args, **kwargs):
            metadata = getattr(batch, "extra_info", None)
            metadata = getattr(batch, "meta_info", None) if metadata is None else metadata
            if self.global_steps % every or not isinstance(metadata, dict):
                return original(self, batch, *args, **kwargs)
            metadata[_MEASURE_FLAG] = True
            try:
                return original(self, batch, *args, **kwargs)
            finally:
                metadata.pop(_MEASURE_FLAG, None)

        trainer_class._update_actor = _update_actor

    return patch


def install_layer_grad_norms(every: int) -> None:
    after_import("verl.workers.engine.fsdp.transformer_impl", _measure_before_clipping)
    after_import("verl.workers.engine_workers", _report_layer_grad_norms(every))
    # verl 0.9.1's main_ppo runs the v1 trainer; the legacy one is kept by verl for its recipes.
    after_import("verl.trainer.ppo.v1.trainer_base", _mark_measured_updates(every, "PPOTrainer"))
    after_import("verl.trainer.ppo.ray_trainer", _mark_measured_updates(every, "RayPPOTrainer"))
