"""A merge run by mergekit as a library, reporting tensors written of the total: the result is mergekit's own,
since its `run_merge` does the whole merge; the price is a hook into its internals for the progress, which
`run_merge` does not report (it takes no callback, only a tqdm bar on the terminal).

The hook: `run_merge` builds a `mergekit.graph.Executor` by the name it imported into `mergekit.merge`, and iterates
`Executor.run`, which yields each target (a tensor saved, the finished model, the tokenizer) once computed. For the
duration of one call that name is bound to a subclass whose `run` counts those yields against the targets' count;
the count reaching the total at the end is checked, so a mergekit that stops building its executor that way fails
loudly rather than merging without progress. Rebinding a module's name is process-wide: a surgery process runs one
merge at a time.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import mergekit.merge
from mergekit.config import MergeConfiguration
from mergekit.graph import Executor
from mergekit.options import MergeOptions

from training_platform.contract.surgery import MergeParams
from training_platform.merging.recipe import to_mergekit


class _Tally:
    def __init__(self) -> None:
        self.done = 0
        self.total: int | None = None


def run_merge_with_progress(
    params: MergeParams,
    target: Path,
    progress: Callable[[int, int], None],
    cuda: bool = False,
    out_shard_bytes: int = 2**30,
) -> None:
    """Merge into `target` as `mergekit-yaml` would with the same recipe and --random-seed, calling
    `progress(done, total)` as targets complete. `out_shard_bytes` bounds the output shard mergekit holds in
    memory before writing it (its default is 5 GB)."""
    config = MergeConfiguration.model_validate(to_mergekit(params))
    options = MergeOptions(
        copy_tokenizer=True,
        out_shard_size=out_shard_bytes,
        random_seed=params.random_seed,
        cuda=cuda,
        quiet=True,
        write_model_card=True,
        lazy_unpickle=False,
    )
    with _counted_executor(progress) as tally:
        mergekit.merge.run_merge(config, str(target), options)
    if tally.total is None or tally.done != tally.total:
        raise RuntimeError(
            f"mergekit's executor reported {tally.done} of {tally.total} targets: the progress hook no longer "
            "matches how mergekit.merge.run_merge runs its graph"
        )


@contextmanager
def _counted_executor(progress: Callable[[int, int], None]) -> Iterator[_Tally]:
    tally = _Tally()

    class CountingExecutor(Executor):
        def run(self, quiet: bool = False, desc: str | None = None):
            tally.total = len(set(self.targets))  # equal tasks share one handle, and are yielded once
            progress(0, tally.total)
            for item in super().run(quiet=quiet, desc=desc):
                tally.done += 1
                progress(tally.done, tally.total)
                yield item

    original = mergekit.merge.Executor
    mergekit.merge.Executor = CountingExecutor
    try:
        yield tally
    finally:
        mergekit.merge.Executor = original
