"""What a training process and the platform share: a job's parameters, its directory layout, the control file,
the status file, the per-step metrics record, and the description of a run (RunSpec) and its process.

The ground floor: it imports only pydantic and the standard library (with the reward specs and file helpers
below it), because the training side runs where the server's packages may not be installed (`make rl-env`).
"""
