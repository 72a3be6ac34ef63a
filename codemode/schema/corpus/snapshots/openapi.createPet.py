# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError, whose `toolName` names the tool.
from typing import Any, Literal, NotRequired, TypedDict, Union


class Tag(TypedDict):
    id: NotRequired[int]
    label: NotRequired[str]


class Dog(TypedDict):
    # read-only; format: int64
    id: int
    # length ≤ 64
    name: NotRequired[str | None]
    # value ≥ 0
    packSize: int | None
    petType: Literal["Dog"]
    tags: NotRequired[list[Tag] | None]


class Cat(TypedDict):
    # default: "lazy"
    huntingSkill: NotRequired[Literal["lazy", "aggressive"]]
    # read-only; format: int64
    id: int
    # length ≤ 64
    name: NotRequired[str | None]
    petType: Literal["cat"]
    tags: NotRequired[list[Tag] | None]


class CreatePetArgs(TypedDict):
    body: Cat | Dog


class Tag2(TypedDict):
    id: NotRequired[int]
    label: NotRequired[str]


class Pet(TypedDict):
    # read-only; format: int64
    id: int
    # length ≤ 64
    name: NotRequired[str | None]
    petType: str
    tags: NotRequired[list[Tag2] | None]


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str


class Tools:
    async def createPet(self, args: CreatePetArgs) -> Pet:
        """Create a pet."""


tools: Tools
