# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
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
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def update_tree(self, args: UpdateTreeArgs) -> "TreeNode":
        """Replace a category tree."""


tools: Tools
