// Each tool below is an async method of the global `tools` object. Call it with one arguments
// object and await the result: `const result = await tools.name(args);`. A tool whose name is
// quoted below is called with brackets: `await tools["some-name"](args)`.
// A call that fails throws a ToolCallError: `message` says why, `toolName` which tool failed, and
// `code` and `data` carry what the tool gave with its error.
// Arguments and results are plain JSON data; the types below describe their shape.

declare class ToolCallError extends Error {
  /** The name of the tool whose call failed. */
  readonly toolName: string;
  /** The code the tool gave with its error (such as "card_declined"), if any. */
  readonly code?: string | number;
  /** JSON data the tool gave with its error, if any. */
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
  entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
};

type CreateEntitiesOutput = {
  entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
};

type CreateRelationsArgs = {
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
};

type CreateRelationsOutput = {
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
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

type DeleteObservationsOutput = {
  success: boolean;
  message: string;
};

type DeleteRelationsArgs = {
  /** An array of relations to delete */
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
};

type DeleteRelationsOutput = {
  success: boolean;
  message: string;
};

type OpenNodesArgs = {
  /** An array of entity names to retrieve */
  names: string[];
};

type OpenNodesOutput = {
  entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
};

type ReadGraphArgs = Record<string, unknown>;

type ReadGraphOutput = {
  entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
};

type SearchNodesArgs = {
  /** The search query to match against entity names, types, and observation content */
  query: string;
};

type SearchNodesOutput = {
  entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
  relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
};

declare const tools: {
  /** Add new observations to existing entities in the knowledge graph */
  add_observations(args: AddObservationsArgs): Promise<AddObservationsOutput>;
  /** Create multiple new entities in the knowledge graph */
  create_entities(args: CreateEntitiesArgs): Promise<CreateEntitiesOutput>;
  /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
  create_relations(args: CreateRelationsArgs): Promise<CreateRelationsOutput>;
  /** Delete multiple entities and their associated relations from the knowledge graph */
  delete_entities(args: DeleteEntitiesArgs): Promise<DeleteEntitiesOutput>;
  /** Delete specific observations from entities in the knowledge graph */
  delete_observations(args: DeleteObservationsArgs): Promise<DeleteObservationsOutput>;
  /** Delete multiple relations from the knowledge graph */
  delete_relations(args: DeleteRelationsArgs): Promise<DeleteRelationsOutput>;
  /** Open specific nodes in the knowledge graph by their names */
  open_nodes(args: OpenNodesArgs): Promise<OpenNodesOutput>;
  /** Read the entire knowledge graph */
  read_graph(args: ReadGraphArgs): Promise<ReadGraphOutput>;
  /** Search for nodes in the knowledge graph based on a query */
  search_nodes(args: SearchNodesArgs): Promise<SearchNodesOutput>;
};
