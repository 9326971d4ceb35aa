from enum import StrEnum


class RecommendBodyPrecision(StrEnum):
    BF16 = "bf16"
    BF16_AMP = "bf16-amp"
    FP32 = "fp32"

    def __str__(self) -> str:
        return str(self.value)
