"""Tables of attacks beyond test_hostile.py's own, one module per class (issue 24), run against the same server
by tests/api/test_hostile.py."""
