"""What each kind of dataset holds: one table of the fields a row has for its algorithm (or for evaluation), from
which the row checks (`formats.SCHEMAS`), the text the model reads (`table.TEXT_FIELDS`), what the platform reads
of a row (`presets.PLATFORM_READS`) and the web UI (GET /datasets/kinds) all derive.

- sft:  prompt + response, or a chat `messages` list (roles system/user/assistant/tool); optional `tools`
- dpo:  prompt + chosen + rejected
- grpo / gspo: prompt + the reward's answer field (`solution` by default); `data_source` labels the row
- ppo:  prompt (+ data_source)
- eval: prompt, or a chat `messages` list ending with the user's turn; optional reference(s), tests, choices
  (+ category): datafiles/evalrows.py

The kinds are the algorithms' names and `eval` (contract/params.py Algorithm); the RL kinds are the algorithms that
sample responses to score.
"""

from dataclasses import dataclass

from training_platform.contract.params import RL_ALGORITHMS, Algorithm

EVAL = "eval"
DATASET_KINDS: tuple[str, ...] = (*(algorithm.value for algorithm in Algorithm), EVAL)
RL_KINDS: tuple[str, ...] = tuple(algorithm.value for algorithm in Algorithm if algorithm in RL_ALGORITHMS)


@dataclass(frozen=True)
class KindFields:
    text: tuple[str, ...]  # every row has them: the text the model reads
    alternative: tuple[str, ...] = ()  # what a row may have instead of `text` (SFT: a chat)
    checked: tuple[str, ...] = ()  # checked where a row has them (SFT's tools)
    optional: tuple[str, ...] = ()  # what a row may have beside its text, checked where present (eval's reference)
    labels: tuple[str, ...] = ()  # label or group the rows
    also_read: tuple[str, ...] = ()  # read where present, not mapped (verl's `ability`)
    answer: tuple[str, ...] = ()  # the default answer field of the rewards that read one
    # Text fields a number may stand for: answers compared with what the model says (elsewhere a number where
    # text belongs is a row's problem, datafiles/formats.py).
    numeric: tuple[str, ...] = ()
    # The text is a question for the model to answer (eval): a chat in it ends with the user's turn, not an answer
    # to learn from.
    question: bool = False

    @property
    def mappable(self) -> tuple[str, ...]:
        """The platform's fields a dataset's `field_mapping` may point at other columns."""
        return self.text + self.alternative + self.optional + self.labels + self.answer

    @property
    def read(self) -> tuple[str, ...]:
        """What the platform itself reads of a row."""
        return self.text + self.alternative + self.checked + self.optional + self.labels + self.also_read


KIND_FIELDS: dict[str, KindFields] = {
    Algorithm.SFT.value: KindFields(("prompt", "response"), alternative=("messages",), checked=("tools",)),
    Algorithm.DPO.value: KindFields(("prompt", "chosen", "rejected")),
    **{
        # PPO scores with a reward model; GRPO and GSPO with rewards that may check an answer.
        kind: KindFields(
            ("prompt",),
            labels=("data_source",),
            also_read=("ability",),
            answer=() if kind == Algorithm.PPO.value else ("solution",),
        )
        for kind in RL_KINDS
    },
    EVAL: KindFields(
        ("prompt",),
        alternative=("messages",),
        optional=("reference", "tests", "choices"),
        labels=("category",),
        numeric=("reference",),
        question=True,
    ),
}


def kinds_read_by(algorithm: Algorithm) -> tuple[str, ...]:
    """The dataset kinds whose rows `algorithm` trains on, its own first: an RL algorithm reads the prompts of the
    other RL kinds too, and those whose rewards check an answer (GRPO, GSPO) carry it."""
    if algorithm not in RL_ALGORITHMS:
        return (algorithm.value,)
    answered = [kind for kind, fields in KIND_FIELDS.items() if fields.answer and kind != algorithm.value]
    return (algorithm.value, *answered)
