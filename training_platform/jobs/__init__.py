"""Training jobs: parameters, the status state machine, events, and the service that launches and controls them."""
