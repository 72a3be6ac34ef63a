# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
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
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def createPet(self, args: CreatePetArgs) -> Pet:
        """Create a pet."""


tools: Tools
