"""Offline demo assets: a tiny Qwen2-style model with its own tokenizer, and sample datasets per algorithm."""
