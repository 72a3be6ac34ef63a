// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

type Tag = {
  id?: number;
  label?: string;
};

type Pet = {
  /** read-only; format: int64 */
  id: number;
  /** length ≤ 64 */
  name?: string | null;
  petType: string;
  tags?: Tag[] | null;
};

type CreatePetArgs = {
  body: {
    /** read-only; format: int64 */
    id: number;
    /** length ≤ 64 */
    name?: string | null;
    petType: "cat";
    tags?: Tag[] | null;
    /** default: "lazy" */
    huntingSkill?: "lazy" | "aggressive";
  } | {
    /** read-only; format: int64 */
    id: number;
    /** length ≤ 64 */
    name?: string | null;
    petType: "Dog";
    tags?: Tag[] | null;
    /** value ≥ 0 */
    packSize: number | null;
  };
};

declare const tools: {
  /** Create a pet. */
  createPet(args: CreatePetArgs): Promise<Pet>;
};
