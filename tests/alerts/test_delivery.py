"""Delivery from the outbox to a real HTTP receiver on loopback, on SQLite and PostgreSQL: retries until a 2xx,
every attempt recorded, each event once per target, nothing lost across a restart."""

import socket
import threading

import pytest
from pydantic import ValidationError

from tests.alerts.support import Receiver, event, fails_first
from tests.support.helpers import wait_until
from tests.support.jobs import add_job
from training_platform.alerts.schemas import AlertTargetCreate, AlertTargetUpdate
from training_platform.alerts.service import redact_url, url_problem
from training_platform.common.backoff import retry_delay
from training_platform.errors import ConflictError, InvalidInputError, NotFoundError
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.settings import Settings

WAIT = 30  # seconds: a deadline for conditions that hold within milliseconds


def target(service, url: str, name: str = "ops", **fields):
    return service.create_target(AlertTargetCreate(name=name, url=url, **fields))


def settled(service, target_name: str, count: int = 1):
    """The target's deliveries once `count` of them are no longer pending."""

    def done():
        rows = service.deliveries(target_name)
        return rows if len([r for r in rows if r.status != "pending"]) >= count else None

    return wait_until(done, WAIT, interval=0.02, message=f"{count} settled deliveries")


def test_a_failing_receiver_gets_the_event_once_after_retries_and_every_attempt_is_recorded(make_service, receiver):
    service = make_service()
    target(service, f"{receiver.url}/hooks/ops")
    service.start()
    assert service.notify(event("finding:7:critical")) == 1
    [delivery] = settled(service, "ops")
    assert delivery.status == "delivered" and delivery.delivered_at is not None and delivery.last_error is None
    assert [a.status_code for a in delivery.attempts] == [500, 500, 200]
    assert [a.ok for a in delivery.attempts] == [False, False, True]
    assert delivery.attempts[0].error == "HTTP 500" and all(a.duration_ms >= 0 for a in delivery.attempts)
    assert [r.status for r in receiver.requests] == [500, 500, 200]
    assert {r.key for r in receiver.requests} == {"finding:7:critical"}  # the Idempotency-Key, every time
    assert [r.path for r in receiver.accepted()] == ["/hooks/ops"]
    assert receiver.accepted()[0].body["event_key"] == "finding:7:critical"


def test_every_event_reaches_every_matching_target_exactly_once(make_service, receiver):
    service = make_service()
    target(service, f"{receiver.url}/a", name="a")
    target(service, f"{receiver.url}/b", name="b", format="slack")
    service.start()
    keys = [f"finding:{n}:warning" for n in range(5)]
    for key in keys:
        assert service.notify(event(key, severity="warning")) == 2
    settled(service, "a", len(keys))
    settled(service, "b", len(keys))
    accepted = sorted((r.path, r.key) for r in receiver.accepted())
    assert accepted == sorted((path, key) for path in ("/a", "/b") for key in keys)
    assert len(receiver.requests) == 3 * 2 * len(keys)  # two 500s before each 200


def test_announcing_the_same_event_twice_sends_it_once(make_service):
    receiver = Receiver()
    try:
        service = make_service()
        target(service, receiver.url)
        assert service.notify(event("finding:3:critical")) == 1
        assert service.notify(event("finding:3:critical", message="said again")) == 0
        service.start()
        settled(service, "ops")
        assert service.notify(event("finding:3:critical")) == 0  # delivered: still nothing more
        assert service.deliver_due() == 0
        assert [r.key for r in receiver.requests] == ["finding:3:critical"]
        assert receiver.requests[0].body["message"] == "loss is NaN at step 12."
    finally:
        receiver.close()


