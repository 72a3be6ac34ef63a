# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class Tool2faVerifyArgs(TypedDict):
    text: str


class Tool2faVerifyOutputArgs(TypedDict):
    text: str


class Tool2faVerifyOutput(TypedDict):
    args: Tool2faVerifyOutputArgs
    tool: str


class ProtoArgs(TypedDict):
    text: str


class ProtoOutputArgs(TypedDict):
    text: str


class ProtoOutput(TypedDict):
    args: ProtoOutputArgs
    tool: str


class ClassArgs(TypedDict):
    text: str


class ClassOutputArgs(TypedDict):
    text: str


class ClassOutput(TypedDict):
    args: ClassOutputArgs
    tool: str


class WeatherAlertsArgs(TypedDict):
    text: str


class WeatherAlertsOutputArgs(TypedDict):
    text: str


class WeatherAlertsOutput(TypedDict):
    args: WeatherAlertsOutputArgs
    tool: str


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    # await tools["2fa.verify"](args: Tool2faVerifyArgs) -> Tool2faVerifyOutput
    #     Starts with a digit and holds a dot.

    # await tools["__proto__"](args: ProtoArgs) -> ProtoOutput
    #     A name JavaScript objects treat specially.

    # await tools["class"](args: ClassArgs) -> ClassOutput
    #     A keyword in Python.

    # await tools["weather-alerts"](args: WeatherAlertsArgs) -> WeatherAlertsOutput
    #     A dashed name.
    pass


tools: Tools
