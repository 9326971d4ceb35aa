"""HTTP API (FastAPI, under /api/v1): translates requests into service calls and nothing more."""
