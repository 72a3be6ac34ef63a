// Each tool below is an async method of the global `tools` object. Call it with one arguments
// object and await the result: `const result = await tools.name(args);`. A tool whose name is
// quoted below is called with brackets: `await tools["some-name"](args)`.
// A call that fails throws a ToolCallError; its `toolName` says which tool failed.
// Arguments and results are plain JSON data; the types below describe their shape.

declare class ToolCallError extends Error {
  /** The name of the tool whose call failed. */
  readonly toolName: string;
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
