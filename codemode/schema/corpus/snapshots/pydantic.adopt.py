# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError, whose `toolName` names the tool.
from typing import Any, Literal, NotRequired, TypedDict, Union


class Address(TypedDict):
    """A postal address."""
    # 1 ≤ length ≤ 80
    city: str
    # pattern: ^[0-9]{5}$
    postcode: NotRequired[str]
    street: str


# An enumeration.
Color = Literal["red", "green", "blue"]


# An enumeration.
Priority = Literal[1, 2]


class Dog(TypedDict):
    # 0 < value ≤ 10.5
    barks: float
    pet_type: Literal["dog"]


class Cat(TypedDict):
    # value ≥ 0
    meows: int
    pet_type: Literal["cat"]


class Person(TypedDict):
    # format: date
    birthday: NotRequired[str]
    # Contact address.
    email: NotRequired[str]
    # default: "blue"
    favourite: NotRequired[Color]
    home: NotRequired[Address]
    # Full name.
    name: str


class AdoptArgs(TypedDict):
    """Adopt a pet."""
    owner: Person
    pet: Cat | Dog
    # default: 1
    priority: NotRequired[Priority]
    # format: date-time
    when: str


class Address2(TypedDict):
    """A postal address."""
    # 1 ≤ length ≤ 80
    city: str
    # pattern: ^[0-9]{5}$
    postcode: NotRequired[str]
    street: str


# An enumeration.
Color2 = Literal["red", "green", "blue"]


class AdoptOutput(TypedDict):
    """Person"""
    # format: date
    birthday: NotRequired[str]
    # Contact address.
    email: NotRequired[str]
    # default: "blue"
    favourite: NotRequired[Color2]
    home: NotRequired[Address2]
    # Full name.
    name: str


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str


class Tools:
    async def adopt(self, args: AdoptArgs) -> AdoptOutput:
        """Adopt a pet for a person."""


tools: Tools
