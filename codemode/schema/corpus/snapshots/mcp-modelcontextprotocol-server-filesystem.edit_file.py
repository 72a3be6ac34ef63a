# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class EditFileEditsItem(TypedDict):
    # Text to replace with
    newText: str
    # Text to search for - must match exactly
    oldText: str


class _EditFileArgsRequired(TypedDict):
    edits: list[EditFileEditsItem]
    path: str


class EditFileArgs(_EditFileArgsRequired, total=False):
    # Preview changes using git-style diff format
    # default: false
    dryRun: bool


class EditFileOutput(TypedDict):
    content: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def edit_file(self, args: EditFileArgs) -> EditFileOutput:
        """Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories."""


tools: Tools
