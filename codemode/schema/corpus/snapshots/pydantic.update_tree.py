# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class _TreeNodeRequired(TypedDict):
    label: str


class TreeNode(_TreeNodeRequired, total=False):
    """A node of a category tree."""
    # default: []
    children: list["TreeNode"]
    parent: "TreeNode"


class UpdateTreeArgs(TypedDict):
    """UpdateArgs"""
    id: str
    patch: dict[str, Union[str, int, bool]]
    tree: "TreeNode"


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def update_tree(self, args: UpdateTreeArgs) -> "TreeNode":
        """Replace a category tree."""


tools: Tools
