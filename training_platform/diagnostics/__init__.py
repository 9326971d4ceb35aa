"""Training health: detectors that read the canonical metric stream and a job's log, and what they say."""
