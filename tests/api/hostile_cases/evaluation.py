"""Attacks through evaluation: model paths and references out of the roots, endpoints the server must not reach
(another scheme, a cloud's metadata address), shell words in a URL, custom metric code from outside the reward code
directory, unbounded generation, and a viewer creating runs. None creates a run (the table's last test counts jobs)."""

from collections.abc import Callable

from tests.support.hostile import Answer, Case, Hostile, all_of, mentions, refused_naming

EVAL_DATASET = "eval-data"  # registered by the hostile server (tests/support/hostile.py)
CHRF = [{"name": "chrf"}]


def evaluation(who: str = "alice", target: dict | None = None, **body) -> Callable[[Hostile], Answer]:
    def send(h: Hostile) -> Answer:
        request = {
            "dataset": EVAL_DATASET,
            "target": target if target is not None else {"kind": "model", "model": str(h.demo["model"])},
            "metrics": CHRF,
            **body,
        }
        return h.call(who, "POST", "/evaluations", json=request)

    return send


def model_at(path: Callable[[Hostile], str]) -> Callable[[Hostile], Answer]:
    return lambda h: evaluation(target={"kind": "model", "model": path(h)})(h)


def endpoint(base_url: Callable[[Hostile], str], **extra) -> Callable[[Hostile], Answer]:
    return lambda h: evaluation(target={"kind": "api", "base_url": base_url(h), "model": "m", **extra})(h)


def custom_metric(function: Callable[[Hostile], str]) -> Callable[[Hostile], Answer]:
    return lambda h: evaluation(metrics=[{"name": "custom", "function": function(h)}])(h)


CASES: list[Case] = [
    Case("eval-model-outside-the-roots", model_at(lambda h: str(h.outside)), 422, refused_naming("target.model")),
    Case(
        "eval-model-climbing-out-of-a-root",
        model_at(lambda h: f"{h.data}/../outside"),
        422,
        refused_naming("target.model"),
    ),
    Case(
        "eval-checkpoint-reference-with-a-path",
        model_at(lambda h: "job:alices-job@../../../etc"),
        422,
        refused_naming("target.model"),
    ),
    Case("eval-endpoint-file-scheme", endpoint(lambda h: "file:///etc/passwd"), 422, refused_naming("target")),
    Case(
        "eval-endpoint-cloud-metadata",
        endpoint(lambda h: "http://169.254.169.254/latest/meta-data"),
        422,
        all_of(refused_naming("target.base_url"), mentions("link-local")),
    ),
    Case(
        "eval-endpoint-with-shell-words",
        endpoint(lambda h: f"http://127.0.0.1:1/v1;touch%20{h.canary}/made_by_endpoint"),
        422,
        refused_naming("target.base_url"),
    ),
    Case(
        "eval-endpoint-secret-name-climbing",
        endpoint(lambda h: "http://127.0.0.1:1/v1", api_key_secret="../../etc/passwd"),
        422,
        refused_naming("target"),
    ),
    Case(
        "eval-custom-metric-from-outside-the-code-directory",
        custom_metric(lambda h: f"{h.outside / 'evil.py'}:score"),
        422,
        refused_naming("metrics.0.function"),
    ),
    Case(
        "eval-custom-metric-from-the-standard-library",
        custom_metric(lambda h: "os:system"),
        422,
        refused_naming("metrics.0.function"),
    ),
    Case(
        "eval-judge-rubric-beyond-its-bound",
        lambda h: evaluation(
            metrics=[{"name": "judge", "rubric": "x" * 9000, "target": {"kind": "model", "model": "m"}}]
        )(h),
        422,
        refused_naming("metrics.0.rubric"),
    ),
    Case("eval-a-billion-answers-per-prompt", evaluation(generation={"n": 10**9}), 422, refused_naming("generation.n")),
    Case(
        "eval-a-thousand-stop-strings",
        evaluation(generation={"stop": ["x"] * 1000}),
        422,
        refused_naming("generation.stop"),
    ),
    Case("eval-run-name-with-shell-words", evaluation(name="x; rm -rf /"), 422, refused_naming("name")),
    Case("eval-by-a-viewer", evaluation(who="val"), 403),
    Case(
        "eval-compare-six-runs",
        lambda h: h.call("alice", "POST", "/evaluations/compare", json={"runs": list("abcdef")}),
        422,
        refused_naming("runs"),
    ),
    Case(
        "eval-samples-search-beyond-its-bound",
        lambda h: h.call("alice", "GET", "/evaluations/alices-job/samples", params={"search": "x" * 10_000}),
        422,
        refused_naming("search"),
    ),
]
