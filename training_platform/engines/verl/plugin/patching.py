"""What the plugin's patches share: patching a module of verl or vLLM once it is imported, and finding the verl
trainer whose fit() loop made a call (the patches wrap functions verl's trainers call from that loop)."""

import importlib.abc
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType


def after_import(module_name: str, patch: Callable[[ModuleType], None]) -> None:
    """Run `patch` on a module once it is imported: now if it already is, else right after its first import.
    Patching lazily keeps verl's and vLLM's heavy modules out of the processes that never use them."""
    if module_name in sys.modules:
        patch(sys.modules[module_name])
        return

    class PatchAfterImport(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != module_name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                patch(module)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, PatchAfterImport())


def calling_trainer():
    """The trainer whose fit() loop made the current call (verl 0.9.1: SFTTrainer.fit → train_batch and
    Tracking.log; the PPO v1 trainer's fit → Tracking.log)."""
    return _fit_loop_locals(sys._getframe(2)).get("self")


def fit_locals() -> dict:
    """The local variables of the trainer's fit() loop this call came from (verl 0.9.1's SFT trainer keeps its
    step in `global_step`); empty when the call did not come from one."""
    return _fit_loop_locals(sys._getframe(2))


def _fit_loop_locals(frame) -> dict:
    """The local variables of the first frame, from `frame` outwards, that runs a trainer's fit() loop (a `fit`
    whose `self` counts its training steps); empty when there is none."""
    while frame is not None:
        if frame.f_code.co_name == "fit" and hasattr(frame.f_locals.get("self"), "total_training_steps"):
            return frame.f_locals
        frame = frame.f_back
    return {}
