"""Pipelines: DAGs of stages (training, evaluation, surgery, dataset operations) run as tasks, resumable."""
