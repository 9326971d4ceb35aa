"""Training Platform: launch, watch and control LLM post-training runs on your own machines."""

__version__ = "0.1.0"
