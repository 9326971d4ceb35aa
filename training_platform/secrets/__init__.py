"""Secrets: named credentials (API keys) the platform uses on a user's behalf, encrypted at rest with
PLATFORM_SECRET_KEY and never returned."""
