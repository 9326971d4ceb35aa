"""The semantic duplicate check's default threshold, measured: `python -m benchmarks.datasets.paraphrases`.

Pairs of prompts written for the measurement, embedded with the model the platform uses offline (datasets/vectors.py
`Embedder`): paraphrases, which the check should report as duplicates (the same request in other words), and
related prompts on the same topic that ask for something else, which it must not. Each pair's cosine similarity
is printed, with the precision and recall of thresholds around the default; docs/datasets.md states the choice and
tests/datasets/test_vectors.py asserts the default still separates these pairs as stated.
"""

import argparse
from dataclasses import dataclass

import numpy as np

from training_platform.datasets.vectors import Embedder

# The same request in other words: a user deduplicating would want one of each pair gone.
PARAPHRASES = [
    (
        "Can you describe how plants turn sunlight into chemical energy?",
        "How do plants convert light from the sun into chemical energy?",
    ),
    ("How can I get better sleep at night?", "What are good ways to improve the quality of my sleep?"),
    ("What causes the seasons to change on Earth?", "Why does Earth have seasons?"),
    ("How do I reverse a list in Python?", "What is the way to reverse a Python list?"),
    ("What is the capital city of Australia?", "Which city is Australia's capital?"),
    ("Explain how vaccines train the immune system.", "How do vaccines teach the immune system to fight disease?"),
    ("Give me tips for saving money on groceries.", "How can I spend less money when buying groceries?"),
    ("Why is the sky blue?", "What makes the sky look blue?"),
    ("How do I make a cup of green tea?", "What is the right way to brew green tea?"),
    ("Summarize the causes of World War I.", "What were the main causes of the First World War?"),
    ("How does compound interest work?", "Can you explain the way compound interest works?"),
    ("What are the health benefits of regular exercise?", "How does exercising regularly benefit your health?"),
    ("Translate 'good morning' into French.", "How do you say 'good morning' in French?"),
    ("How do I remove a stripped screw?", "What is the best way to get a stripped screw out?"),
    ("What is the difference between a virus and a bacterium?", "How do viruses differ from bacteria?"),
    ("Write a short poem about the ocean.", "Compose a brief poem about the sea."),
    ("How can I improve my public speaking skills?", "What can I do to become a better public speaker?"),
    ("How long should I boil an egg for a soft yolk?", "For how many minutes do I boil an egg to get a runny yolk?"),
    ("What does a product manager do?", "What are the responsibilities of a product manager?"),
    ("How do I keep my houseplants from dying?", "What should I do to keep my indoor plants alive?"),
    ("Why do cats purr?", "What is the reason cats purr?"),
    ("How do I center a div in CSS?", "What is the way to center a div element with CSS?"),
]

# The same topic, another request: a user would want both kept.
RELATED = [
    (
        "Can you describe how plants turn sunlight into chemical energy?",
        "How do plants absorb water from the soil?",
    ),
    ("How can I get better sleep at night?", "How many hours of sleep does a teenager need?"),
    ("What causes the seasons to change on Earth?", "What causes the phases of the Moon?"),
    ("How do I reverse a list in Python?", "How do I sort a list in Python?"),
    ("What is the capital city of Australia?", "What is the largest city in Australia?"),
    ("Explain how vaccines train the immune system.", "What are the common side effects of vaccines?"),
    ("Give me tips for saving money on groceries.", "Give me tips for saving money on electricity bills."),
    ("Why is the sky blue?", "Why are sunsets red?"),
    ("How do I make a cup of green tea?", "How much caffeine is in green tea?"),
    ("Summarize the causes of World War I.", "Summarize the causes of World War II."),
    ("How does compound interest work?", "How do I calculate simple interest?"),
    ("What are the health benefits of regular exercise?", "What are the health risks of too much exercise?"),
    ("Translate 'good morning' into French.", "Translate 'good morning' into German."),
    ("How do I remove a stripped screw?", "How do I tighten a loose screw?"),
    ("What is the difference between a virus and a bacterium?", "How do antibiotics kill bacteria?"),
    ("Write a short poem about the ocean.", "Write a short story about the ocean."),
    ("How can I improve my public speaking skills?", "How can I improve my writing skills?"),
    ("How long should I boil an egg for a soft yolk?", "How long should I bake a potato?"),
    ("What does a product manager do?", "What does a project manager do?"),
    ("How do I keep my houseplants from dying?", "How do I get rid of pests on my houseplants?"),
    ("Why do cats purr?", "Why do dogs wag their tails?"),
    ("How do I center a div in CSS?", "How do I center a div vertically and horizontally with flexbox?"),
]


@dataclass
class Separation:
    threshold: float
    precision: float  # of the pairs at or above the threshold, the share that are paraphrases
    recall: float  # of the paraphrases, the share at or above the threshold


def cosines(embedder: Embedder, pairs: list[tuple[str, str]]) -> np.ndarray:
    vectors = embedder.embed([text for pair in pairs for text in pair])
    return np.einsum("ij,ij->i", vectors[0::2], vectors[1::2])  # unit vectors: the dot product is the cosine


def separation(paraphrases: np.ndarray, related: np.ndarray, threshold: float) -> Separation:
    found, false = int((paraphrases >= threshold).sum()), int((related >= threshold).sum())
    precision = found / (found + false) if found + false else 1.0
    return Separation(threshold, precision, found / len(paraphrases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", type=float, nargs="*", default=[0.7, 0.75, 0.8, 0.85, 0.9])
    args = parser.parse_args()
    embedder = Embedder(batch_size=64, cpu_threads=1)
    print(f"model: {embedder.model_name}")
    scores = {"paraphrase": cosines(embedder, PARAPHRASES), "related": cosines(embedder, RELATED)}
    for label, pairs in (("paraphrase", PARAPHRASES), ("related", RELATED)):
        for (first, second), score in zip(pairs, scores[label], strict=True):
            print(f"{label:10} {score:.4f}  {first} | {second}")
    print("\nthreshold precision recall")
    for threshold in args.thresholds:
        result = separation(scores["paraphrase"], scores["related"], threshold)
        print(f"{threshold:9.2f} {result.precision:9.3f} {result.recall:6.3f}")


if __name__ == "__main__":
    main()