def test_the_outbox_survives_a_restart(make_service, receiver):
    before = make_service()  # a server that queued the event and stopped before sending it
    target(before, receiver.url)
    assert before.notify(event("finding:9:critical")) == 1
    before.close()
    assert receiver.requests == []
    after = make_service()
    after.start()  # what was pending goes out at start, through the same retries
    [delivery] = settled(after, "ops")
    assert delivery.status == "delivered" and len(delivery.attempts) == 3
    assert [r.key for r in receiver.accepted()] == ["finding:9:critical"]


def test_two_deliverers_on_one_database_never_send_an_attempt_twice(make_service):
    receiver = Receiver()
    try:
        first, second = make_service(), make_service()
        target(first, receiver.url)
        keys = [f"finding:{n}:critical" for n in range(20)]
        for key in keys:
            first.notify(event(key))
        first.start()
        second.start()
        settled(first, "ops", len(keys))
        assert sorted(r.key for r in receiver.requests) == sorted(keys)
    finally:
        receiver.close()


def test_a_delivery_that_never_succeeds_fails_after_max_attempts(make_service):
    receiver = Receiver(fails_first(1000, status=503))
    try:
        service = make_service(max_attempts=3)
        target(service, receiver.url)
        service.start()
        service.notify(event())
        [delivery] = settled(service, "ops")
        assert delivery.status == "failed" and delivery.next_attempt_at is None
        assert [a.status_code for a in delivery.attempts] == [503, 503, 503]
        assert delivery.last_error == "HTTP 503"
        assert service.deliver_due() == 0 and len(receiver.requests) == 3
    finally:
        receiver.close()


def test_connection_errors_and_timeouts_are_retried(make_service, receiver):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}/secret-token"
    release = threading.Event()
    slow = Receiver(lambda before, _r: (release.wait(WAIT), (200, b"ok"))[1] if before == 0 else (200, b"ok"))
    try:
        service = make_service(max_attempts=3, timeout_seconds=1.0)
        target(service, closed, name="closed")
        target(service, slow.url, name="slow")
        service.start()
        service.notify(event())
        [refused] = settled(service, "closed")
        assert refused.status == "failed" and [a.status_code for a in refused.attempts] == [None, None, None]
        assert refused.attempts[0].error.startswith("ConnectError")
        assert "secret-token" not in refused.last_error
        [timed_out] = settled(service, "slow")
        release.set()
        assert timed_out.status == "delivered"
        assert timed_out.attempts[0].error.startswith("ReadTimeout") and timed_out.attempts[-1].status_code == 200
    finally:
        release.set()
        slow.close()


def test_targets_get_the_severities_kinds_and_jobs_they_ask_for(make_service, db, tmp_path):
    jobs = JobStore(db)
    job, other = add_job(jobs, tmp_path), add_job(jobs, tmp_path)
    service = make_service()
    url = "http://127.0.0.1:9/hook"
    target(service, url, name="everything")  # warning and critical of every job
    target(service, url, name="nan-only", kinds=["non_finite"])
    target(service, url, name="one-job", job=job.name, severities=["info", "warning", "critical"])
    target(service, url, name="off", enabled=False)
    queued = {
        "critical nan of the job": service.notify(event("a", job_id=job.id)),
        "info of the job": service.notify(event("b", job_id=job.id, severity="info", kind="loss_plateau")),
        "warning of another job": service.notify(event("c", job_id=other.id, severity="warning", kind="kl_explosion")),
        "info of another job": service.notify(event("d", job_id=other.id, severity="info")),
    }
    assert queued == {
        "critical nan of the job": 3,
        "info of the job": 1,
        "warning of another job": 1,
        "info of another job": 0,
    }
    assert [t.name for t in service.list_targets(job.name)] == ["one-job"]
    service.update_target("off", AlertTargetUpdate(enabled=True, kinds=["kl_explosion", "kl_explosion"]))
    assert service.get_target("off").kinds == ["kl_explosion"]
    assert service.notify(event("e", job_id=other.id, severity="warning", kind="kl_explosion")) == 2
    jobs.delete(job.id, unless_status=JobStatus.RUNNING)
    assert "one-job" not in [t.name for t in service.list_targets()]  # a job's targets go with it


