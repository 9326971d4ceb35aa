"""Alerts: webhooks (generic JSON, Slack, Feishu) that the platform's findings are announced to, delivered from
an outbox in the database with retries (docs/alerts.md)."""
