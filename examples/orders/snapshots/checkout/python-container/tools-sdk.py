# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class Money(TypedDict):
    """An amount in minor units (cents) of one currency."""
    # Minor units: 1250 is 12.50.
    amount: int
    currency: Literal["EUR", "USD"]


class CancelOrderArgs(TypedDict):
    id: str


class CancelOrderOutput(TypedDict):
    id: str
    refunded: Money
    status: Literal["open", "shipped", "cancelled"]
    total: Money


class GetOrderArgs(TypedDict):
    # The order id, e.g. ord-1001.
    id: str


class GetOrderOutput(TypedDict):
    id: str
    refunded: Money
    status: Literal["open", "shipped", "cancelled"]
    total: Money


class ListOrdersArgs(TypedDict, total=False):
    minTotal: Money


class ListOrdersOutputOrdersItem(TypedDict):
    id: str
    total: Money


class ListOrdersOutput(TypedDict):
    orders: list[ListOrdersOutputOrdersItem]


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


class RefundOrderOutput(TypedDict):
    id: str
    refunded: Money
    status: Literal["open", "shipped", "cancelled"]
    total: Money


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def cancel_order(self, args: CancelOrderArgs) -> CancelOrderOutput:
        """Cancels an open order; a shipped one must be refunded instead."""

    async def get_order(self, args: GetOrderArgs) -> GetOrderOutput:
        """One order by its id."""

    async def list_orders(self, args: ListOrdersArgs) -> ListOrdersOutput:
        """Every order, newest last, optionally only those at or above a total."""

    async def place_order(self, args: PlaceOrderArgs) -> PlaceOrderOutput:
        """Places an order for one product and returns it."""

    async def refund_order(self, args: RefundOrderArgs) -> RefundOrderOutput:
        """Refunds part or all of a shipped order."""


tools: Tools
