"""Pipeline persistence: the pipelines and their stages' rows. A stage changes hands only by compare-and-set
(`swap`): the update names the status and the task it expects, and reports whether the row still matched."""

from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.tables import Pipeline, PipelineStage
from training_platform.errors import ConflictError, NotFoundError


class PipelineStore:
    def __init__(self, db: Database):
        self.db = db

    def add(self, pipeline: Pipeline, stages: list[PipelineStage]) -> Pipeline:
        with self.db.session() as session:
            session.add(pipeline)
            try:
                session.flush()
            except IntegrityError:
                raise ConflictError(f"a pipeline named '{pipeline.name}' exists") from None
            for stage in stages:
                stage.pipeline_id = pipeline.id
                session.add(stage)
            session.commit()
            session.refresh(pipeline)
            return pipeline

    def find(self, name_or_id: str) -> Pipeline:
        with self.db.session() as session:
            found = (
                session.get(Pipeline, name_or_id)
                or session.exec(select(Pipeline).where(Pipeline.name == name_or_id)).first()
            )
        if found is None:
            raise NotFoundError(f"no pipeline named '{name_or_id}'")
        return found

    def list_all(self, statuses: list[str] | None = None) -> list[Pipeline]:
        query = select(Pipeline).order_by(col(Pipeline.created_at).desc())
        if statuses:
            query = query.where(col(Pipeline.status).in_(statuses))
        with self.db.session() as session:
            return list(session.exec(query))

    def update(self, pipeline_id: str, **changes: Any) -> Pipeline:
        with self.db.session() as session:
            pipeline = session.get(Pipeline, pipeline_id)
            if pipeline is None:
                raise NotFoundError(f"pipeline {pipeline_id} was deleted")
            for key, value in changes.items():
                setattr(pipeline, key, value)
            session.add(pipeline)
            session.commit()
            session.refresh(pipeline)
            return pipeline

    def set_status(self, pipeline_id: str, expected: list[str], **changes: Any) -> bool:
        """Compare-and-set on the pipeline's status: whether it was one of `expected` (and is now changed)."""
        statement = (
            update(Pipeline)
            .where(col(Pipeline.id) == pipeline_id, col(Pipeline.status).in_(expected))
            .values(**changes)
        )
        with self.db.session() as session:
            changed = session.exec(statement).rowcount  # type: ignore[call-overload]
            session.commit()
        return changed == 1

    def delete(self, pipeline_id: str) -> None:
        with self.db.session() as session:
            for stage in session.exec(select(PipelineStage).where(PipelineStage.pipeline_id == pipeline_id)):
                session.delete(stage)
            pipeline = session.get(Pipeline, pipeline_id)
            if pipeline is not None:
                session.delete(pipeline)
            session.commit()

    def stages(self, pipeline_id: str) -> list[PipelineStage]:
        query = (
            select(PipelineStage).where(PipelineStage.pipeline_id == pipeline_id).order_by(col(PipelineStage.position))
        )
        with self.db.session() as session:
            return list(session.exec(query))

    def stage(self, pipeline_id: str, name: str) -> PipelineStage:
        query = select(PipelineStage).where(PipelineStage.pipeline_id == pipeline_id, PipelineStage.name == name)
        with self.db.session() as session:
            found = session.exec(query).first()
        if found is None:
            raise NotFoundError(f"the pipeline has no stage named '{name}'")
        return found

    def swap(self, stage_id: int, statuses: list[str], holder: str | None | object = ..., **changes: Any) -> bool:
        """Change a stage only if its status is one of `statuses` (and its task is `holder`, when given)."""
        conditions = [col(PipelineStage.id) == stage_id, col(PipelineStage.status).in_(statuses)]
        if holder is not ...:
            conditions.append(
                col(PipelineStage.task_id).is_(None) if holder is None else col(PipelineStage.task_id) == holder
            )
        with self.db.session() as session:
            changed = session.exec(update(PipelineStage).where(*conditions).values(**changes)).rowcount  # type: ignore[call-overload]
            session.commit()
        return changed == 1

    def replace_stages(self, pipeline_id: str, keep: dict[str, dict[str, Any]], add: list[PipelineStage]) -> None:
        """An edited definition: stages kept get their new columns, the others go, new ones are added."""
        with self.db.session() as session:
            for stage in session.exec(select(PipelineStage).where(PipelineStage.pipeline_id == pipeline_id)):
                if stage.name in keep:
                    for key, value in keep[stage.name].items():
                        setattr(stage, key, value)
                    session.add(stage)
                else:
                    session.delete(stage)
            for stage in add:
                stage.pipeline_id = pipeline_id
                session.add(stage)
            session.commit()
