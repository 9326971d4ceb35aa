"""The verl engine: SFT (torchrun) and PPO / GRPO / GSPO (Ray) with verl 0.9.1, without forking or patching it.

Optional: install with the `verl` extra. Nothing in this package imports verl at import time.
"""
