"""Datasets: reading and validating files, uploads and versions, audits, statistics, loss previews, vectors."""
