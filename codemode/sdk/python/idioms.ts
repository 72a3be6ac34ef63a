import type { PythonVersion } from '../../tools/types.js';

/**
 * The typing idioms the floor CPython can execute. The stubs are what a model imitates, so they must not
 * only compile on the floor but import there: each idiom is used only from the version that has it.
 */
export interface PythonIdioms {
  /** `A | B` between types (3.10+); older floors write `Union[A, B]` and `Optional[A]`. */
  pipeUnions: boolean;
  /** `NotRequired[T]` from `typing` (3.11+); older floors split required and optional keys by totality. */
  notRequired: boolean;
  /** `list[T]`, `dict[K, V]`, `tuple[...]` (3.9+); 3.8 subscripts `List`, `Dict`, `Tuple` from `typing`. */
  list: string;
  dict: string;
  tuple: string;
  /** The one import line, naming exactly what the floor's `typing` holds and the stubs may use. */
  imports: string;
}

function minorOf(floor: PythonVersion): number {
  return Number(floor.split('.')[1]);
}

/** The idioms for stubs that import on `floor` and every later CPython. */
export function pythonIdioms(floor: PythonVersion): PythonIdioms {
  const minor = minorOf(floor);
  const builtinGenerics = minor >= 9;
  const pipeUnions = minor >= 10;
  const notRequired = minor >= 11;
  const names = ['Any', 'Literal', 'TypedDict', 'Union'];
  if (!builtinGenerics) names.push('Dict', 'List', 'Tuple');
  if (!pipeUnions) names.push('Optional');
  if (notRequired) names.push('NotRequired');
  return {
    pipeUnions,
    notRequired,
    list: builtinGenerics ? 'list' : 'List',
    dict: builtinGenerics ? 'dict' : 'Dict',
    tuple: builtinGenerics ? 'tuple' : 'Tuple',
    imports: `from typing import ${names.sort().join(', ')}`,
  };
}
