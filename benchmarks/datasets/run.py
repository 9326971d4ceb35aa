"""Datasets benchmarks: `python -m benchmarks.datasets.run` (or `make bench`).

(a) audit (format, empty fields, exact and near duplicates, length outliers; no semantic check) plus statistics
    (null rates, label counts, token-length histograms) of a generated 1,000,000-row SFT JSON Lines file, against
    a plain pandas implementation of the same checks (per-row MinHash with numpy, a dict of LSH buckets);
(b) embedding throughput of the MiniLM model, in rows per second.
Target (issue 6): audit + statistics of 1M rows in ≤ 20 s on a 2-core machine.
"""

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.report import print_table
from training_platform.common.worker import WorkerLimits
from training_platform.contract.data import DataFormat
from training_platform.datafiles.formats import schema_for
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.table import load_table
from training_platform.datasets.audit import AuditOptions, audit_table
from training_platform.datasets.decoding import Source, compute_stats, decoding_worker, run_audit
from training_platform.datasets.stats import dataset_stats
from training_platform.datasets.tokens import token_counter
from training_platform.datasets.vectors import Embedder
from training_platform.settings import Settings

ROWS = 1_000_000
NEAR_THRESHOLD = 0.8
BANDS, ROWS_PER_BAND = 8, 4


