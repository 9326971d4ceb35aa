"""Run in the CPU vLLM environment (.venv-rl): load a model directory with vLLM and generate greedily.

python tests/support/vllm_generate.py MODEL_DIR   → prints a line "GENERATED {"text", "tokens"}" among vLLM's own"""

import json
import sys


def main() -> None:
    from vllm import LLM, SamplingParams

    llm = LLM(model=sys.argv[1], dtype="float32", max_model_len=256, enforce_eager=True)
    output = llm.generate(["hello world"], SamplingParams(max_tokens=8, temperature=0, ignore_eos=True))[0].outputs[0]
    print("GENERATED " + json.dumps({"text": output.text, "tokens": len(output.token_ids)}), flush=True)


if __name__ == "__main__":  # vLLM's engine starts processes that import this module again
    main()
