"""SFT samples packed into token-budgeted sequences, each sample attending only to itself (SFTParams.packing).

Padding every micro-batch to its longest sample spends much of a step on padding when lengths spread over an
order of magnitude, as instruction data does (46% of the positions of the throughput benchmark's batches; issue
31). Packed, a micro-batch is one sequence of whole samples laid end to end:

- **The budget.** A pack holds about `micro_batch_size` samples' tokens: micro_batch_size x the mean tokenized
  sample length. A step then sees about `batch_size` samples, as padded, so the number of steps, the learning-rate
  schedule and what batch_size means are unchanged. Samples are placed by TRL's best-fit-decreasing packer
  (trl.pack_dataset "bfd") after TRL tokenized and truncated them to max_length as unpacked training does; a
  sample longer than the budget (it truncates what does not fit) is a pack of its own instead. So a micro-batch
  never holds more tokens than the padded worst case (micro_batch_size x max_length).
- **Kept apart.** TRL's padding-free collator gives each sample its own position ids (from 0) and no attention
  mask; transformers' attention then masks across samples (a block-diagonal causal mask for SDPA and eager,
  sequence boundaries for flash attention), and the first label of each sample is ignored so no token is
  predicted from the sample before it. Whether the model at hand does this is not assumed: `mixes_samples`
  runs a one-layer copy of the model, with its attention implementation, on two samples packed and alone, and
  packing falls back to padding (a note in the job's events) when their logits differ.
- **The loss** is TRL's: the sum over the trained tokens divided by their count over the step, packed or not.
"""

import statistics
from dataclasses import dataclass

import torch
from datasets import concatenate_datasets
from transformers import AutoModelForCausalLM, PreTrainedModel
from trl import SFTTrainer, pack_dataset

# How far a packed sample's logits may be from the same sample's alone (float32 vs half-precision weights): an
# attention that mixes samples moves them by the order of the logits themselves, far beyond either.
PROBE_TOLERANCE = {torch.float32: 1e-4, torch.bfloat16: 5e-2, torch.float16: 1e-2}
_PROBE_LENGTHS = (7, 5)
_PROBE_VOCABULARY = 64


@dataclass(frozen=True)
class PackingReport:
    samples: int
    packs: int
    tokens_per_pack: int  # the budget (a longer sample is a pack of its own)
    mean_sample_tokens: float


class PlatformSFTTrainer(SFTTrainer):
    """TRL's SFTTrainer with the platform's packing (above) and each step's padding ratio in its metrics."""

    def __init__(self, *args, samples_per_pack: int, **kwargs):
        self.samples_per_pack = samples_per_pack
        self.packing_report: PackingReport | None = None
        super().__init__(*args, **kwargs)

    def _prepare_dataset(self, dataset, processing_class, args, packing, formatting_func, dataset_name):
        # Tokenized, truncated to max_length and freed of samples left without a trained token, as unpacked.
        prepared = super()._prepare_dataset(dataset, processing_class, args, False, formatting_func, dataset_name)
        if not packing:
            return prepared
        lengths = [len(ids) for ids in prepared["input_ids"]]
        mean = statistics.fmean(lengths) if lengths else 0.0
        budget = max(1, round(self.samples_per_pack * mean))
        prepared = prepared.select_columns(["input_ids", "labels"])
        longer = [index for index, length in enumerate(lengths) if length > budget]
        fitting = [index for index, length in enumerate(lengths) if length <= budget]
        packed = pack_dataset(prepared.select(fitting), budget, "bfd")
        if longer:
            alone = prepared.select(longer).map(lambda row: {"seq_lengths": [len(row["input_ids"])]})
            packed = concatenate_datasets([packed, alone.cast(packed.features)])
        if dataset_name == "train":
            self.packing_report = PackingReport(len(lengths), len(packed), budget, round(mean, 1))
        return packed

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        positions = inputs["input_ids"].numel()
        real = inputs["attention_mask"].sum().item() if "attention_mask" in inputs else positions
        mode = "train" if self.model.training else "eval"
        self._metrics[mode]["padding_ratio"].append(1.0 - real / positions if positions else 0.0)
        return super().compute_loss(model, inputs, return_outputs=return_outputs, num_items_in_batch=num_items_in_batch)


def mixes_samples(model: PreTrainedModel, device: str) -> str | None:
    """Why samples packed into one sequence would see each other in `model`, or None when they do not: a one-layer
    model of the same architecture and attention implementation scores two random samples packed and alone."""
    config = model.config.__class__.from_dict(model.config.to_dict())
    config.num_hidden_layers = 1
    if isinstance(getattr(config, "layer_types", None), list):
        config.layer_types = config.layer_types[:1]
    config.vocab_size = _PROBE_VOCABULARY
    implementation = model.config._attn_implementation
    torch.manual_seed(0)
    probe = AutoModelForCausalLM.from_config(config, attn_implementation=implementation, dtype=model.dtype)
    probe.to(device).eval()
    samples = [torch.randint(0, _PROBE_VOCABULARY, (length,), device=device) for length in _PROBE_LENGTHS]
    positions = torch.cat([torch.arange(length, device=device) for length in _PROBE_LENGTHS])
    with torch.no_grad():  # without a cache, as in training: transformers looks for packed samples only then
        alone = probe(input_ids=samples[1][None], use_cache=False).logits[0].float()
        packed = probe(input_ids=torch.cat(samples)[None], position_ids=positions[None], use_cache=False)
        packed = packed.logits[0].float()
    gap = (packed[_PROBE_LENGTHS[0] :] - alone).abs().max().item()
    if gap <= PROBE_TOLERANCE.get(model.dtype, 1e-2):
        return None
    return (
        f"{type(model).__name__} with {implementation} attention lets packed samples attend to each other "
        f"(a packed sample's logits differ from the same sample's alone by {gap:.3g})"
    )
