// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

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

declare const tools: {
  /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
  create_relations(args: CreateRelationsArgs): Promise<CreateRelationsArgs>;
};
