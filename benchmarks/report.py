"""The table every benchmark prints: what was measured, against which baseline, the ratio and the target."""

HEADER = ("benchmark", "measured", "baseline", "ratio", "target")


def print_table(rows: list[tuple]) -> None:
    widths = [max(len(str(row[i])) for row in [HEADER, *rows]) for i in range(len(HEADER))]
    for row in [HEADER, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)))
