"""An eval dataset's row (datafiles/kinds.py `EVAL`): what each of its fields may hold, and its parts as the
evaluation reads them.

- `prompt` (text or a chat list) or `messages` (a chat list): the question; a chat holds system, user and assistant
  turns and ends with the user's, the one the model answers
- `reference`: text, a number, or a list of 1 to 16 of them (several acceptable answers); with `choices`, each
  names a choice by its letter (A, B, …), its text or its 0-based index
- `category`: a label; `tests`: Python test code that a sampled program must pass (pass@k); `choices`: 2 to 26
  texts (multiple choice, accuracy)

Every field beside the question is optional: a judge needs none. Which rows lack one is said per dataset
(`eval_fields_present`), so that a metric needing it is refused naming the rows, not scored on a part of them.
The price: a test file is only compiled here, never run; whether it can pass is the sandbox's business.
"""

from collections.abc import Iterable
from string import ascii_uppercase
from typing import Any

MAX_REFERENCES = 16
MIN_CHOICES, MAX_CHOICES = 2, len(ascii_uppercase)
QUESTION_ROLES = ("system", "user", "assistant")
# What the metrics need of a row (contract/evaluation.py `Need`), by the fields that hold it.
NEEDS = {"references": "reference", "tests": "tests", "choices": "choices"}


def _type(value: Any) -> str:
    return type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def question_chat_problem(name: str, messages: list[dict[str, Any]]) -> str | None:
    """Beyond a chat list's own rules (datafiles/presets.py `chat_problem`): a question's turns are system, user and
    assistant ones, and the last is the user's."""
    for index, message in enumerate(messages):
        if message.get("role") not in QUESTION_ROLES:
            return (
                f"field '{name}' holds a {message.get('role')} message ({name}[{index}]); an eval prompt holds "
                f"{', '.join(QUESTION_ROLES)} messages only"
            )
    if messages[-1].get("role") != "user":
        last = len(messages) - 1
        return f"field '{name}' must end with the user's message for the model to answer: {name}[{last}] is not one"
    return None


def _answer_problem(where: str, value: Any) -> str | None:
    if isinstance(value, str):
        return f"field '{where}' is empty" if not value.strip() else None
    if _is_number(value):
        return None
    return f"field '{where}' must be text or a number, got {_type(value)}"


def reference_problem(value: Any) -> str | None:
    """A reference: text, a number, or a list of 1 to MAX_REFERENCES of them."""
    if not isinstance(value, list):
        if isinstance(value, str) or _is_number(value):
            return _answer_problem("reference", value)
        return f"field 'reference' must be text, a number or a list of them, got {_type(value)}"
    if not value:
        return "field 'reference' is empty"
    if len(value) > MAX_REFERENCES:
        return f"field 'reference' holds {len(value)} references; at most {MAX_REFERENCES}"
    problems = (_answer_problem(f"reference[{index}]", item) for index, item in enumerate(value))
    return next((problem for problem in problems if problem), None)


def tests_problem(value: Any) -> str | None:
    """Test code: Python text that compiles (it is run only in the evaluation's sandbox)."""
    if not isinstance(value, str):
        return f"field 'tests' must be text (Python test code), got {_type(value)}"
    if not value.strip():
        return "field 'tests' is empty"
    try:
        compile(value, "tests", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL character
        line = f" (line {error.lineno})" if getattr(error, "lineno", None) else ""
        return f"field 'tests' is not valid Python: {getattr(error, 'msg', error)}{line}"
    return None


def choices_problem(value: Any) -> str | None:
    """Choices: MIN_CHOICES to MAX_CHOICES distinct texts, one per letter."""
    if not isinstance(value, list):
        return f"field 'choices' must be a list of texts, got {_type(value)}"
    if not MIN_CHOICES <= len(value) <= MAX_CHOICES:
        return f"field 'choices' holds {len(value)} choices; a multiple choice has {MIN_CHOICES} to {MAX_CHOICES}"
    seen: dict[str, int] = {}
    for index, choice in enumerate(value):
        if not isinstance(choice, str):
            return f"field 'choices[{index}]' must be text, got {_type(choice)}"
        if not choice.strip():
            return f"field 'choices[{index}]' is empty"
        if choice in seen:
            return f"field 'choices[{index}]' repeats choices[{seen[choice]}]"
        seen[choice] = index
    return None


def choice_letter(reference: Any, choices: list[str]) -> str | None:
    """The letter of the choice a reference names: its letter, else its text, else its 0-based index; None when it
    names none."""
    letters = ascii_uppercase[: len(choices)]
    if isinstance(reference, str):
        stripped = reference.strip()
        if len(stripped) == 1 and stripped in letters:
            return stripped
        return letters[choices.index(reference)] if reference in choices else None
    if isinstance(reference, int) and not isinstance(reference, bool) and 0 <= reference < len(choices):
        return letters[reference]
    return None


def _references(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def unnamed_choice_problem(reference: Any, choices: list[str]) -> str | None:
    """A reference of a multiple-choice row that names no choice (both fields are otherwise sound)."""
    for index, item in enumerate(_references(reference)):
        if choice_letter(item, choices) is None:
            where = f"reference[{index}]" if isinstance(reference, list) else "reference"
            last = ascii_uppercase[len(choices) - 1]
            return (
                f"field '{where}' names no choice: expected a letter A-{last}, one choice's text or an index "
                f"0-{len(choices) - 1}, got {item!r}"
            )
    return None


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


EvalParts = tuple[str | list[dict[str, Any]], list[str], str | None, str | None, list[str] | None]


def eval_row_parts(row: dict[str, Any]) -> EvalParts:
    """A checked eval row's parts: its prompt (text, or the chat list of `prompt` or else `messages`), its references
    as texts ([] when none; with choices, each the letter of the choice it names), its category, its tests and its
    choices."""
    prompt = row["prompt"] if row.get("prompt") is not None else row["messages"]
    choices = row.get("choices")
    references = _references(row.get("reference"))
    if choices is not None:
        references = [choice_letter(item, choices) or item for item in references]
    category = row.get("category")
    return (
        prompt,
        [_as_text(item) for item in references],
        None if category is None else _as_text(category),
        row.get("tests"),
        None if choices is None else list(choices),
    )


def _lacks(row: dict[str, Any], field: str) -> bool:
    value = row.get(field)
    return value is None or value == [] or (isinstance(value, str) and not value.strip())


def eval_fields_present(rows: Iterable[dict[str, Any]]) -> dict[str, list[int]]:
    """For each need of the metrics ("references", "tests", "choices"), the 1-based numbers of the rows that lack
    it: an empty list when every row has it."""
    missing: dict[str, list[int]] = {need: [] for need in NEEDS}
    for number, row in enumerate(rows, start=1):
        for need, field in NEEDS.items():
            if _lacks(row, field):
                missing[need].append(number)
    return missing
