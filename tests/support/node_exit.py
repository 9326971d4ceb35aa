"""A torchrun script for a run over several nodes: the ranks of node 1 exit with code 3 at once, the others wait
until they are ended (GROUP_RANK is torchrun's node rank)."""

import os
import sys
import threading

if __name__ == "__main__":
    if os.environ["GROUP_RANK"] == "1":
        sys.exit(3)
    print(f"rank {os.environ['RANK']} waits to be ended", flush=True)
    threading.Event().wait()
