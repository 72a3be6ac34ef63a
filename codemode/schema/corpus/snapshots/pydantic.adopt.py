# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
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


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def adopt(self, args: AdoptArgs) -> Person:
        """Adopt a pet for a person."""


tools: Tools
