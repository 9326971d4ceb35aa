"""Alert targets and the delivery of events to them (docs/alerts.md).

`notify` only writes the outbox (one row per matching target, the same event twice is one row) and wakes the
delivery worker; the worker sends what is due, records every attempt, and retries a failure with an exponential
backoff until `max_attempts`. Everything it has still to do is in the database, so a restarted server delivers
what the last one left pending. Delivery is at least once (a server that dies between a receiver's answer and
the write of it sends again after the row's lease): receivers drop repeats by the `Idempotency-Key` header.
"""

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import httpx

from training_platform import __version__
from training_platform.alerts import formats
from training_platform.alerts.schemas import (
    AlertEvent,
    AlertTargetCreate,
    AlertTargetRead,
    AlertTargetUpdate,
    AttemptRead,
    DeliveryRead,
    DeliveryStatus,
)
from training_platform.alerts.store import AlertStore
from training_platform.common.backoff import retry_delay
from training_platform.common.destinations import Destinations
from training_platform.db.tables import AlertAttempt, AlertOutbox, AlertTarget, Job
from training_platform.db.types import utcnow
from training_platform.errors import FieldError, InvalidInputError, NotFoundError

log = logging.getLogger(__name__)

SCHEMES = ("http", "https")
BATCH = 100  # due rows taken per pass; the worker comes straight back for more
SENDERS = 4  # requests in flight at once: a target that hangs until the timeout does not hold up the others
IDLE_SECONDS = 300.0  # the longest the worker sleeps: a safety net, since notify wakes it
LEASE_MARGIN_SECONDS = 60.0  # a claimed row is due again this long after its request would have timed out
# Of a 2xx answer, read to learn whether Feishu refused the message: its JSON `code` is short. Nothing of an answer's
# body is kept (docs/security.md, "Alert targets"): only its status code, and Feishu's refusal code.
ANSWER_BYTES = 64 * 1024
ERROR_CHARS = 500


def url_problem(url: str) -> str | None:
    """Why `url` cannot be a webhook, or None. The messages never repeat the URL: it may be a secret."""
    if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in url):
        return "must not contain spaces or control characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (parsing the port is what raises on a bad one)
    except ValueError as error:
        return f"is not a valid URL ({error})"
    if parts.scheme not in SCHEMES:
        return f"must be an http or https URL, not {parts.scheme + ':' if parts.scheme else 'one without a scheme'}"
    if not parts.hostname:
        return "must name a host (http(s)://host/…)"
    try:
        httpx.URL(url)
    except httpx.InvalidURL as error:
        return f"is not a valid URL ({error})"
    return None


