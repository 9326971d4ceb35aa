"""The compute configurator: model sizes, a per-GPU memory model that explains each figure, a GPU
catalog and a recommender. Pure functions: nothing here needs a GPU."""
