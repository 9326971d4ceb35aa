"""Imported first, and only, by the decoding worker's fork server (common/worker.py), before any decoding library:
what those libraries read from the environment at import, so that each limited child runs on few threads and a
system allocator; then pyarrow, which every child sets up before it starts (so no child pays for its import).
Never imported by the server itself, whose environment the training processes inherit."""

import os

# Arrow's own allocators (jemalloc, mimalloc) reserve address space in large chunks: under RLIMIT_AS the system
# allocator fails the allocation that is over the budget, as a MemoryError, instead of an early reservation.
os.environ["ARROW_DEFAULT_MEMORY_POOL"] = "system"
# Thread pools: every thread's stack and malloc arena take address space, and RLIMIT_CPU counts them all together.
os.environ["POLARS_MAX_THREADS"] = "2"
os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"
os.environ["OMP_NUM_THREADS"] = "1"

import pyarrow  # noqa: E402, F401 - after the environment it reads
