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

type CreatePetArgs = {
  body: {
    /** read-only; format: int64 */
    id: number;
    /** length ≤ 64 */
    name?: string | null;
    petType: "cat";
    tags?: CreatePet_Tag[] | null;
    /** default: "lazy" */
    huntingSkill?: "lazy" | "aggressive";
  } | {
    /** read-only; format: int64 */
    id: number;
    /** length ≤ 64 */
    name?: string | null;
    petType: "Dog";
    tags?: CreatePet_Tag[] | null;
    /** value ≥ 0 */
    packSize: number | null;
  };
};

type CreatePet_Tag = {
  id?: number;
  label?: string;
};

type CreatePetOutput = CreatePet_Pet;

type CreatePet_Pet = {
  /** read-only; format: int64 */
  id: number;
  /** length ≤ 64 */
  name?: string | null;
  petType: string;
  tags?: CreatePet_Tag2[] | null;
};

type CreatePet_Tag2 = {
  id?: number;
  label?: string;
};

declare const tools: {
  /** Create a pet. */
  createPet(args: CreatePetArgs): Promise<CreatePetOutput>;
};
