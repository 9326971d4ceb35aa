"""The environment every engine's training process gets, whatever the engine."""


def process_environment(cpu_threads: int) -> dict[str, str]:
    env = {
        # Weights and tokenizers come from local paths only: never reach for a model hub at run time.
        "HF_HUB_OFFLINE": "1",
        # The tokenizers' own thread pool would compete with torch's (and warns after every fork).
        "TOKENIZERS_PARALLELISM": "false",
        # Every line reaches the job's log (and the stall watch) as it is printed.
        "PYTHONUNBUFFERED": "1",
    }
    if cpu_threads:
        env["OMP_NUM_THREADS"] = str(cpu_threads)
    return env