def redact_url(url: str) -> str:
    """scheme://host[:port]/… : Slack's and Feishu's webhook URLs carry their credential in the path."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return "…"
    if not host:
        return "…"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}/…"


@dataclass(frozen=True)
class _Answer:
    attempted_at: datetime
    status_code: int | None
    error: str | None  # None: delivered
    duration_ms: float
    retry_after: float | None


class AlertService:
    def __init__(
        self,
        store: AlertStore,
        find_job: Callable[[str], Job],
        base_url: str = "",
        timeout_seconds: float = 10.0,
        max_attempts: int = 15,
        backoff_base_seconds: float = 1.0,
        backoff_max_seconds: float = 600.0,
        transport: httpx.BaseTransport | None = None,
        allowed_networks: Iterable[str] = (),
    ):
        self.store = store
        self.find_job = find_job
        self.base_url = base_url  # what the links in alerts start with (the server's URL)
        self.timeout_seconds = timeout_seconds
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base_seconds
        self.backoff_max = backoff_max_seconds
        self._lease = timedelta(seconds=timeout_seconds + LEASE_MARGIN_SECONDS)
        self.destinations = Destinations(allowed_networks, "webhooks", "PLATFORM_ALERT_ALLOWED_NETWORKS")
        # Redirects are not followed: a webhook answers where it is, and a redirect would take the event (and,
        # for generic targets, whatever the URL's query carried) to an address nobody configured. No connection is
        # kept open: each request goes to the address checked for it (common/destinations.py), and a kept TLS
        # connection could carry a request for another name on the same address.
        self._client = httpx.Client(
            timeout=timeout_seconds,
            follow_redirects=False,
            transport=transport,
            limits=httpx.Limits(max_keepalive_connections=0),
            headers={"User-Agent": f"training-platform/{__version__}"},
        )
        self._senders = ThreadPoolExecutor(max_workers=SENDERS, thread_name_prefix="alert-send")
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None

    # ---- targets -------------------------------------------------------------------------------------------------

    def create_target(self, request: AlertTargetCreate) -> AlertTargetRead:
        errors = []
        if problem := url_problem(request.url) or self.destinations.url_problem(request.url):
            errors.append(FieldError("url", problem))
        job_id = None
        if request.job is not None:
            try:
                job_id = self.find_job(request.job).id
            except NotFoundError as error:
                errors.append(FieldError("job", str(error)))
        if errors:
            raise InvalidInputError(errors)
        target = AlertTarget(
            id=uuid.uuid4().hex,
            name=request.name,
            job_id=job_id,
            format=request.format,
            url=request.url,
            severities=_unique(request.severities),
            kinds=_unique(request.kinds),
            enabled=request.enabled,
        )
        return _target_read(self.store.add_target(target))

    def list_targets(self, job: str | None = None) -> list[AlertTargetRead]:
        job_id = self.find_job(job).id if job is not None else None
        return [_target_read(target) for target in self.store.targets(job_id)]

    def get_target(self, name_or_id: str) -> AlertTargetRead:
        return _target_read(self.store.find_target(name_or_id))

    def update_target(self, name_or_id: str, request: AlertTargetUpdate) -> AlertTargetRead:
        target = self.store.find_target(name_or_id)
        fields = request.model_dump(exclude_none=True)
        for name in ("severities", "kinds"):
            if name in fields:
                fields[name] = _unique(fields[name])
        return _target_read(self.store.update_target(target.id, **fields))

    def delete_target(self, name_or_id: str) -> None:
        self.store.delete_target(self.store.find_target(name_or_id).id)

    def deliveries(
        self, name_or_id: str, statuses: Iterable[DeliveryStatus] = (), limit: int = 100, offset: int = 0
    ) -> list[DeliveryRead]:
        target = self.store.find_target(name_or_id)
        return [
            _delivery_read(row, attempts) for row, attempts in self.store.deliveries(target.id, statuses, limit, offset)
        ]

    # ---- events --------------------------------------------------------------------------------------------------

    def notify(self, event: AlertEvent) -> int:
        """Queue `event` for every enabled target that wants it (every job's targets and the event's job's own,
        by severity and kind) and wake the worker; the number of deliveries queued. Sends nothing itself, so it
        is quick and never fails for a receiver's sake; an event key already queued for a target queues nothing."""
        targets = [
            target
            for target in self.store.enabled_targets_for(event.job_id)
            if event.severity in target.severities and (not target.kinds or event.kind in target.kinds)
        ]
        added = self.store.enqueue(
            [target.id for target in targets], event.event_key, event.model_dump(mode="json"), utcnow()
        )
        if added:
            self._wake.set()
        return len(added)

    def deliver_due(self) -> int:
        """Send every due delivery once (a few at a time); the number of attempts made."""
        due = self.store.due(utcnow(), BATCH)
        if not due:
            return 0
        return sum(self._senders.map(lambda pair: self._deliver(*pair), due))

    def test_send(self, name_or_id: str) -> AttemptRead:
        """Send a test event to the target now (disabled or not) and answer with what came of it; it is listed
        with the target's deliveries, and never retried."""
        target = self.store.find_target(name_or_id)
        job = None
        if target.job_id is not None:
            try:
                job = self.find_job(target.job_id)
            except NotFoundError:
                pass  # deleted meanwhile (its targets go with it)
        event = AlertEvent(
            event_key=f"test:{uuid.uuid4().hex}",
            job_id=job.id if job else None,
            job_name=job.name if job else None,
            kind="test",
            severity="info",
            title=f"Test alert for target {target.name}",
            message="The training platform can reach this webhook: its alerts will look like this one.",
            suggestions=[],
            url_path=f"/jobs/{job.name}" if job else None,
        )
        now = utcnow()
        row = self.store.add_claimed(target.id, event.event_key, event.model_dump(mode="json"), now, now + self._lease)
        return self._attempt(row, target, retry=False)

    # ---- the worker ----------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Deliver in the background from now on, beginning with what was pending when the last server stopped."""
        if self._worker is not None:
            return
        self._stopping.clear()
        self._wake.set()
        self._worker = threading.Thread(target=self._work, name="alert-delivery", daemon=True)
        self._worker.start()

    def close(self) -> None:
        """Stop the worker: what it has not sent stays pending for the next start."""
        self._stopping.set()
        self._wake.set()
        if self._worker is not None:
            self._worker.join(timeout=self.timeout_seconds + 5)
            self._worker = None
        self._senders.shutdown(wait=True, cancel_futures=True)
        self._client.close()

    def _work(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()  # before looking: a notify from now on makes the wait below return at once
            try:
                self.deliver_due()
                wait = self._until_next_due()
            except Exception:  # the database away, say: keep the worker, try again soon
                log.exception("delivering alerts failed; trying again")
                wait = min(IDLE_SECONDS, max(1.0, self.backoff_base))
            self._wake.wait(wait)

    def _until_next_due(self) -> float:
        due = self.store.next_due()
        if due is None:
            return IDLE_SECONDS
        return min(IDLE_SECONDS, max(0.0, (due - utcnow()).total_seconds()))

    def _deliver(self, row: AlertOutbox, target: AlertTarget) -> int:
        if self._stopping.is_set():
            return 0  # left pending, for the next start
        now = utcnow()
        if not self.store.claim(row, now, now + self._lease):
            return 0  # another deliverer took it
        self._attempt(row, target, retry=True)
        return 1

    def _attempt(self, row: AlertOutbox, target: AlertTarget, retry: bool) -> AttemptRead:
        """One request for a claimed row, recorded with what it leaves of the row."""
        answer = self._send(target, AlertEvent.model_validate(row.event))
        attempts = row.attempts + 1
        outcome: dict = {"attempts": attempts, "last_error": answer.error}
        if answer.error is None:
            outcome.update(status="delivered", delivered_at=utcnow())
        elif not retry or attempts >= self.max_attempts:
            outcome.update(status="failed")
            log.warning(
                "alert %s to target %s failed after %d attempt(s): %s",
                row.event_key,
                target.name,
                attempts,
                answer.error,
            )
        else:
            wait = retry_delay(attempts, self.backoff_base, self.backoff_max, answer.retry_after)
            outcome.update(next_attempt_at=utcnow() + timedelta(seconds=wait))
        attempt = AlertAttempt(
            outbox_id=row.id,
            attempted_at=answer.attempted_at,
            status_code=answer.status_code,
            error=answer.error,
            duration_ms=answer.duration_ms,
        )
        return _attempt_read(self.store.record(attempt, **outcome))

    def _send(self, target: AlertTarget, event: AlertEvent) -> _Answer:
        body = formats.render(target.format, event, self.base_url)
        attempted_at, started = utcnow(), time.monotonic()
        status_code = retry_after = None
        try:
            pinned = self.destinations.pin(target.url)
            headers = {**pinned.headers, "Idempotency-Key": event.event_key}
            with self._client.stream("POST", pinned.url, json=body, headers=headers, extensions=pinned.extensions) as r:
                status_code = r.status_code
                retry_after = _retry_after(r.headers.get("retry-after"))
                if 200 <= status_code < 300:
                    error = formats.refusal(target.format, _json_or_none(_read_some(r)))
                else:
                    error = f"HTTP {status_code}"
        except Exception as failure:  # noqa: BLE001 (whatever kept the request from being made is a failed attempt)
            error = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
        duration_ms = (time.monotonic() - started) * 1000
        if error is not None:
            error = error.replace(target.url, redact_url(target.url))[:ERROR_CHARS]
        return _Answer(attempted_at, status_code, error, duration_ms, retry_after)


def _read_some(response: httpx.Response) -> bytes:
    content = bytearray()
    for chunk in response.iter_bytes():
        content += chunk
        if len(content) >= ANSWER_BYTES:
            break
    return bytes(content[:ANSWER_BYTES])


def _retry_after(value: str | None) -> float | None:
    if value is None or not value.strip().isdigit():
        return None  # the HTTP-date form is not worth parsing here: the backoff goes on as it would
    return float(value.strip())


def _json_or_none(content: bytes):
    try:
        return json.loads(content)
    except ValueError:
        return None


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _target_read(target: AlertTarget) -> AlertTargetRead:
    return AlertTargetRead(
        id=target.id,
        name=target.name,
        job_id=target.job_id,
        format=target.format,
        url=redact_url(target.url),
        severities=target.severities,
        kinds=target.kinds,
        enabled=target.enabled,
        created_at=target.created_at,
    )


def _attempt_read(attempt: AlertAttempt) -> AttemptRead:
    return AttemptRead(
        id=attempt.id,
        outbox_id=attempt.outbox_id,
        attempted_at=attempt.attempted_at,
        status_code=attempt.status_code,
        error=attempt.error,
        duration_ms=attempt.duration_ms,
        ok=attempt.error is None,
    )


def _delivery_read(row: AlertOutbox, attempts: list[AlertAttempt]) -> DeliveryRead:
    event = row.event
    return DeliveryRead(
        id=row.id,
        target_id=row.target_id,
        event_key=row.event_key,
        kind=event.get("kind", ""),
        severity=event.get("severity", ""),
        title=event.get("title", ""),
        status=row.status,
        next_attempt_at=row.next_attempt_at if row.status == "pending" else None,
        last_error=row.last_error,
        created_at=row.created_at,
        delivered_at=row.delivered_at,
        attempts=[_attempt_read(attempt) for attempt in attempts],
    )
