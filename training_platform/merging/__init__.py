"""Model surgery: merges, weight averages and LoRA folds, run as a job's process (docs/surgery.md)."""
