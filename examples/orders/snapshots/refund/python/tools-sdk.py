# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class Money(TypedDict):
    """An amount in minor units (cents) of one currency."""
    # Minor units: 1250 is 12.50.
    amount: int
    currency: Literal["EUR", "USD"]


class CancelOrderArgs(TypedDict):
    id: str


class OrderOutput(TypedDict):
    id: str
    refunded: Money
    status: Literal["open", "shipped", "cancelled"]
    total: Money


class GetOrderArgs(TypedDict):
    # The order id, e.g. ord-1001.
    id: str


class ListOrdersArgs(TypedDict, total=False):
    minTotal: Money


class ListOrdersOrdersItem(TypedDict):
    id: str
    total: Money


class ListOrdersOutput(TypedDict):
    orders: list[ListOrdersOrdersItem]


class PlaceOrderArgs(TypedDict):
    price: Money
    product: str


class PlaceOrderOutput(TypedDict):
    id: str
    # format: date-time
    placedAt: str
    refunded: Money
    status: Literal["open", "shipped", "cancelled"]
    total: Money


class RefundOrderArgs(TypedDict):
    amount: Money
    id: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def cancel_order(self, args: CancelOrderArgs) -> OrderOutput:
        """Cancels an open order; a shipped one must be refunded instead."""

    async def get_order(self, args: GetOrderArgs) -> OrderOutput:
        """One order by its id."""

    async def list_orders(self, args: ListOrdersArgs) -> ListOrdersOutput:
        """Every order, newest last, optionally only those at or above a total."""

    async def place_order(self, args: PlaceOrderArgs) -> PlaceOrderOutput:
        """Places an order for one product and returns it."""

    async def refund_order(self, args: RefundOrderArgs) -> OrderOutput:
        """Refunds part or all of a shipped order."""


tools: Tools
