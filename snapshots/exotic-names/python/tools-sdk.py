# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class TextArgs(TypedDict):
    text: str


class Tool2faVerifyOutput(TypedDict):
    args: TextArgs
    tool: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    # await tools["2fa.verify"](args: TextArgs) -> Tool2faVerifyOutput
    #   Starts with a digit and holds a dot.

    # await tools["__proto__"](args: TextArgs) -> Tool2faVerifyOutput
    #   A name JavaScript objects treat specially.

    # await tools["class"](args: TextArgs) -> Tool2faVerifyOutput
    #   A keyword in Python.

    # await tools["weather-alerts"](args: TextArgs) -> Tool2faVerifyOutput
    #   A dashed name.
    pass


tools: Tools
