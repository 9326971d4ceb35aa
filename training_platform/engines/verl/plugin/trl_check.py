"""Always applied: verl 0.9.1 takes "TRL is installed" to mean "TRL has AutoModelForCausalLMWithValueHead", which
TRL removed in 1.13 (the platform's TRL engine needs a current TRL), and crashes building any model; its check
(verl.utils.import_utils.is_trl_available) is narrowed to what it actually needs. No variable switches it."""

import functools
import importlib


def narrow_trl_check() -> None:
    from verl.utils import import_utils

    @functools.cache
    def trl_value_head_available() -> bool:
        for module in ("trl.experimental.ppo", "trl"):
            try:
                if hasattr(importlib.import_module(module), "AutoModelForCausalLMWithValueHead"):
                    return True
            except ImportError:
                continue
        return False

    import_utils.is_trl_available = trl_value_head_available
