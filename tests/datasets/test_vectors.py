"""Semantic search and deduplication with the real MiniLM model and Milvus Lite (an embedded file)."""

import socket
import subprocess
import sys

import pytest

from benchmarks.datasets.paraphrases import PARAPHRASES, RELATED, cosines, separation
from tests.datasets.files import clean_sft_rows, write_jsonl
from tests.datasets.test_service import upload, wait
from tests.support.helpers import free_port, wait_until
from training_platform.datafiles.formats import schema_for
from training_platform.datafiles.table import load_table
from training_platform.datasets.audit import SEMANTIC_THRESHOLD, AuditOptions, audit_table
from training_platform.datasets.schemas import DedupRequest
from training_platform.datasets.tokens import token_counter
from training_platform.datasets.vectors import Embedder, SemanticIndex, VectorStore

SLEEP = ["How can I get better sleep at night?", "What are good ways to improve the quality of my sleep?"]
SEASONS = "What causes the seasons to change on Earth?"


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """Loaded once for the session; one torch thread (the machine's other core runs the rest of the suite)."""
    return Embedder(batch_size=64, cpu_threads=1)


def rows_with(*prompts: str) -> list[dict]:
    return clean_sft_rows() + [{**clean_sft_rows()[0], "prompt": prompt} for prompt in prompts]


def semantic_audit(path, embedder, tmp_path, threshold: float):
    index = SemanticIndex(VectorStore(str(tmp_path / "vectors" / "milvus.db")), embedder, "audit", content=str(path))
    options = AuditOptions(semantic=True, semantic_threshold=threshold)
    try:
        return audit_table(load_table(path), "sft", schema_for("sft"), options, token_counter(None), index)
    finally:
        index.store.close()


def test_semantic_audit_finds_a_planted_paraphrase_and_nothing_on_a_clean_set(tmp_path, embedder):
    clean = semantic_audit(write_jsonl(tmp_path / "clean.jsonl", clean_sft_rows()), embedder, tmp_path / "a", 0.8)
    assert clean.findings == []
    planted = semantic_audit(
        write_jsonl(tmp_path / "p.jsonl", rows_with(SLEEP[0], SEASONS, SLEEP[1])), embedder, tmp_path / "b", 0.8
    )
    [finding] = planted.findings
    assert finding.kind == "semantic_duplicate" and finding.rows == [25, 27]
    assert finding.details["lowest_similarity"] >= 0.8 and "MiniLM" in finding.details["model"]


def test_search_returns_a_paraphrase_and_dedup_writes_a_version(platform, tmp_path, embedder):
    platform.datasets.embedder = embedder
    # Row 28 is row 25 again: a semantic dedup removes exact duplicates too, whatever the index links.
    upload(platform, write_jsonl(tmp_path / "chat.jsonl", rows_with(SEASONS, *SLEEP, SEASONS)), "chat")
    assert not platform.datasets.index_ready("chat")
    task = wait(platform, "chat", platform.datasets.start_index("chat"))
    assert task.status == "completed" and task.result["rows"] == 28 and platform.datasets.index_ready("chat")
    assert (platform.settings.home / "vectors" / "milvus.db").is_dir()  # embedded Milvus Lite under the home
    hits = platform.datasets.search("chat", "Why does our planet have summer and winter?", top_k=3)
    assert SEASONS in [hit.text for hit in hits] and hits[0].score >= hits[-1].score

    task = wait(platform, "chat", platform.datasets.start_dedup("chat", DedupRequest(threshold=0.8)))
    assert task.status == "completed", task.error
    assert (task.result["removed"], task.result["groups"]) == (2, 2)
    version = platform.datasets.get("chat-dedup")
    assert version.num_rows == 26 and version.derivation == "dedup semantic threshold 0.8: kept 26 of 28"
    rows = platform.datasets.rows("chat-dedup", offset=24, limit=5).rows
    assert [r.data["prompt"] for r in rows] == [SEASONS, SLEEP[0]]


@pytest.fixture
def milvus_server(tmp_path):
    """Milvus Lite's own gRPC server on a loopback port: the platform reaches it by URI, as it would a Milvus."""
    port = free_port()
    command = [sys.executable, "-m", "milvus_lite", "server", "--data-dir", str(tmp_path / "milvus")]
    process = subprocess.Popen([*command, "--host", "127.0.0.1", "--port", str(port)], start_new_session=True)
    uri = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _accepts(port) or process.poll() is not None, timeout=60, message="milvus server")
        assert process.poll() is None, "the Milvus Lite server exited"
        yield uri
    finally:
        process.terminate()
        process.wait(timeout=30)


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_milvus_server_by_uri_serves_the_same_calls(milvus_server, embedder):
    store = VectorStore(milvus_server)
    index = SemanticIndex(store, embedder, "dataset_remote", content="rows")
    prompts = [row["prompt"] for row in rows_with(SEASONS)]
    try:
        assert index.ensure(list(range(1, len(prompts) + 1)), prompts) and index.ready
        assert SEASONS in [hit.text for hit in index.search("Why does our planet have summer and winter?", 3)]
        assert not index.ensure([], [])  # up to date: nothing rebuilt
    finally:
        store.drop_prefixed("dataset_remote")
        store.close()


def test_the_default_semantic_threshold_separates_paraphrases_as_docs_state(embedder):
    """The pairs and figures of docs/datasets.md: the issue's pair (0.8995) is a duplicate at the default; of the
    pairs over it 84% are paraphrases, and 21 of the 22 paraphrases are over it."""
    paraphrases, related = cosines(embedder, PARAPHRASES), cosines(embedder, RELATED)
    default = AuditOptions().semantic_threshold
    assert DedupRequest().threshold is None and default == SEMANTIC_THRESHOLD
    assert paraphrases[0] == pytest.approx(0.8995, abs=1e-3) and paraphrases[0] >= default
    result = separation(paraphrases, related, default)
    assert (round(result.precision, 2), round(result.recall, 3)) == (0.84, 0.955), result
    # The old default, 0.9, found a third of them.
    assert separation(paraphrases, related, 0.9).recall < 0.35
