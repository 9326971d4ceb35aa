"""Model surgery: merges, averages and LoRA folds as supervised runs, checkpoint selection, and the models a
user can choose from (docs/surgery.md)."""
