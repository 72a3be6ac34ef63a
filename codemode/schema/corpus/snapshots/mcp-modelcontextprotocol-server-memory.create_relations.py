# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


CreateRelationsRelationsItem = TypedDict(
    "CreateRelationsRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class CreateRelationsArgs(TypedDict):
    relations: list[CreateRelationsRelationsItem]


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def create_relations(self, args: CreateRelationsArgs) -> CreateRelationsArgs:
        """Create multiple new relations between entities in the knowledge graph. Relations should be in active voice"""


tools: Tools
