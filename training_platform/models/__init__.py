"""Base models the platform knows about (local Hugging Face directories)."""
