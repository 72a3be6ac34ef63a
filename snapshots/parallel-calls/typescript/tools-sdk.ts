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

type GetForecastArgs = {
  /** City name, as listed by list_cities. */
  city: string;
  /** How many days, 1 to 7. */
  days: number;
};

type GetForecastOutput = {
  city: string;
  country: string;
  days: {
      date: string;
      temperature: {
        /** Degrees Celsius. */
        high: number;
        /** Degrees Celsius. */
        low: number;
      };
      sky: {
        summary: "clear" | "cloudy" | "showers";
        rainChance: number;
      };
    }[];
};

type ListCitiesArgs = Record<string, never>;

type ListCitiesOutput = {
  cities: {
      name: string;
      country: string;
    }[];
};

declare const tools: {
  /** Daily forecast for one city, one entry per day starting today. */
  get_forecast(args: GetForecastArgs): Promise<GetForecastOutput>;
  /** Every city with a forecast. */
  list_cities(args: ListCitiesArgs): Promise<ListCitiesOutput>;
};
