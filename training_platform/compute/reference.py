"""Published memory formulas, reproduced exactly, against which the general model is checked.

- ZeRO paper (Rajbhandari et al., arXiv 1910.02054, §5.1 and Figure 1): mixed-precision Adam keeps
  2Ψ bytes of fp16 parameters, 2Ψ of fp16 gradients and KΨ = 12Ψ of optimizer states (fp32 parameters,
  momentum, variance) per model; with N_d data-parallel ranks, stage 1 (P_os) keeps 4Ψ + 12Ψ/N_d per
  GPU, stage 2 (P_os+g) 2Ψ + 14Ψ/N_d, stage 3 (P_os+g+p) 16Ψ/N_d.
- DeepSpeed's `estimate_zero2_model_states_mem_needs` (runtime/zero/stage_1_and_2.py) and
  `estimate_zero3_model_states_mem_needs` (runtime/zero/stage3.py), which return (cpu, gpu) bytes.
"""

ZERO_K = 12  # bytes of optimizer state per parameter for mixed-precision Adam


def zero_paper_model_states(psi: float, data_parallel: int, stage: int) -> float:
    """Model-state bytes per GPU for Ψ parameters (ZeRO paper, mixed-precision Adam)."""
    if stage == 0:
        return (2 + 2 + ZERO_K) * psi
    if stage == 1:
        return 2 * psi + 2 * psi + ZERO_K * psi / data_parallel
    if stage == 2:
        return 2 * psi + (2 + ZERO_K) * psi / data_parallel
    if stage == 3:
        return (2 + 2 + ZERO_K) * psi / data_parallel
    raise ValueError(f"ZeRO stage must be 0-3, got {stage}")


def deepspeed_zero2(
    total_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    additional_buffer_factor: float = 1.5,
) -> tuple[int, int]:
    """(cpu_bytes, gpu_bytes) as DeepSpeed's ZeRO-2 estimator computes them."""
    total_gpus = num_nodes * num_gpus_per_node
    if cpu_offload:
        gpu = 2 * total_params
        cpu = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        gpu = 4 * total_params + int(16 * total_params / total_gpus)
        cpu = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu), int(gpu)


def deepspeed_zero3(
    total_params: int,
    largest_layer_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    cpu_offload_params: bool = True,
    zero_init: bool = True,
    additional_buffer_factor: float = 1.5,
) -> tuple[int, int, int]:
    """(cpu_bytes, gpu_bytes, largest_layer_bytes) as DeepSpeed's ZeRO-3 estimator computes them."""
    total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    if cpu_offload:
        if cpu_offload_params:
            gpu = largest_layer_memory
            per_param = 18 * gpus_factor if zero_init else max(4 * num_gpus_per_node, 18 * gpus_factor)
        else:
            gpu = largest_layer_memory + int(2 * total_params / total_gpus)
            per_param = 16 * gpus_factor if zero_init else max(4 * num_gpus_per_node, 16 * gpus_factor)
        cpu = total_params * per_param * additional_buffer_factor
    else:
        gpu = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu), int(gpu), largest_layer_memory
