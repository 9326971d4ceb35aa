"""verl's SFT dataset over the rows the platform writes, with the loss on every assistant turn or the last.

The platform writes each conversation's `messages` and `tools` as JSON text (engines/verl/data.py): a Parquet column
has one type, so as structs every message would carry every key any message has (`tool_calls: null`, a tool
schema's missing properties as nulls), and a chat template renders those. verl 0.9.1's MultiTurnSFTDataset then
tokenizes turn by turn and marks every assistant turn; LastTurnSFTDataset clears the mark of every assistant turn
but the last (a job's `train_on: last_assistant`), so both engines train the same tokens (engines/trl/data.py).
verl loads the class by name from `data.custom_cls` (engines/verl/command.py).
"""

import json

import torch
from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset


def _parsed(value):
    return json.loads(value) if isinstance(value, str) else value


class PlatformSFTDataset(MultiTurnSFTDataset):
    def _read_files_and_process(self):
        super()._read_files_and_process()
        if self.tools is not None:
            self.tools = [_parsed(tools) for tools in self.tools]

    def _build_messages(self, example: dict):
        return super()._build_messages({**example, self.messages_key: _parsed(example[self.messages_key])})


class LastTurnSFTDataset(PlatformSFTDataset):
    def _process_single_message(self, index, message, full_message, tools=None, enable_thinking=None):
        input_ids, loss_mask, attention_mask, inputs = super()._process_single_message(
            index, message, full_message, tools=tools, enable_thinking=enable_thinking
        )
        last = max(position for position, turn in enumerate(full_message) if turn["role"] == "assistant")
        if message["role"] == "assistant" and index != last:
            loss_mask = torch.zeros_like(loss_mask)
        return input_ids, loss_mask, attention_mask, inputs
