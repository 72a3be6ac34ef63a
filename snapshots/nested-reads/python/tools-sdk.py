# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are
# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain
# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.
# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.
from typing import Any, Literal, Optional, TypedDict, Union


class GetForecastArgs(TypedDict):
    # City name, as listed by list_cities.
    city: str
    # How many days, 1 to 7.
    days: int


class GetForecastTemperature(TypedDict):
    # Degrees Celsius.
    high: float
    # Degrees Celsius.
    low: float


class GetForecastSky(TypedDict):
    rainChance: int
    summary: Literal["clear", "cloudy", "showers"]


class GetForecastDaysItem(TypedDict):
    date: str
    sky: GetForecastSky
    temperature: GetForecastTemperature


class GetForecastOutput(TypedDict):
    city: str
    country: str
    days: list[GetForecastDaysItem]


class ListCitiesCitiesItem(TypedDict):
    country: str
    name: str


class ListCitiesOutput(TypedDict):
    cities: list[ListCitiesCitiesItem]


class ToolCallError(Exception):
    toolName: str
    code: Union[str, int, None]
    data: Any


class Tools:
    async def get_forecast(self, args: GetForecastArgs) -> GetForecastOutput:
        """Daily forecast for one city, one entry per day starting today."""

    async def list_cities(self, args: dict[str, Any]) -> ListCitiesOutput:
        """Every city with a forecast."""


tools: Tools
