"""Training metrics: the per-step record, the training-side writers and the platform-side readers."""
