# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class ChargeCardArgs(TypedDict):
    # In euros.
    amount: float
    card: str


class ChargeCardOutput(TypedDict):
    amount: float
    receipt: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def charge_card(self, args: ChargeCardArgs) -> ChargeCardOutput:
        """Charges a card; amounts over 500 are declined."""


tools: Tools
