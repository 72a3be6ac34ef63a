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

type Tool2faVerifyArgs = {
  text: string;
};

type Tool2faVerifyOutput = {
  tool: string;
  args: {
    text: string;
  };
};

type ProtoArgs = {
  text: string;
};

type ProtoOutput = {
  tool: string;
  args: {
    text: string;
  };
};

type ClassArgs = {
  text: string;
};

type ClassOutput = {
  tool: string;
  args: {
    text: string;
  };
};

type WeatherAlertsArgs = {
  text: string;
};

type WeatherAlertsOutput = {
  tool: string;
  args: {
    text: string;
  };
};

declare const tools: {
  /** Starts with a digit and holds a dot. */
  "2fa.verify"(args: Tool2faVerifyArgs): Promise<Tool2faVerifyOutput>;
  /** A name JavaScript objects treat specially. */
  __proto__(args: ProtoArgs): Promise<ProtoOutput>;
  /** A keyword in Python. */
  class(args: ClassArgs): Promise<ClassOutput>;
  /** A dashed name. */
  "weather-alerts"(args: WeatherAlertsArgs): Promise<WeatherAlertsOutput>;
};