def test_a_test_send_answers_with_its_attempt_and_is_listed(make_service, receiver, db, tmp_path):
    job = add_job(JobStore(db), tmp_path)
    service = make_service()
    target(service, f"{receiver.url}/x", job=job.id, enabled=False)
    first = service.test_send("ops")  # the receiver fails each key's first two requests: a test is not retried
    assert not first.ok and first.status_code == 500 and first.error == "HTTP 500"
    receiver.respond = fails_first(0)
    second = service.test_send("ops")
    assert second.ok and second.status_code == 200 and second.error is None
    request = receiver.requests[-1]
    assert request.key.startswith("test:") and request.body["event_key"] == request.key
    assert request.body["kind"] == "test" and request.body["job_name"] == job.name
    assert request.body["link"] == f"http://platform.test:8000/jobs/{job.name}"
    deliveries = service.deliveries("ops")
    assert [(d.status, len(d.attempts)) for d in deliveries] == [("delivered", 1), ("failed", 1)]
    assert [d.status for d in service.deliveries("ops", ["failed"])] == ["failed"]
    assert service.deliver_due() == 0  # neither is due again


def test_targets_are_validated_and_their_urls_never_read_back(make_service):
    service = make_service()
    for url, fragment in (
        ("ftp://files.example/hook", "must be an http or https URL, not ftp:"),
        ("hooks.slack.com/services/T/B/x", "not one without a scheme"),
        ("javascript:alert(1)", "must be an http or https URL"),
        ("http:///path-only", "must name a host"),
        ("https://example.com:99999/x", "not a valid URL"),
        ("https://exa mple.com/x", "spaces or control characters"),
    ):
        with pytest.raises(InvalidInputError) as raised:
            target(service, url)
        [error] = raised.value.errors
        assert error.field == "url" and fragment in error.message, (url, error)
        assert url not in error.message
    with pytest.raises(InvalidInputError) as raised:
        target(service, "https://example.com/x", job="no-such-job")
    assert raised.value.errors[0].field == "job"
    made = target(service, "https://hooks.slack.com/services/T000/B000/XXXXSECRET", format="slack")
    assert made.url == "https://hooks.slack.com/…"
    assert service.get_target(made.id).url == service.list_targets()[0].url == "https://hooks.slack.com/…"
    with pytest.raises(ConflictError):
        target(service, "https://example.com/x")
    service.delete_target("ops")
    with pytest.raises(NotFoundError):
        service.get_target(made.id)


def test_url_checks_and_redaction():
    assert url_problem("https://open.feishu.cn/open-apis/bot/v2/hook/abc") is None
    assert url_problem("http://[::1]:8080/hook") is None
    assert redact_url("http://user:pw@[::1]:8080/hook?token=x") == "http://[::1]:8080/…"
    assert redact_url("https://open.feishu.cn/open-apis/bot/v2/hook/abc") == "https://open.feishu.cn/…"


def test_the_backoff_doubles_up_to_its_cap_with_jitter_and_honours_retry_after():
    def low():
        return 0.0

    def high():
        return 1.0

    assert [retry_delay(n, 1.0, 10.0, rng=high) for n in range(1, 7)] == [1, 2, 4, 8, 10, 10]
    assert [retry_delay(n, 1.0, 10.0, rng=low) for n in range(1, 5)] == [0.5, 1, 2, 4]
    assert retry_delay(1, 1.0, 10.0, retry_after=7, rng=low) == 7
    assert retry_delay(1, 1.0, 10.0, retry_after=3600, rng=low) == 10
    assert retry_delay(10_000, 1.0, 600.0, rng=high) == 600  # no overflow however long it failed


