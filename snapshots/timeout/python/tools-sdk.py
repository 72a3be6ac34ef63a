# The tools your program can call, described as Python stubs.
# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes
# below are static stubs for reading only: they do not exist at run time, so never import, construct or
# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.
# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact
# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`
# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).
from typing import Any, Literal, Optional, TypedDict, Union


class GetForecastArgs(TypedDict):
    # City name, as listed by list_cities.
    city: str
    # How many days, 1 to 7.
    days: int


class GetForecastOutputDaysItemTemperature(TypedDict):
    # Degrees Celsius.
    high: float
    # Degrees Celsius.
    low: float


class GetForecastOutputDaysItemSky(TypedDict):
    rainChance: int
    summary: Literal["clear", "cloudy", "showers"]


class GetForecastOutputDaysItem(TypedDict):
    date: str
    sky: GetForecastOutputDaysItemSky
    temperature: GetForecastOutputDaysItemTemperature


class GetForecastOutput(TypedDict):
    city: str
    country: str
    days: list[GetForecastOutputDaysItem]


class ListCitiesOutputCitiesItem(TypedDict):
    country: str
    name: str


class ListCitiesOutput(TypedDict):
    cities: list[ListCitiesOutputCitiesItem]


class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    # The code the tool gave with its error (such as "card_declined"), or None.
    code: Union[str, int, None]
    # JSON data the tool gave with its error, or None.
    data: Any


class Tools:
    async def get_forecast(self, args: GetForecastArgs) -> GetForecastOutput:
        """Daily forecast for one city, one entry per day starting today."""

    async def list_cities(self, args: dict[str, Any]) -> ListCitiesOutput:
        """Every city with a forecast."""


tools: Tools
