# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class Tag(TypedDict, total=False):
    id: int
    label: str


class _PetRequired(TypedDict):
    # read-only; format: int64
    id: int
    petType: str


class Pet(_PetRequired, total=False):
    # length ≤ 64
    name: Optional[str]
    tags: Optional[list[Tag]]


class _CreatePetDogRequired(TypedDict):
    # read-only; format: int64
    id: int
    # value ≥ 0
    packSize: Optional[int]
    petType: Literal["Dog"]


class CreatePetDog(_CreatePetDogRequired, total=False):
    # length ≤ 64
    name: Optional[str]
    tags: Optional[list[Tag]]


class _CreatePetCatRequired(TypedDict):
    # read-only; format: int64
    id: int
    petType: Literal["cat"]


class CreatePetCat(_CreatePetCatRequired, total=False):
    # default: "lazy"
    huntingSkill: Literal["lazy", "aggressive"]
    # length ≤ 64
    name: Optional[str]
    tags: Optional[list[Tag]]


class CreatePetArgs(TypedDict):
    body: Union[CreatePetCat, CreatePetDog]


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def createPet(self, args: CreatePetArgs) -> Pet:
        """Create a pet."""


tools: Tools