REFUSED_TARGETS = [
    ("http://127.0.0.1:9/hook", "127.0.0.1 is a loopback address"),
    ("http://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"),
    ("http://10.0.0.1/hook", "10.0.0.1 is a private address"),
    ("http://172.16.5.4/hook", "172.16.5.4 is a private address"),
    ("http://192.168.1.1/hook", "192.168.1.1 is a private address"),
    ("http://[::1]:8080/hook", "::1 is a loopback address"),
    ("http://[fe80::1]/hook", "fe80::1 is a link-local address"),
    ("http://[fd00::1]/hook", "fd00::1 is a private address"),
    ("http://[::ffff:127.0.0.1]/hook", "is a loopback address"),
    ("http://0.0.0.0:8000/hook", "0.0.0.0 is an unspecified address"),
    ("http://localhost:8000/hook", "localhost resolves to 127.0.0.1, a loopback address"),
    ("http://2130706433/hook", "resolves to 127.0.0.1, a loopback address"),  # 127.0.0.1 as one number
]


def test_targets_inside_the_servers_network_are_refused_unless_their_network_is_allowed(make_service):
    service = make_service(allowed_networks=[])
    for url, fragment in REFUSED_TARGETS:
        with pytest.raises(InvalidInputError) as raised:
            target(service, url)
        [error] = raised.value.errors
        assert error.field == "url" and fragment in error.message, (url, error)
        assert "PLATFORM_ALERT_ALLOWED_NETWORKS" in error.message and url not in error.message
    assert service.list_targets() == []
    allowing = make_service(allowed_networks=["10.0.0.0/8", "::1/128"])
    assert target(allowing, "http://10.0.0.1/hook", name="private").url == "http://10.0.0.1/…"
    assert target(allowing, "http://[::1]:8080/hook", name="loopback-6").url == "http://[::1]:8080/…"
    with pytest.raises(InvalidInputError):
        target(allowing, "http://127.0.0.1/hook")  # 127/8 is not allowed there


def test_a_name_is_resolved_again_at_delivery_and_refused_when_it_leads_inside(make_service, receiver):
    """A target made while its name was allowed to resolve where it does, delivered by a server that no longer
    allows that network: the address its name resolves to at delivery decides, and nothing is sent."""
    port = receiver.server.server_address[1]
    url = f"http://localhost:{port}/hook"
    target(make_service(allowed_networks=["127.0.0.0/8", "::1/128"]), url)
    service = make_service(allowed_networks=[])
    attempt = service.test_send("ops")
    assert not attempt.ok and attempt.status_code is None
    assert attempt.error.startswith("DestinationRefused: localhost resolves to 127.0.0.1, a loopback address")
    assert receiver.requests == []


def test_a_request_goes_to_the_checked_address_under_its_own_name(make_service, receiver):
    port = receiver.server.server_address[1]
    service = make_service(allowed_networks=["127.0.0.0/8", "::1/128"])
    target(service, f"http://localhost:{port}/hook")
    receiver.respond = fails_first(0)
    assert service.test_send("ops").ok
    [request] = receiver.requests
    assert request.headers["host"] == f"localhost:{port}" and request.path == "/hook"


def test_a_receivers_answer_is_kept_as_its_status_code_only(make_service):
    secret = "internal-service-page-with-a-secret"
    receiver = Receiver(lambda _before, _request: (500, secret.encode()))
    try:
        service = make_service()
        target(service, receiver.url)
        attempt = service.test_send("ops")
        assert (attempt.status_code, attempt.error) == (500, "HTTP 500")
        assert secret not in str([d.model_dump() for d in service.deliveries("ops")])
    finally:
        receiver.close()


def test_the_allowed_networks_setting_reads_cidrs():
    settings = Settings(alert_allowed_networks="10.1.0.0/16, 127.0.0.1,fd00::/8")
    assert settings.alert_allowed_networks == ["10.1.0.0/16", "127.0.0.1/32", "fd00::/8"]
    with pytest.raises(ValidationError, match="CIDR"):
        Settings(alert_allowed_networks="10.1.0.0/16,intranet")
