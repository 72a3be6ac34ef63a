# Call a tool from your program as `await tools.name({...})` with a dict of arguments.
# Only `tools` and `ToolCallError` exist when the program runs; the classes below are for reading.
from typing import Any


class ToolCallError(Exception):
    toolName: str


class Tools:
    async def glossary_lookup(self, args: dict[str, Any]) -> Any:
        "Looks a word up in the glossary; the meaning is null for a word it does not hold."
        ...


tools: Tools
