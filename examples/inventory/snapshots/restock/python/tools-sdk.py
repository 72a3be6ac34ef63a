# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class ListStockOutputItemsItem(TypedDict):
    item: str
    reorderBelow: int
    units: int


class ListStockOutput(TypedDict):
    items: list[ListStockOutputItemsItem]


class ReorderArgs(TypedDict):
    # The item, as list_stock names it.
    item: str
    # How many units to order, at least 1.
    units: int


class ReorderOutput(TypedDict):
    item: str
    order: str
    units: int


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def list_stock(self, args: dict[str, Any]) -> ListStockOutput:
        """Every item in the shop with the units on the shelf and the level below which it is reordered."""

    async def reorder(self, args: ReorderArgs) -> ReorderOutput:
        """Orders more units of one item from the supplier and returns the order number."""


tools: Tools
