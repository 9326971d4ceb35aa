import argparse
import logging
import os
import sys
from pathlib import Path

# Weights and tokenizers come from local paths only; never reach for a model hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def cli() -> int:
    parser = argparse.ArgumentParser(prog="python -m training_platform.evaluation")
    parser.add_argument("--config", type=Path, required=True, help="run_config.json written by the platform")
    parser.add_argument("--reward-code-dir", type=Path, default=None, help="where custom metrics are imported from")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stdout)

    from training_platform.evaluation.process import main

    return main(args.config, args.reward_code_dir)


if __name__ == "__main__":
    sys.exit(cli())
