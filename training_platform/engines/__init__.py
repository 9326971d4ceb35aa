"""Training engines: what each can run, how a run becomes its configuration and process, and where that process
leaves its checkpoints."""
