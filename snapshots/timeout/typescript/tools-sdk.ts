// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
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
  list_cities(args: Record<string, never>): Promise<ListCitiesOutput>;
};
