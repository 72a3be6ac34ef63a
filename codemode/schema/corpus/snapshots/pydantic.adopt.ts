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

/** Adopt a pet. */
type AdoptArgs = {
  pet: Adopt_Cat | Adopt_Dog;
  owner: Adopt_Person;
  /** format: date-time */
  when: string;
  /** default: 1 */
  priority?: Adopt_Priority;
};

type Adopt_Cat = {
  pet_type: "cat";
  /** value ≥ 0 */
  meows: number;
};

type Adopt_Dog = {
  pet_type: "dog";
  /** 0 < value ≤ 10.5 */
  barks: number;
};

type Adopt_Person = {
  /** Full name. */
  name: string;
  /** Contact address. */
  email?: string;
  /** format: date */
  birthday?: string;
  home?: Adopt_Address;
  /** default: "blue" */
  favourite?: Adopt_Color;
};

/** An enumeration. */
type Adopt_Priority = 1 | 2;

/** A postal address. */
type Adopt_Address = {
  street: string;
  /** 1 ≤ length ≤ 80 */
  city: string;
  /** pattern: ^[0-9]{5}$ */
  postcode?: string;
};

/** An enumeration. */
type Adopt_Color = "red" | "green" | "blue";

/** Person */
type AdoptOutput = {
  /** Full name. */
  name: string;
  /** Contact address. */
  email?: string;
  /** format: date */
  birthday?: string;
  home?: Adopt_Address2;
  /** default: "blue" */
  favourite?: Adopt_Color2;
};

/** A postal address. */
type Adopt_Address2 = {
  street: string;
  /** 1 ≤ length ≤ 80 */
  city: string;
  /** pattern: ^[0-9]{5}$ */
  postcode?: string;
};

/** An enumeration. */
type Adopt_Color2 = "red" | "green" | "blue";

declare const tools: {
  /** Adopt a pet for a person. */
  adopt(args: AdoptArgs): Promise<AdoptOutput>;
};
