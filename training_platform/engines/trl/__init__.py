"""The TRL engine: SFT, DPO, GRPO and GSPO with TRL's trainers, on CPU, CUDA or Apple MPS."""
