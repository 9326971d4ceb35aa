"""A document a user writes in YAML (or JSON, which YAML reads), read with the line of each of its parts, so every
problem later found in it can name its line: a pipeline (pipelines/definition.py), a job file (jobs/spec.py).

Bounded, because the text is the user's: a size limit checked before parsing, anchors and aliases refused (a few
lines of them expand into a huge document), nesting too deep for the parser refused as such. A key given twice in
one mapping is refused with its second line: PyYAML would keep the last silently, dropping what the first said.
"""

from dataclasses import dataclass
from typing import Any

import yaml


class YamlTextError(ValueError):
    """Why a text is not a document: `code` is `too_long` or `yaml`; `line` (1-based) where the parser stopped."""

    def __init__(self, message: str, code: str, line: int | None = None):
        self.message, self.code, self.line = message, code, line
        super().__init__(message)


@dataclass
class YamlText:
    """A document as its Python value, and its node tree, which knows the lines."""

    value: Any
    node: yaml.Node | None

    def line_of(self, loc: tuple[str | int, ...]) -> int | None:
        """The line (1-based) of the deepest node on `loc` that the document has."""
        node = self.node
        if node is None:
            return None
        line = node.start_mark.line + 1
        for key in loc:
            if isinstance(node, yaml.MappingNode):
                found = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                found = node.value[key]
            else:
                found = None
            if found is None:
                break
            node = found
            line = node.start_mark.line + 1
        return line


def read_yaml(text: str, what: str, max_bytes: int) -> YamlText:
    """`text` read as one YAML document; YamlTextError says why not. `what` names the document in the messages
    ("pipeline")."""
    if len(text.encode()) > max_bytes:
        raise YamlTextError(f"the {what} is over {max_bytes} bytes", "too_long")
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            _check_nodes(node, what)
            value = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except RecursionError:
        raise YamlTextError("the YAML is nested too deeply", "yaml") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise YamlTextError(f"not valid YAML: {error}", "yaml", mark.line + 1 if mark is not None else None) from None
    return YamlText(value, node)


def _check_nodes(node: yaml.Node | None, what: str) -> None:
    """Anchors and aliases are refused whatever they point at (a node met twice is an alias), and so is a key
    repeated within a mapping."""
    seen: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen:
            raise yaml.YAMLError(f"anchors and aliases (&, *) are not allowed in a {what}")
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in keys:
                        line = key.start_mark.line + 1
                        raise YamlTextError(f"'{key.value}' is given twice in one mapping of the {what}", "yaml", line)
                    keys.add(key.value)
                stack += [key, value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value
