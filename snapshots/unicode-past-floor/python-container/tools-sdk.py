# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class LossaryLookupArgs(TypedDict):
    word: str


class LossaryLookupOutput(TypedDict):
    meaning: Optional[str]
    word: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    # await tools["ꟑlossary_lookup"](args: LossaryLookupArgs) -> LossaryLookupOutput
    #   Looks a word up in the glossary.
    pass


tools: Tools
