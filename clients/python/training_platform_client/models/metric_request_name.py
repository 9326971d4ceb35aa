from enum import StrEnum


class MetricRequestName(StrEnum):
    ACCURACY = "accuracy"
    BLEU = "bleu"
    CHRF = "chrf"
    CUSTOM = "custom"
    EXACT_MATCH = "exact_match"
    JUDGE = "judge"
    MATH = "math"
    PASS_AT_K = "pass_at_k"
    ROUGE = "rouge"

    def __str__(self) -> str:
        return str(self.value)
