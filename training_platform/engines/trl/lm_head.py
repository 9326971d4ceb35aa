"""The SFT step's LM head where TRL's fused one has no kernel (CPU, MPS: no Triton).

TRL's SFTTrainer computes the loss, the entropy and the token accuracy through its fused LM head
(`model(..., fused_lm_head=True)`, trl/trainer/utils.py add_fused_lm_head). On CUDA a Triton kernel folds each
projection tile and only the positions that carry a label are scored. Without Triton the same tiles are folded
with torch operations (about a dozen passes over every [tokens, vocabulary] tile, forward and backward), and every
position is scored, the padding and the prompt included, "since the number of valid positions would change the
tile shapes" (a concern of compiled devices, not of the CPU). On this machine that made an engine step 1.5-3x a
plain loop's on the same batch (issue 31; docs/benchmarks.md, "Training throughput").

Here, on such devices, the head projects the trained positions alone, once, and takes the log-probabilities,
the entropy and the top-1 hit from those logits: the same outputs, in the same shapes (zero where the label is
-100), so TRL's compute_loss, its gradient accumulation and its metrics are unchanged. The head's memory is in
float32 [trained tokens, vocabulary] tensors: the softmax is kept for the backward pass, and at the end of the
forward pass the logits and the product the entropy sums are alive beside it (about 3-4 such tensors, measured),
which the configurator counts for these devices (compute/memory.py COMPACT_HEAD_TEMPORARIES).

Models whose head is not a plain projection (logit scaling or soft-capping) and mixture-of-experts models (whose
load-balancing loss TRL's head adds) keep TRL's head: `compact_head_applies` says which.
"""

import functools
import types

import torch
from transformers import PreTrainedModel
from trl.trainer.utils import FusedCausalLMOutput

# Config fields that make the logits more than `hidden @ W.T (+ b)` (TRL's add_fused_lm_head reads the same).
_LOGIT_TRANSFORMS = ("final_logit_softcapping", "logit_scale", "output_multiplier", "lm_head_multiplier",
                     "logits_scaling")  # fmt: skip


def has_triton_kernel(device: str) -> bool:
    """Whether TRL's fused head runs its Triton kernel on `device` (it does on CUDA where Triton is installed)."""
    from trl.kernels.chunked_logprob import _TRITON_AVAILABLE  # noqa: PLC0415 - read where it is decided

    return _TRITON_AVAILABLE and device in ("cuda", "xpu")


def compact_head_applies(model: PreTrainedModel) -> bool:
    config = model.config.get_text_config()
    if any(getattr(config, name, None) is not None for name in _LOGIT_TRANSFORMS):
        return False
    return not getattr(config, "output_router_logits", False) and not hasattr(config, "router_aux_loss_coef")


def add_compact_lm_head(model: PreTrainedModel) -> None:
    """Replace the fused head TRL added to `model` (after SFTTrainer built it; the same object TRL patched)."""
    trl_forward = model.forward

    @functools.wraps(type(model).forward)
    def forward(self, *args, fused_lm_head=False, labels=None, num_items_in_batch=None, **kwargs):
        if not fused_lm_head or kwargs.get("shift_labels") is not None:
            return trl_forward(*args, fused_lm_head=fused_lm_head, labels=labels,
                               num_items_in_batch=num_items_in_batch, **kwargs)  # fmt: skip
        kwargs["use_cache"] = False
        hidden = self.base_model(*args, **kwargs).last_hidden_state[:, :-1]
        labels = labels[:, 1:].to(hidden.device)
        mask = labels != -100
        targets = labels[mask]
        logits = self.get_output_embeddings()(hidden[mask]).float()
        log_probs, entropy, is_top1 = _TargetLogProbs.apply(logits, targets)
        # masked_scatter keeps an all-masked micro-batch connected to the model (a differentiable zero), as TRL's.
        full_log_probs = log_probs.new_zeros(mask.shape).masked_scatter(mask, log_probs)
        count = mask.sum().clamp(min=1) if num_items_in_batch is None else num_items_in_batch
        return FusedCausalLMOutput(
            loss=-full_log_probs.sum() / count,
            log_probs=full_log_probs,
            entropy=entropy.new_zeros(mask.shape).masked_scatter(mask, entropy),
            is_top1=is_top1.new_zeros(mask.shape).masked_scatter(mask, is_top1),
            label_mask=mask,
        )

    model.forward = types.MethodType(forward, model)


class _TargetLogProbs(torch.autograd.Function):
    """Each row's log-probability of its target under softmax(logits), with the entropy and whether the target is
    the most likely token (metrics: no gradient). One softmax serves all three and the backward pass
    (d log p_target / d logits = onehot(target) - p), which keeps it alone: about half the passes over the
    [tokens, vocabulary] logits that logsumexp, gather and a separate softmax for the metrics take."""

    @staticmethod
    def forward(ctx, logits: torch.Tensor, targets: torch.Tensor):
        log_z = torch.logsumexp(logits, dim=-1)
        target_logits = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        is_top1 = logits.argmax(-1) == targets
        probabilities = (logits - log_z.unsqueeze(-1)).exp_()
        entropy = log_z - (probabilities * logits).sum(-1)
        ctx.save_for_backward(probabilities, targets)
        ctx.mark_non_differentiable(entropy, is_top1)
        return target_logits - log_z, entropy, is_top1

    @staticmethod
    def backward(ctx, grad_log_probs: torch.Tensor, *_):
        probabilities, targets = ctx.saved_tensors
        grad = probabilities * -grad_log_probs.unsqueeze(-1)
        grad.scatter_add_(-1, targets.unsqueeze(-1), grad_log_probs.unsqueeze(-1))
        return grad, None
