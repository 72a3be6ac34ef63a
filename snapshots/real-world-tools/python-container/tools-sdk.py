# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class AddObservationsObservationsItem(TypedDict):
    # An array of observation contents to add
    contents: list[str]
    # The name of the entity to add the observations to
    entityName: str


class AddObservationsArgs(TypedDict):
    observations: list[AddObservationsObservationsItem]


class AddObservationsResultsItem(TypedDict):
    addedObservations: list[str]
    entityName: str


class AddObservationsOutput(TypedDict):
    results: list[AddObservationsResultsItem]


class CreateEntitiesEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class CreateEntitiesArgs(TypedDict):
    entities: list[CreateEntitiesEntitiesItem]


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


class DeleteEntitiesArgs(TypedDict):
    # An array of entity names to delete
    entityNames: list[str]


class DeleteEntitiesOutput(TypedDict):
    message: str
    success: bool


class DeleteObservationsDeletionsItem(TypedDict):
    # The name of the entity containing the observations
    entityName: str
    # An array of observations to delete
    observations: list[str]


class DeleteObservationsArgs(TypedDict):
    deletions: list[DeleteObservationsDeletionsItem]


class DeleteRelationsArgs(TypedDict):
    # An array of relations to delete
    relations: list[CreateRelationsRelationsItem]


class OpenNodesArgs(TypedDict):
    # An array of entity names to retrieve
    names: list[str]


class OpenNodesOutput(TypedDict):
    entities: list[CreateEntitiesEntitiesItem]
    relations: list[CreateRelationsRelationsItem]


class SearchNodesArgs(TypedDict):
    # The search query to match against entity names, types, and observation content
    query: str


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def add_observations(self, args: AddObservationsArgs) -> AddObservationsOutput:
        """Add new observations to existing entities in the knowledge graph"""

    async def create_entities(self, args: CreateEntitiesArgs) -> CreateEntitiesArgs:
        """Create multiple new entities in the knowledge graph"""

    async def create_relations(self, args: CreateRelationsArgs) -> CreateRelationsArgs:
        """Create multiple new relations between entities in the knowledge graph. Relations should be in active voice"""

    async def delete_entities(self, args: DeleteEntitiesArgs) -> DeleteEntitiesOutput:
        """Delete multiple entities and their associated relations from the knowledge graph"""

    async def delete_observations(self, args: DeleteObservationsArgs) -> DeleteEntitiesOutput:
        """Delete specific observations from entities in the knowledge graph"""

    async def delete_relations(self, args: DeleteRelationsArgs) -> DeleteEntitiesOutput:
        """Delete multiple relations from the knowledge graph"""

    async def open_nodes(self, args: OpenNodesArgs) -> OpenNodesOutput:
        """Open specific nodes in the knowledge graph by their names"""

    async def read_graph(self, args: dict[str, Any]) -> OpenNodesOutput:
        """Read the entire knowledge graph"""

    async def search_nodes(self, args: SearchNodesArgs) -> OpenNodesOutput:
        """Search for nodes in the knowledge graph based on a query"""


tools: Tools
