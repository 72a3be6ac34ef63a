# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class ListStockItemsItem(TypedDict):
    item: str
    reorderBelow: int
    units: int


class ListStockOutput(TypedDict):
    items: list[ListStockItemsItem]


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
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def list_stock(self, args: dict[str, Any]) -> ListStockOutput:
        """Every item in the shop with the units on the shelf and the level below which it is reordered."""

    async def reorder(self, args: ReorderArgs) -> ReorderOutput:
        """Orders more units of one item from the supplier and returns the order number."""


tools: Tools
