// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

type AddObservationsArgs = {
  observations: {
    /** The name of the entity to add the observations to */
    entityName: string;
    /** An array of observation contents to add */
    contents: string[];
  }[];
};

type AddObservationsOutput = {
  results: {
    entityName: string;
    addedObservations: string[];
  }[];
};

type CreateEntitiesArgs = {
  entities: CreateEntities_EntitiesItem[];
};

type CreateEntities_EntitiesItem = {
  /** The name of the entity */
  name: string;
  /** The type of the entity */
  entityType: string;
  /** An array of observation contents associated with the entity */
  observations: string[];
};

type CreateRelationsArgs = {
  relations: CreateRelations_RelationsItem[];
};

type CreateRelations_RelationsItem = {
  /** The name of the entity where the relation starts */
  from: string;
  /** The name of the entity where the relation ends */
  to: string;
  /** The type of the relation */
  relationType: string;
};

type DeleteEntitiesArgs = {
  /** An array of entity names to delete */
  entityNames: string[];
};

type DeleteEntitiesOutput = {
  success: boolean;
  message: string;
};

type DeleteObservationsArgs = {
  deletions: {
    /** The name of the entity containing the observations */
    entityName: string;
    /** An array of observations to delete */
    observations: string[];
  }[];
};

type DeleteRelationsArgs = {
  /** An array of relations to delete */
  relations: CreateRelations_RelationsItem[];
};

type OpenNodesArgs = {
  /** An array of entity names to retrieve */
  names: string[];
};

type OpenNodesOutput = {
  entities: CreateEntities_EntitiesItem[];
  relations: CreateRelations_RelationsItem[];
};

type SearchNodesArgs = {
  /** The search query to match against entity names, types, and observation content */
  query: string;
};

declare const tools: {
  /** Add new observations to existing entities in the knowledge graph */
  add_observations(args: AddObservationsArgs): Promise<AddObservationsOutput>;
  /** Create multiple new entities in the knowledge graph */
  create_entities(args: CreateEntitiesArgs): Promise<CreateEntitiesArgs>;
  /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
  create_relations(args: CreateRelationsArgs): Promise<CreateRelationsArgs>;
  /** Delete multiple entities and their associated relations from the knowledge graph */
  delete_entities(args: DeleteEntitiesArgs): Promise<DeleteEntitiesOutput>;
  /** Delete specific observations from entities in the knowledge graph */
  delete_observations(args: DeleteObservationsArgs): Promise<DeleteEntitiesOutput>;
  /** Delete multiple relations from the knowledge graph */
  delete_relations(args: DeleteRelationsArgs): Promise<DeleteEntitiesOutput>;
  /** Open specific nodes in the knowledge graph by their names */
  open_nodes(args: OpenNodesArgs): Promise<OpenNodesOutput>;
  /** Read the entire knowledge graph */
  read_graph(args: Record<string, unknown>): Promise<OpenNodesOutput>;
  /** Search for nodes in the knowledge graph based on a query */
  search_nodes(args: SearchNodesArgs): Promise<OpenNodesOutput>;
};
