# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class _AddressRequired(TypedDict):
    # 1 ≤ length ≤ 80
    city: str
    street: str


class Address(_AddressRequired, total=False):
    """A postal address."""
    # pattern: ^[0-9]{5}$
    postcode: str


class Cat(TypedDict):
    # value ≥ 0
    meows: int
    pet_type: Literal["cat"]


# An enumeration.
Color = Literal["red", "green", "blue"]


class Dog(TypedDict):
    # 0 < value ≤ 10.5
    barks: float
    pet_type: Literal["dog"]


# An enumeration.
Priority = Literal[1, 2]


class _PersonRequired(TypedDict):
    # Full name.
    name: str


class Person(_PersonRequired, total=False):
    # format: date
    birthday: str
    # Contact address.
    email: str
    # default: "blue"
    favourite: Color
    home: Address


class _AdoptArgsRequired(TypedDict):
    owner: Person
    pet: Union[Cat, Dog]
    # format: date-time
    when: str


class AdoptArgs(_AdoptArgsRequired, total=False):
    """Adopt a pet."""
    # default: 1
    priority: Priority


class _AdoptOutputRequired(TypedDict):
    # Full name.
    name: str


class AdoptOutput(_AdoptOutputRequired, total=False):
    """Person"""
    # format: date
    birthday: str
    # Contact address.
    email: str
    # default: "blue"
    favourite: Color
    home: Address


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def adopt(self, args: AdoptArgs) -> AdoptOutput:
        """Adopt a pet for a person."""


tools: Tools
