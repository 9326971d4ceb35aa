"""The three formats' bodies, as rendered and as a receiver gets them, and Feishu's refusals inside an HTTP 200."""

import json

from tests.alerts.support import Receiver, event
from tests.support.helpers import wait_until
from training_platform.alerts.formats import refusal, render
from training_platform.alerts.schemas import AlertTargetCreate

BASE = "http://platform.test:8000"


def test_generic_is_the_event_itself_with_its_key_and_a_link():
    body = render("generic", event("finding:4:critical"), BASE)
    assert body["event_key"] == "finding:4:critical"
    assert body["link"] == "http://platform.test:8000/jobs/demo-grpo"
    expected = event("finding:4:critical").model_dump(mode="json")
    assert {k: v for k, v in body.items() if k not in ("link", "occurred_at")} == {
        k: v for k, v in expected.items() if k != "occurred_at"
    }
    assert render("generic", event(url_path=None), BASE)["link"] is None
    json.dumps(body)  # what is sent is plain JSON


def test_slack_is_text_and_blocks_with_markup_escaped():
    hostile = event(title="<!channel> wake up", message="loss <b>&</b> <https://evil.example|click>")
    body = render("slack", hostile, BASE)
    assert set(body) == {"text", "blocks"}
    assert body["text"] == "🚨 [critical] demo-grpo: &lt;!channel&gt; wake up"
    header, message, suggestions, context = body["blocks"]
    assert header == {"type": "header", "text": {"type": "plain_text", "text": "🚨 <!channel> wake up"}}
    assert message["text"] == {
        "type": "mrkdwn",
        "text": "loss &lt;b&gt;&amp;&lt;/b&gt; &lt;https://evil.example|click&gt;",
    }
    assert (
        suggestions["text"]["text"] == "*Suggestions*\n• Lower the learning rate.\n• Resume from the last checkpoint."
    )
    assert context["type"] == "context"
    assert context["elements"][0]["text"] == (
        "critical · non_finite · job demo-grpo, step 12"
        " · <http://platform.test:8000/jobs/demo-grpo|Open in the platform>"
    )
    long = render("slack", event(title="x" * 500, message="y" * 5000), BASE)
    assert len(long["blocks"][0]["text"]["text"]) == 150 and len(long["blocks"][1]["text"]["text"]) == 3000


def test_feishu_is_an_interactive_card_of_plain_text():
    body = render("feishu", event(message="<at user_id='all'>everyone</at>", severity="warning"), BASE)
    assert body["msg_type"] == "interactive"
    card = body["card"]
    assert card["header"] == {
        "template": "orange",
        "title": {"tag": "plain_text", "content": "⚠️ demo-grpo: non finite (critical)"},
    }
    message, suggestions, note, action = card["elements"]
    assert message == {"tag": "div", "text": {"tag": "plain_text", "content": "<at user_id='all'>everyone</at>"}}
    assert suggestions["text"]["content"].startswith("Suggestions\n• Lower the learning rate.")
    assert note["tag"] == "note" and "step 12" in note["elements"][0]["content"]
    assert action["actions"][0]["url"] == "http://platform.test:8000/jobs/demo-grpo"
    bare = render("feishu", event(message="", suggestions=[], url_path=None), "")
    assert [element["tag"] for element in bare["card"]["elements"]] == ["note"]


def test_feishu_refusals_come_with_http_200():
    assert refusal("feishu", {"code": 0, "msg": "success", "data": {}}) is None
    assert refusal("feishu", {"StatusCode": 0, "StatusMessage": "success"}) is None
    # The code alone: the receiver's text is not kept, where every viewer would read it.
    assert refusal("feishu", {"code": 19021, "msg": "sign match fail"}) == "feishu refused it: code 19021"
    assert refusal("feishu", {"code": "a secret of the receiver"}) == "feishu refused it"
    assert refusal("feishu", None) is None  # an answer that is not JSON: its 2xx decides
    assert refusal("slack", {"code": 1}) is None


def test_each_format_reaches_a_receiver_as_rendered_and_a_feishu_refusal_is_retried(make_service):
    feishu_answers = iter([b'{"code":9499,"msg":"Bad Request"}', b'{"code":0,"msg":"success"}'])
    receiver = Receiver(lambda _before, r: (200, next(feishu_answers) if r.path == "/feishu" else b"ok"))
    try:
        service = make_service()
        for name in ("generic", "slack", "feishu"):
            service.create_target(AlertTargetCreate(name=name, url=f"{receiver.url}/{name}", format=name))
        sent = event("finding:5:critical")
        assert service.notify(sent) == 3
        service.start()
        wait_until(lambda: len(receiver.requests) == 4, 30, interval=0.02, message="four requests")
        by_path = {r.path: r for r in receiver.requests}
        for name in ("slack", "feishu"):
            assert by_path[f"/{name}"].body == render(name, sent, service.base_url)
        assert by_path["/generic"].body == render("generic", sent, service.base_url)
        assert all(r.key == "finding:5:critical" for r in receiver.requests)
        assert all(r.headers["content-type"] == "application/json" for r in receiver.requests)
        [feishu] = wait_until(
            lambda: [d for d in service.deliveries("feishu") if d.status == "delivered"], 30, interval=0.02
        )
        assert [a.error for a in feishu.attempts] == ["feishu refused it: code 9499", None]
        assert [a.status_code for a in feishu.attempts] == [200, 200]
    finally:
        receiver.close()
