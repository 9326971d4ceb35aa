"""Attacks on bounded requests: GPUs, logins, imports, alert targets, steps, WebSocket places, exports,
reward patterns."""

from tests.support.hostile import Case

CASES: list[Case] = []
