"""Export of a job's metrics to experiment trackers: TensorBoard, MLflow, W&B (docs/trackers.md)."""
