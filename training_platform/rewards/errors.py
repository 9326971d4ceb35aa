class RewardConfigError(ValueError):
    """A reward cannot be built or evaluated because of how it was configured."""
