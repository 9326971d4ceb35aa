"""Who may do what: users and their roles, API tokens and web sessions, who owns which resource, the audit log
and the login rate limit (docs/security.md)."""
