"""Evaluation runs: a target answers an eval dataset's prompts and metrics score the answers (docs/evaluation.md)."""
