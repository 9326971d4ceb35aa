"""Semantic search over a dataset's prompts: their vectors, indexed as a background task, then searched; the same
index finds the semantic duplicates of an audit or a deduplication.

A dataset's index is named after what it embeds (its content, its format and its prompt column: datasets/vectors.py),
so a search is answered only by an up-to-date one, never by vectors of rows the dataset no longer has. Its vectors
go with the dataset, and when its prompt column is mapped anew (`forget`).
"""

from training_platform.common.progress import ProgressCallback
from training_platform.datafiles.table import ROW, text_frame, with_text
from training_platform.datasets.reading import DatasetReader
from training_platform.datasets.vectors import Embedder, SearchHit, SemanticIndex, VectorStore
from training_platform.db.tables import DatasetTask, RegisteredDataset
from training_platform.errors import ConflictError
from training_platform.tasks import TaskRunner


class SemanticSearch:
    def __init__(self, reader: DatasetReader, vectors: VectorStore, embedder: Embedder, tasks: TaskRunner):
        self.reader = reader
        self.vectors = vectors
        self.embedder = embedder
        self.tasks = tasks

    def close(self) -> None:
        self.vectors.close()

    def index_of(self, dataset: RegisteredDataset) -> SemanticIndex:
        prompt = dataset.field_mapping.get("prompt", "prompt")
        content = f"{dataset.content_hash or dataset.id}:{dataset.preset or 'platform'}:{prompt}"
        return SemanticIndex(self.vectors, self.embedder, _collection(dataset), content)

    def start_index(self, dataset: RegisteredDataset) -> DatasetTask:
        def work(progress: ProgressCallback) -> dict:
            rows, texts = self._prompts(dataset)
            built = self.index_of(dataset).ensure(rows, texts, progress)
            return {"rows": len(rows), "built": built, "model": self.embedder.model_name}

        return self.tasks.submit(dataset.id, "index", {}, work)

    def index_ready(self, dataset: RegisteredDataset) -> bool:
        return self.index_of(dataset).ready

    def search(self, dataset: RegisteredDataset, query: str, top_k: int) -> list[SearchHit]:
        index = self.index_of(dataset)
        if not index.ready:
            raise ConflictError(
                f"dataset '{dataset.name}' has no up-to-date vector index; build it first "
                f"(POST /api/v1/datasets/{dataset.name}/index or `tplat datasets index {dataset.name}`)"
            )
        return index.search(query, top_k)

    def forget(self, dataset: RegisteredDataset) -> None:
        """Every index of the dataset, current or stale."""
        self.vectors.drop_prefixed(_collection(dataset))

    def _prompts(self, dataset: RegisteredDataset) -> tuple[list[int], list[str]]:
        texts = text_frame(self.reader.table(dataset).frame, dataset.kind)
        present = with_text(texts, "prompt")
        return present[ROW].to_list(), present["prompt"].to_list()


def _collection(dataset: RegisteredDataset) -> str:
    return f"dataset_{dataset.id}"
