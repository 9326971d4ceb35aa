"""What a change records once it succeeded (step 6 of the access checks, api/security.py)."""

import logging
from dataclasses import dataclass, field

from fastapi.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from training_platform.api.access import Access
from training_platform.api.ownership import Target
from training_platform.auth.schemas import Principal
from training_platform.auth.service import AuthService
from training_platform.common.changes import Change, collect

log = logging.getLogger(__name__)


@dataclass
class Decision:
    """A change allowed to go ahead, with what to record once it succeeded."""

    auth: AuthService
    principal: Principal
    access: Access
    targets: list[Target]
    client: str
    status: int = 0
    changes: list[Change] = field(default_factory=list)

    async def run(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        async def record_then_answer(message: Message) -> None:
            # Recorded before the answer starts: a client that acts on it (reads the audit log, changes what it
            # just created) finds the owner and the audit line already there.
            if message["type"] == "http.response.start":
                self.status = message["status"]
                if 200 <= self.status < 300:
                    await self._record()
            await send(message)

        with collect() as self.changes:
            await app(scope, receive, record_then_answer)

    async def _record(self) -> None:
        try:
            await run_in_threadpool(self.record)
        except Exception:  # the change is done; a lost audit line must not hide it
            log.exception("recording %s by %s failed", self.access.action, self.principal.name)

    def record(self) -> None:
        access, principal = self.access, self.principal
        created = [(c.id, c.name) for c in self.changes if access.creates and c.created and c.kind == access.kind]
        for resource_id, _name in created:
            self.auth.record_owner(access.kind, resource_id, principal)
        if access.deletes:
            for target in self.targets:
                if target.kind == access.kind:
                    self.auth.forget_owner(target.kind, target.id)
        if access.action is not None:
            self._audit_action(created)
        for change in self.changes:  # what became of a job: queued, started, resumed
            if not change.created:
                self.auth.audit(principal.name, change.action, change.kind, change.id, change.name, self.client)

    def _audit_action(self, created: list[tuple[str, str | None]]) -> None:
        access, principal = self.access, self.principal
        created_ids = {resource_id for resource_id, _name in created}
        sources = [f"{t.kind} {t.name}" for t in self.targets if t.id not in created_ids]
        detail = f"from {', '.join(sources)}" if created and sources else ""
        subjects = [(access.kind, resource_id, name) for resource_id, name in created] or [
            (target.kind, target.id, target.name) for target in self.targets
        ]
        if access.creates and not subjects:
            return  # a request that could create and created nothing (a dry run, an import of only skipped entries)
        for kind, resource_id, name in subjects or [(None, None, None)]:
            self.auth.audit(principal.name, access.action, kind, resource_id, name, self.client, detail)
