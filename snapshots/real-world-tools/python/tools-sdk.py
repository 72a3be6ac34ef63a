# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class AddObservationsArgsObservationsItem(TypedDict):
    # An array of observation contents to add
    contents: list[str]
    # The name of the entity to add the observations to
    entityName: str


class AddObservationsArgs(TypedDict):
    observations: list[AddObservationsArgsObservationsItem]


class AddObservationsOutputResultsItem(TypedDict):
    addedObservations: list[str]
    entityName: str


class AddObservationsOutput(TypedDict):
    results: list[AddObservationsOutputResultsItem]


class CreateEntitiesArgsEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class CreateEntitiesArgs(TypedDict):
    entities: list[CreateEntitiesArgsEntitiesItem]


class CreateEntitiesOutputEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class CreateEntitiesOutput(TypedDict):
    entities: list[CreateEntitiesOutputEntitiesItem]


CreateRelationsArgsRelationsItem = TypedDict(
    "CreateRelationsArgsRelationsItem",
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
    relations: list[CreateRelationsArgsRelationsItem]


CreateRelationsOutputRelationsItem = TypedDict(
    "CreateRelationsOutputRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class CreateRelationsOutput(TypedDict):
    relations: list[CreateRelationsOutputRelationsItem]


class DeleteEntitiesArgs(TypedDict):
    # An array of entity names to delete
    entityNames: list[str]


class DeleteEntitiesOutput(TypedDict):
    message: str
    success: bool


class DeleteObservationsArgsDeletionsItem(TypedDict):
    # The name of the entity containing the observations
    entityName: str
    # An array of observations to delete
    observations: list[str]


class DeleteObservationsArgs(TypedDict):
    deletions: list[DeleteObservationsArgsDeletionsItem]


class DeleteObservationsOutput(TypedDict):
    message: str
    success: bool


DeleteRelationsArgsRelationsItem = TypedDict(
    "DeleteRelationsArgsRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class DeleteRelationsArgs(TypedDict):
    # An array of relations to delete
    relations: list[DeleteRelationsArgsRelationsItem]


class DeleteRelationsOutput(TypedDict):
    message: str
    success: bool


class OpenNodesArgs(TypedDict):
    # An array of entity names to retrieve
    names: list[str]


OpenNodesOutputRelationsItem = TypedDict(
    "OpenNodesOutputRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class OpenNodesOutputEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class OpenNodesOutput(TypedDict):
    entities: list[OpenNodesOutputEntitiesItem]
    relations: list[OpenNodesOutputRelationsItem]


ReadGraphOutputRelationsItem = TypedDict(
    "ReadGraphOutputRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class ReadGraphOutputEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class ReadGraphOutput(TypedDict):
    entities: list[ReadGraphOutputEntitiesItem]
    relations: list[ReadGraphOutputRelationsItem]


class SearchNodesArgs(TypedDict):
    # The search query to match against entity names, types, and observation content
    query: str


SearchNodesOutputRelationsItem = TypedDict(
    "SearchNodesOutputRelationsItem",
    {
        # The name of the entity where the relation starts
        "from": str,
        # The type of the relation
        "relationType": str,
        # The name of the entity where the relation ends
        "to": str,
    },
)


class SearchNodesOutputEntitiesItem(TypedDict):
    # The type of the entity
    entityType: str
    # The name of the entity
    name: str
    # An array of observation contents associated with the entity
    observations: list[str]


class SearchNodesOutput(TypedDict):
    entities: list[SearchNodesOutputEntitiesItem]
    relations: list[SearchNodesOutputRelationsItem]


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def add_observations(self, args: AddObservationsArgs) -> AddObservationsOutput:
        """Add new observations to existing entities in the knowledge graph"""

    async def create_entities(self, args: CreateEntitiesArgs) -> CreateEntitiesOutput:
        """Create multiple new entities in the knowledge graph"""

    async def create_relations(self, args: CreateRelationsArgs) -> CreateRelationsOutput:
        """Create multiple new relations between entities in the knowledge graph. Relations should be in active voice"""

    async def delete_entities(self, args: DeleteEntitiesArgs) -> DeleteEntitiesOutput:
        """Delete multiple entities and their associated relations from the knowledge graph"""

    async def delete_observations(self, args: DeleteObservationsArgs) -> DeleteObservationsOutput:
        """Delete specific observations from entities in the knowledge graph"""

    async def delete_relations(self, args: DeleteRelationsArgs) -> DeleteRelationsOutput:
        """Delete multiple relations from the knowledge graph"""

    async def open_nodes(self, args: OpenNodesArgs) -> OpenNodesOutput:
        """Open specific nodes in the knowledge graph by their names"""

    async def read_graph(self, args: dict[str, Any]) -> ReadGraphOutput:
        """Read the entire knowledge graph"""

    async def search_nodes(self, args: SearchNodesArgs) -> SearchNodesOutput:
        """Search for nodes in the knowledge graph based on a query"""


tools: Tools