def write_sft_file(path: Path, rows: int, seed: int = 0) -> dict:
    """SFT rows with 1% planted exact duplicates, 1% near duplicates, 0.1% empty responses and 0.1% outliers."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    planted = {"exact": 0, "near": 0, "empty": 0, "long": 0}
    prompts: list[str] = []
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(rows):
            roll = rng.random()
            if prompts and roll < 0.01:
                prompt, planted["exact"] = rng.choice(prompts), planted["exact"] + 1
            elif prompts and roll < 0.02:
                prompt, planted["near"] = rng.choice(prompts).upper() + " ?", planted["near"] + 1
            else:
                prompt = " ".join(rng.choices(words, k=rng.randint(8, 30)))
                if index % 100 == 0:
                    prompts.append(prompt)
            response = " ".join(rng.choices(words, k=rng.randint(10, 60)))
            if roll > 0.999:
                response, planted["empty"] = "", planted["empty"] + 1
            elif roll > 0.998:
                response, planted["long"] = " ".join(rng.choices(words, k=3000)), planted["long"] + 1
            row = {"prompt": prompt, "response": response, "data_source": rng.choice(["math", "code", "chat"])}
            handle.write(json.dumps(row) + "\n")
    return planted


def bench_platform(path: Path) -> dict:
    started = time.perf_counter()
    table = load_table(path)
    counter = token_counter(None)
    report = audit_table(table, "sft", schema_for("sft"), AuditOptions(near_threshold=NEAR_THRESHOLD), counter)
    audited = time.perf_counter()
    stats = dataset_stats(table, "sft", ["data_source"], counter)
    finished = time.perf_counter()
    return _timings(started, audited, finished, report, stats)


def _timings(started: float, audited: float, finished: float, report, stats) -> dict:
    return {
        "seconds": finished - started,
        "audit_seconds": audited - started,
        "stats_seconds": finished - audited,
        "summary": report.summary,
        "lengths": len(stats.lengths),
    }


def bench_worker(path: Path) -> dict:
    """The same audit and statistics the way the server runs them: each a request of its own, in the decoding worker
    under the default limits (common/worker.py), the file read by each."""
    settings = Settings()
    worker = decoding_worker(
        WorkerLimits(
            settings.decode_memory_bytes,
            settings.decode_cpu_seconds,
            settings.decode_timeout_seconds,
            settings.decode_result_bytes,
        )
    )
    source = Source(path, ReadLimits())
    started = time.perf_counter()
    options = AuditOptions(near_threshold=NEAR_THRESHOLD)
    report, _ = worker.run(
        run_audit, source, DataFormat(), "sft", options, None, [], field="dataset", what="auditing",
        progress=lambda fraction, text: None,
    )  # fmt: skip
    audited = time.perf_counter()
    stats = worker.run(compute_stats, source, DataFormat(), "sft", ["data_source"], None, 20, field="d", what="stats")
    finished = time.perf_counter()
    worker.close()
    return _timings(started, audited, finished, report, stats)


# ---- the baseline: the same checks, the way a plain pandas script does them -------------------------------


def _minhash(text: str, multipliers: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    words = "".join(c if c.isalnum() or c == "_" else " " for c in text.lower()).split()
    shingles = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)] or words
    hashes = np.array([hash(s) & 0xFFFFFFFFFFFFFFFF for s in shingles], dtype=np.uint64)
    return ((np.outer(hashes, multipliers) + offsets) >> np.uint64(32)).min(axis=0).astype(np.uint32)


def bench_pandas(path: Path) -> dict:
    started = time.perf_counter()
    frame = pd.read_json(path, lines=True)
    counts = {}
    for field in ("prompt", "response"):
        counts[f"empty {field}"] = int((frame[field].isna() | (frame[field].str.strip() == "")).sum())
    counts["exact"] = int(frame["prompt"].duplicated(keep=False).sum())
    generator = np.random.default_rng(0)
    multipliers = generator.integers(1, 2**63, BANDS * ROWS_PER_BAND, dtype=np.uint64) | np.uint64(1)
    offsets = generator.integers(0, 2**63, BANDS * ROWS_PER_BAND, dtype=np.uint64)
    signatures = np.stack(frame["prompt"].map(lambda t: _minhash(t, multipliers, offsets)).to_list())
    buckets: dict[tuple, list[int]] = defaultdict(list)
    for index, signature in enumerate(signatures):
        for band in range(BANDS):
            buckets[(band, signature[band * ROWS_PER_BAND : (band + 1) * ROWS_PER_BAND].tobytes())].append(index)
    near = set()
    for members in buckets.values():
        for other in members[1:]:
            if (signatures[members[0]] == signatures[other]).mean() >= NEAR_THRESHOLD:
                near.update((members[0], other))
    counts["near"] = len(near)
    for field in ("prompt", "response"):
        texts = frame[field].fillna("")
        tokens = np.log1p(texts[texts.str.strip() != ""].str.split().str.len())
        q1, q3 = tokens.quantile([0.25, 0.75])
        spread = max(q3 - q1, 0.25)
        counts[f"outliers {field}"] = int(((tokens < q1 - 3 * spread) | (tokens > q3 + 3 * spread)).sum())
        np.histogram(np.expm1(tokens), bins=20)
    frame.isna().mean()
    frame["data_source"].value_counts()
    return {"seconds": time.perf_counter() - started, "counts": counts}


def bench_embeddings(rows: int, batch_size: int = 64, threads: int = 1) -> dict:
    rng = random.Random(1)
    topics = ["sleep", "taxes", "volcanoes", "recipes", "sorting", "gardens", "planets", "music", "trains"]
    texts = [f"How do I learn about {rng.choice(topics)} in {rng.randint(1, 99)} simple steps?" for _ in range(rows)]
    embedder = Embedder(batch_size, threads)
    embedder.embed(texts[:batch_size])  # load the model outside the timing
    started = time.perf_counter()
    vectors = embedder.embed(texts)
    seconds = time.perf_counter() - started
    return {"rows": rows, "rows_per_second": rows / seconds, "dimension": vectors.shape[1], "threads": threads}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--embedding-rows", type=int, default=2000)
    parser.add_argument("--only", choices=["audit", "embeddings"], action="append")
    args = parser.parse_args()
    chosen = set(args.only or ["audit", "embeddings"])
    table_rows = []
    with tempfile.TemporaryDirectory() as workdir:
        if "audit" in chosen:
            path = Path(workdir) / "sft.jsonl"
            planted = write_sft_file(path, args.rows)
            ours = bench_platform(path)
            print(f"platform: {ours}\nplanted: {planted}", file=sys.stderr)
            limited = bench_worker(path)
            print(f"worker: {limited}", file=sys.stderr)
            baseline = bench_pandas(path)
            print(f"pandas: {baseline}", file=sys.stderr)
            table_rows.append(
                (
                    f"audit + statistics, {args.rows:,}-row SFT JSONL",
                    f"{ours['seconds']:.1f} s (audit {ours['audit_seconds']:.1f}, stats {ours['stats_seconds']:.1f})",
                    f"{baseline['seconds']:.1f} s (pandas, per-row MinHash)",
                    f"{baseline['seconds'] / ours['seconds']:.1f}x",
                    "≤ 20 s",
                )
            )
            table_rows.append(
                (
                    "the same, as the server runs them: two requests in the decoding worker",
                    f"{limited['seconds']:.1f} s (audit {limited['audit_seconds']:.1f}, "
                    f"stats {limited['stats_seconds']:.1f})",
                    f"{ours['seconds']:.1f} s (in-process, one read)",
                    f"{ours['seconds'] / limited['seconds']:.2f}x",
                    "same summary",
                )
            )
            assert limited["summary"] == ours["summary"], (limited["summary"], ours["summary"])
    if "embeddings" in chosen:
        result = bench_embeddings(args.embedding_rows)
        table_rows.append(
            (
                f"embeddings, all-MiniLM-L6-v2, {result['rows']:,} short prompts, {result['threads']} thread",
                f"{result['rows_per_second']:,.0f} rows/s",
                "-",
                "-",
                "-",
            )
        )
    print_table(table_rows)


if __name__ == "__main__":
    main()
