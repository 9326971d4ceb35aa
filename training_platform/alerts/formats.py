"""The request bodies of the three target formats, and how each provider says a 2xx answer was refused.

Written here rather than through a notification library. apprise was the candidate, and it does not fit: its
Slack and Feishu plugins take the webhook's tokens (`slack://T…/B…/…`, `feishu://token`) and rebuild the
provider's own host from them (its Feishu plugin posts to a fixed `https://open.feishu.cn/open-apis/bot/v2/hook/
{token}/`), so a target could never point at another address: not a Slack-compatible relay, not Lark's host, not
the loopback receiver the tests deliver to. Those plugins also set their own headers (no `Idempotency-Key`),
send Feishu plain text only, take Feishu's HTTP 200 refusals (a non-zero `code`) for success, and bring
`requests` besides the httpx the platform already uses. What remains to write is three small JSON documents.

- generic: the event as it is (`AlertEvent`, with its `event_key`) and `link`, the absolute UI address;
- slack: an incoming webhook's `{"text", "blocks"}` (Block Kit); `text` is the notification's fallback;
- feishu (Lark): a custom bot's `{"msg_type": "interactive", "card"}`; every user-given string goes in as
  plain_text, so nothing in a job's name or a message is read as markup (`<at>` mentions included).
"""

from typing import Any

from training_platform.alerts.schemas import AlertEvent

SEVERITY_MARKS = {"info": "ℹ️", "warning": "⚠️", "critical": "🚨"}
FEISHU_TEMPLATES = {"info": "blue", "warning": "orange", "critical": "red"}
# Block Kit's limits: longer text makes Slack refuse the whole message (invalid_blocks).
SLACK_HEADER_CHARS = 150
SLACK_TEXT_CHARS = 3000


def link_of(event: AlertEvent, base_url: str) -> str | None:
    if event.url_path is None or not base_url:
        return None
    return base_url.rstrip("/") + event.url_path


def render(format: str, event: AlertEvent, base_url: str = "") -> dict[str, Any]:
    """The JSON body sent to a target of `format` for `event`."""
    link = link_of(event, base_url)
    if format == "slack":
        return slack_body(event, link)
    if format == "feishu":
        return feishu_body(event, link)
    return generic_body(event, link)


def generic_body(event: AlertEvent, link: str | None) -> dict[str, Any]:
    return {**event.model_dump(mode="json"), "link": link}


def _summary(event: AlertEvent) -> str:
    where = f"job {event.job_name or event.job_id}" if (event.job_name or event.job_id) else "the platform"
    step = f", step {event.step}" if event.step is not None else ""
    return f"{event.severity} · {event.kind} · {where}{step}"


def _slack_escape(text: str) -> str:
    # The only characters Slack's mrkdwn reads as control: <…> makes links and @-mentions.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def slack_body(event: AlertEvent, link: str | None) -> dict[str, Any]:
    mark = SEVERITY_MARKS[event.severity]
    name = event.job_name or event.job_id
    fallback = f"{mark} [{event.severity}] {name + ': ' if name else ''}{event.title}"
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": _cut(f"{mark} {event.title}", SLACK_HEADER_CHARS)}}
    ]
    if event.message:
        text = _cut(_slack_escape(event.message), SLACK_TEXT_CHARS)
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
    if event.suggestions:
        lines = "\n".join(f"• {_slack_escape(s)}" for s in event.suggestions)
        text = _cut(f"*Suggestions*\n{lines}", SLACK_TEXT_CHARS)
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
    context = _slack_escape(_summary(event))
    if link:
        context += f" · <{link}|Open in the platform>"
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _cut(context, SLACK_TEXT_CHARS)}]})
    return {"text": _slack_escape(fallback), "blocks": blocks}


def _plain(text: str) -> dict[str, str]:
    return {"tag": "plain_text", "content": text}


def feishu_body(event: AlertEvent, link: str | None) -> dict[str, Any]:
    elements: list[dict[str, Any]] = []
    if event.message:
        elements.append({"tag": "div", "text": _plain(event.message)})
    if event.suggestions:
        lines = "\n".join(f"• {s}" for s in event.suggestions)
        elements.append({"tag": "div", "text": _plain(f"Suggestions\n{lines}")})
    elements.append({"tag": "note", "elements": [_plain(_summary(event))]})
    if link:
        button = {"tag": "button", "text": _plain("Open in the platform"), "type": "primary", "url": link}
        elements.append({"tag": "action", "actions": [button]})
    card = {
        "config": {"wide_screen_mode": True},
        "header": {
            "template": FEISHU_TEMPLATES[event.severity],
            "title": _plain(f"{SEVERITY_MARKS[event.severity]} {event.title}"),
        },
        "elements": elements,
    }
    return {"msg_type": "interactive", "card": card}


def refusal(format: str, answer: Any) -> str | None:
    """Why a 2xx answer (its JSON body, or None) still did not deliver: Feishu answers HTTP 200 with a non-zero
    `code` when it refuses a message (a wrong signature, a keyword missing, a rate limit)."""
    if format != "feishu" or not isinstance(answer, dict):
        return None
    code = answer.get("code", answer.get("StatusCode", 0))
    if code in (0, None):
        return None
    # The code alone (Feishu's documentation lists each): an answer's text is not kept (docs/security.md).
    return f"feishu refused it: code {code}" if isinstance(code, int) else "feishu refused it"
