"""Evaluation runs, their results and comparisons: the service the API and the CLI drive (docs/evaluation.md)."""
