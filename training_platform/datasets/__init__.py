"""Datasets: file formats, per-algorithm schemas, validation and the registry of known datasets."""
