// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

/** A postal address. */
type Address = {
  street: string;
  /** 1 ≤ length ≤ 80 */
  city: string;
  /** pattern: ^[0-9]{5}$ */
  postcode?: string;
};

type Cat = {
  pet_type: "cat";
  /** value ≥ 0 */
  meows: number;
};

/** An enumeration. */
type Color = "red" | "green" | "blue";

type Dog = {
  pet_type: "dog";
  /** 0 < value ≤ 10.5 */
  barks: number;
};

/** An enumeration. */
type Priority = 1 | 2;

type Person = {
  /** Full name. */
  name: string;
  /** Contact address. */
  email?: string;
  /** format: date */
  birthday?: string;
  home?: Address;
  /** default: "blue" */
  favourite?: Color;
};

/** Adopt a pet. */
type AdoptArgs = {
  pet: Cat | Dog;
  owner: Person;
  /** format: date-time */
  when: string;
  /** default: 1 */
  priority?: Priority;
};

declare const tools: {
  /** Adopt a pet for a person. */
  adopt(args: AdoptArgs): Promise<Person>;
};
