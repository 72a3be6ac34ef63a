import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../tools/types.js';
import { MAX_TYPE_DEPTH } from '../depth.js';
import { MAX_CLASS_NAME } from './class-names.js';
import { pythonCommentLines, pythonDocstring, pythonStringLiteral } from './escape.js';
import { renderPythonSdk } from './index.js';
import { MAX_NESTING } from './type-expressions.js';

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const tool = (name: string, parameters: unknown = obj({}), extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: '',
  parameters,
  ...extra,
});
const linesOf = (text: string) => text.split('\n');
/** The lines of the `class Tools:` body. */
const toolsBody = (text: string) => {
  const lines = linesOf(text);
  const start = lines.indexOf('class Tools:');
  return lines
    .slice(start + 1, lines.indexOf('tools: Tools'))
    .filter((line, i, all) => line !== '' || all.slice(i).some(Boolean));
};

describe('layout', () => {
  it('states that only tools and ToolCallError exist at run time, and that arguments are plain dicts', () => {
    const text = renderPythonSdk([tool('a')]);
    expect(text).toMatch(/only `tools` and `ToolCallError` exist/);
    expect(text).toMatch(/for reading, never import, construct or name them/);
    expect(text).toMatch(/plain\n?#? ?dict/);
    expect(text.trimEnd().endsWith('tools: Tools')).toBe(true);
  });

  it('writes one async method per tool, sorted by name in code-unit order, with the description as its docstring', () => {
    const text = renderPythonSdk([
      tool('b', obj({ x: { type: 'string' } }, ['x']), { description: 'Second.' }),
      tool('B', obj({}), { description: 'Upper first.' }),
      tool('a', obj({}), { description: 'First.' }),
    ]);
    const body = toolsBody(text).filter((line) => line.trim() !== '');
    expect(body).toEqual([
      '    async def B(self, args: dict[str, Any]) -> Any:',
      '        """Upper first."""',
      '    async def a(self, args: dict[str, Any]) -> Any:',
      '        """First."""',
      '    async def b(self, args: BArgs) -> Any:',
      '        """Second."""',
    ]);
    expect(text).toContain('class BArgs(TypedDict):\n    x: str\n');
  });

  it('never names a class like a method of Tools, which would shadow it in later annotations', () => {
    const text = renderPythonSdk([tool('b', obj({ x: { type: 'string' } })), tool('BArgs')]);
    // A collision: the class takes a suffix derived from its own tool, b.
    expect(text).toContain('async def b(self, args: BArgs_e70c2d) -> Any:');
    expect(text).toContain('async def BArgs(self, args: dict[str, Any]) -> Any:');
  });

  it('lists a non-bare tool as a tools["name"] comment in its sorted place, and needs pass when no method remains', () => {
    const mixed = toolsBody(
      renderPythonSdk([tool('z'), tool('a-b', obj({}), { description: 'Dashed.\nTwo lines.' }), tool('c')]),
    );
    expect(mixed.filter((line) => line !== '')).toEqual([
      '    # await tools["a-b"](args: dict[str, Any]) -> Any',
      '    #   Dashed.',
      '    #   Two lines.',
      '    async def c(self, args: dict[str, Any]) -> Any:',
      '        ...',
      '    async def z(self, args: dict[str, Any]) -> Any:',
      '        ...',
    ]);
    const onlyComments = toolsBody(renderPythonSdk([tool('x-y'), tool('class'), tool('__init__'), tool('__private')]));
    expect(onlyComments.at(-1)).toBe('    pass');
    expect(onlyComments.filter((line) => line.startsWith('    # await'))).toEqual([
      '    # await tools["__init__"](args: dict[str, Any]) -> Any',
      '    # await tools["__private"](args: dict[str, Any]) -> Any',
      '    # await tools["class"](args: dict[str, Any]) -> Any',
      '    # await tools["x-y"](args: dict[str, Any]) -> Any',
    ]);
  });

  it('keeps soft keywords as method names', () => {
    const body = toolsBody(renderPythonSdk([tool('match'), tool('type'), tool('_'), tool('case')]));
    expect(body.filter((line) => line.includes('async def')).map((line) => line.trim().split('(')[0])).toEqual([
      'async def _',
      'async def case',
      'async def match',
      'async def type',
    ]);
  });

  it('gives byte-identical text for any order of the same tools', () => {
    const tools = [
      tool('b'),
      tool('a', obj({ q: { type: 'integer' } })),
      tool('c-d'),
      tool('a', obj({}), { description: 'dup' }),
    ];
    const first = renderPythonSdk(tools);
    expect(renderPythonSdk([...tools].reverse())).toBe(first);
    expect(renderPythonSdk([tools[2]!, tools[0]!, tools[3]!, tools[1]!])).toBe(first);
  });
});

describe('TypedDicts', () => {
  const weather = tool(
    'get_weather',
    obj({ where: obj({ lat: { type: 'number' } }, ['lat']), units: { enum: ['c', 'f'] } }, ['where']),
    {
      output: { type: 'array', items: obj({ temp: { type: 'number', description: 'Celsius' } }, ['temp']) },
    },
  );

  it('from 3.11 marks optional fields NotRequired, sorts fields, and names a nested class after its tool and field', () => {
    const text = renderPythonSdk([weather], { pythonFloor: '3.11' });
    expect(text).toContain('from typing import Any, Literal, NotRequired, TypedDict, Union\n');
    expect(text).toContain(
      'class GetWeatherWhere(TypedDict):\n    lat: float\n\n\nclass GetWeatherArgs(TypedDict):\n' +
        '    units: NotRequired[Literal["c", "f"]]\n    where: GetWeatherWhere\n',
    );
    expect(text).toContain('class GetWeatherOutputItem(TypedDict):\n    # Celsius\n    temp: float\n');
    expect(text).toContain('async def get_weather(self, args: GetWeatherArgs) -> list[GetWeatherOutputItem]:');
    // Nested classes come before the classes that use them.
    expect(text.indexOf('class GetWeatherWhere')).toBeLessThan(text.indexOf('class GetWeatherArgs('));
  });

  it('before 3.11 keeps required keys in a base class and optional ones in a total=False subclass', () => {
    for (const floor of ['3.9', '3.10'] as const) {
      const text = renderPythonSdk([weather], { pythonFloor: floor });
      expect(text).not.toContain('NotRequired');
      expect(text).toContain(
        'class GetWeatherWhere(TypedDict):\n    lat: float\n\n\nclass _GetWeatherArgsRequired(TypedDict):\n' +
          '    where: GetWeatherWhere\n\n\nclass GetWeatherArgs(_GetWeatherArgsRequired, total=False):\n' +
          '    units: Literal["c", "f"]\n',
      );
      expect(text).toContain('async def get_weather(self, args: GetWeatherArgs) -> list[GetWeatherOutputItem]:');
    }
    // All keys optional: one total=False class, no base.
    expect(renderPythonSdk([tool('t', obj({ a: { type: 'string' } }))], { pythonFloor: '3.10' })).toContain(
      'class TArgs(TypedDict, total=False):\n    a: str\n',
    );
  });

  it('writes unions with | from 3.10, as Optional and Union before, and builtin generics from 3.9', () => {
    const unions = tool(
      'u',
      obj(
        {
          a: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          b: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
          c: { type: 'array', items: { type: 'object', additionalProperties: { type: 'integer' } } },
        },
        ['a', 'b', 'c'],
      ),
    );
    const at = (floor: '3.8' | '3.9' | '3.10') => renderPythonSdk([unions], { pythonFloor: floor });
    expect(at('3.10')).toContain(
      'class UArgs(TypedDict):\n    a: str | None\n    b: str | int | None\n    c: list[dict[str, int]]\n',
    );
    expect(at('3.10')).toContain('from typing import Any, Literal, TypedDict, Union\n');
    expect(at('3.9')).toContain(
      'class UArgs(TypedDict):\n    a: Optional[str]\n    b: Union[str, int, None]\n    c: list[dict[str, int]]\n',
    );
    expect(at('3.9')).toContain('from typing import Any, Literal, Optional, TypedDict, Union\n');
    expect(at('3.8')).toContain('    c: List[Dict[str, int]]\n');
    expect(at('3.8')).toContain('from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union\n');
    for (const floor of ['3.8', '3.9'] as const) expect(at(floor)).not.toMatch(/ \| /);
  });

  it('uses the functional form when a key cannot be a class-body field', () => {
    for (const key of ['class', 'a-b', '__private', '__dunder__', '\ufb01', '1x', '__peg_parser__', '']) {
      const tools = [tool('t', obj({ [key]: { type: 'string' }, ok: { type: 'integer' } }, ['ok']))];
      const fields = [`${pythonStringLiteral(key)}: NotRequired[str],`, '"ok": int,'];
      if (key > 'ok') fields.reverse();
      expect(renderPythonSdk(tools, { pythonFloor: '3.11' }), key).toContain(
        `TArgs = TypedDict(\n    "TArgs",\n    {\n        ${fields.join('\n        ')}\n    },\n)`,
      );
      // Before 3.11 the optional odd key goes to a functional total=False base; the required key stays a field.
      expect(renderPythonSdk(tools), key).toContain(
        `_TArgsOptional = TypedDict(\n    "_TArgsOptional",\n    {\n        ${pythonStringLiteral(key)}: str,\n    },\n    total=False,\n)\n\n\n` +
          'class TArgs(_TArgsOptional):\n    ok: int\n',
      );
    }
    expect(renderPythonSdk([tool('t', obj({ match: { type: 'string' } }))], { pythonFloor: '3.11' })).toContain(
      'class TArgs(TypedDict):\n    match: NotRequired[str]',
    );
    // A required odd key goes to a functional base; the optional field to the subclass.
    expect(
      renderPythonSdk([tool('t', obj({ 'a-b': { type: 'string' }, ok: { type: 'integer' } }, ['a-b']))]),
    ).toContain(
      '_TArgsRequired = TypedDict(\n    "_TArgsRequired",\n    {\n        "a-b": str,\n    },\n)\n\n\nclass TArgs(_TArgsRequired, total=False):\n    ok: int\n',
    );
    // Odd keys on both sides: one total=False form, each required key marked.
    expect(
      renderPythonSdk([tool('t', obj({ 'a-b': { type: 'string' }, 'c-d': { type: 'integer' } }, ['c-d']))]),
    ).toContain(
      'TArgs = TypedDict(\n    "TArgs",\n    {\n        "a-b": str,\n        # required\n        "c-d": int,\n    },\n    total=False,\n)',
    );
  });

  it('puts a description first in the class body', () => {
    const text = renderPythonSdk([tool('t', { ...obj({ a: { type: 'null' } }), description: 'A "thing"' })]);
    expect(text).toContain('class TArgs(TypedDict, total=False):\n    """A "thing\\""""\n    a: None');
  });
});

describe('class names', () => {
  const argsClass = (name: string) =>
    /class (\S+)\(TypedDict(?:, total=False)?\)/u.exec(
      renderPythonSdk([tool(name, obj({ a: { type: 'string' } }))]),
    )?.[1];

  it('prefixes a name that cannot start an identifier, then normalizes the join', () => {
    expect(argsClass('3d-model')).toBe('Tool3dModelArgs');
    expect(argsClass('')).toBe('ToolArgs');
    // Tool + U+0301 COMBINING ACUTE composes to "Tooĺ": the declared name is the one CPython stores.
    expect(argsClass('\u0301x')).toBe('Too\u013axArgs');
  });

  it('normalizes Hangul jamo composed across a join, short or long', () => {
    // Tool base T + field U+1100 (L) is Tᄀ; the other root field U+1161 (V) takes Tᅡ, so Tᄀ's own U+1161 field
    // takes the long form, parent + field, where L and V compose to U+AC00.
    const text = renderPythonSdk([
      tool(
        't',
        obj({ '\u1100': obj({ '\u1161': obj({ b: { type: 'string' } }) }), '\u1161': obj({ c: { type: 'string' } }) }),
      ),
    ]);
    const names = [...text.matchAll(/^class (\S+)\(TypedDict(?:, total=False)?\)/gmu)].map((m) => m[1]!);
    for (const name of names) expect(name.normalize('NFKC'), name).toBe(name);
    expect(names.sort()).toEqual(['TArgs', 'T\u1100', 'T\u1161', 'T\uac00']);
  });

  it('settles collisions with a suffix from each tool, including names that only collide after normalization', () => {
    // Each tool's arguments have a structure of their own (one structure would be one class).
    const text = renderPythonSdk([
      tool('a_b', obj({ x: { type: 'string' } })),
      tool('ab', obj({ y: { type: 'string' } })),
      tool('a-b', obj({ z: { type: 'string' } })),
      // U+FF21 FULLWIDTH LATIN CAPITAL LETTER A: NFKC folds it to A.
      tool('\uff21b', obj({ w: { type: 'string' } })),
      tool('Ab', obj({ v: { type: 'string' } })),
    ]);
    const names = [...text.matchAll(/^(?:class (\S+)\(TypedDict(?:, total=False)?\)|(\S+) = TypedDict\()/gmu)].map(
      (m) => m[1] ?? m[2],
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => /^(AB|Ab)Args_[0-9a-f]{6}$/.test(name ?? ''))).toBe(true);
    // A tool's suffix is its own: the same tool among other colliding tools keeps its name.
    const alone = renderPythonSdk([
      tool('a_b', obj({ x: { type: 'string' } })),
      tool('a-b', obj({ z: { type: 'string' } })),
    ]);
    const aB = /async def a_b\(self, args: (\S+)\)/.exec(text)![1]!;
    expect(/async def a_b\(self, args: (\S+)\)/.exec(alone)![1]).toBe(aB);
  });

  const order = (name: string, properties: Record<string, unknown>, defs: Record<string, unknown>) =>
    tool(name, { ...obj(properties, Object.keys(properties)), $defs: defs });
  const money = {
    type: 'object',
    properties: { amount: { type: 'integer' }, currency: { $ref: '#/$defs/Currency' } },
    required: ['amount', 'currency'],
  };
  const defs = { Money: money, Currency: { enum: ['EUR', 'USD'] } };

  it('writes a $defs definition with one structure as one class named after it, before the tools that share it', () => {
    const text = renderPythonSdk([
      order('list_orders', { max: { $ref: '#/$defs/Money' } }, defs),
      order('get_order', { total: { $ref: '#/$defs/Money' }, tax: { $ref: '#/$defs/Money' } }, defs),
      {
        ...order('refund', { amount: { $ref: '#/$defs/Money' } }, defs),
        output: { $ref: '#/$defs/Money', $defs: defs },
      },
    ]);
    expect(text.match(/^class \S+\(TypedDict\)/gm)).toEqual([
      'class Money(TypedDict)',
      'class GetOrderArgs(TypedDict)',
      'class ListOrdersArgs(TypedDict)',
      'class RefundArgs(TypedDict)',
    ]);
    expect(text).toContain(
      'Currency = Literal["EUR", "USD"]\n\n\nclass Money(TypedDict):\n    amount: int\n    currency: Currency\n',
    );
    expect(text).toContain('    tax: Money\n    total: Money\n');
    expect(text).toContain('async def refund(self, args: RefundArgs) -> Money:');
  });

  it('keeps a definition name with two structures with each tool, one class per structure named where it first appears', () => {
    const other = { Money: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] } };
    const shared = [
      order('get_order', { total: { $ref: '#/$defs/Money' } }, defs),
      order('list_orders', { max: { $ref: '#/$defs/Money' } }, defs),
    ];
    const text = renderPythonSdk([...shared, order('a_refund', { amount: { $ref: '#/$defs/Money' } }, other)]);
    expect(text).toContain('class ARefundMoney(TypedDict):\n    cents: int\n');
    expect(text).toContain('class GetOrderMoney(TypedDict):\n    amount: int\n');
    // list_orders' Money has get_order's structure: it is that class.
    expect(text).not.toContain('ListOrdersMoney');
    expect(text).toContain('class ListOrdersArgs(TypedDict):\n    max: GetOrderMoney\n');
    // Currency has one structure still: shared.
    expect(text).toContain('\nCurrency = Literal["EUR", "USD"]\n');
    expect(text).not.toMatch(/^class Money\(/m);
  });

  it('does not upper-case to a letter the floor lacks', () => {
    expect(argsClass('\u019bx')).toBe('\u019bxArgs');
    expect(
      /class (\S+)\(TypedDict(?:, total=False)?\)/u.exec(
        renderPythonSdk([tool('\u019bx', obj({ a: { type: 'string' } }))], { pythonFloor: '3.14' }),
      )?.[1],
    ).toBe('\ua7dcxArgs');
  });

  it('writes a 4,000-deep single-field chain as MAX_TYPE_DEPTH classes, the deepest field a dict', () => {
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 4000; i++) schema = obj({ field: schema }, ['field']);
    const text = renderPythonSdk([tool('deep', schema)]);
    const names = [...text.matchAll(/^class (\S+)\(TypedDict(?:, total=False)?\)/gmu)].map((m) => m[1]!);
    expect(names.length).toBe(MAX_TYPE_DEPTH);
    expect(new Set(names).size).toBe(MAX_TYPE_DEPTH);
    for (const name of names) expect([...name].length).toBeLessThanOrEqual(MAX_CLASS_NAME + 4);
    expect(text.match(/^ {4}field: dict\[str, Any\]$/gm)).toHaveLength(1);
    // A chain exactly as deep as the cap: every level is a class.
    let shallow: unknown = { type: 'string' };
    for (let i = 0; i < MAX_TYPE_DEPTH; i++) shallow = obj({ field: shallow }, ['field']);
    const exact = renderPythonSdk([tool('deep', shallow)]);
    expect(exact.match(/^class \S+\(TypedDict\)/gm)).toHaveLength(MAX_TYPE_DEPTH);
    expect(exact).toContain('    field: str\n');
    expect(exact).not.toContain('dict[str, Any]');
  });
});

describe('values and limits', () => {
  it('writes integers exactly, 1e300 and 2^53 + 2 included, and non-integral numbers as float', () => {
    const text = renderPythonSdk([tool('n', obj({ a: { enum: [1e300, 2 ** 53 + 2, -5, 0.5] } }, ['a']))]);
    expect(text).toContain(`a: Union[Literal[${BigInt(1e300)}, 9007199254740994, -5], float]`);
    expect(BigInt(1e300).toString()).toMatch(
      /^1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160$/,
    );
  });

  it('caps list nesting below MAX_NESTING open brackets on any line', () => {
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 250; i++) schema = { type: 'array', items: schema };
    const text = renderPythonSdk([tool('deep', obj({ a: schema }, ['a'])), tool('out', obj({}), { output: schema })]);
    for (const line of linesOf(text)) {
      let depth = 0;
      let most = 0;
      for (const char of line) {
        if (char === '[' || char === '(' || char === '{') most = Math.max(most, ++depth);
        if (char === ']' || char === ')' || char === '}') depth--;
      }
      expect(most).toBeLessThanOrEqual(MAX_NESTING);
    }
    expect(text).toContain('list[Any]');
  });

  it('merges const and enum arms into one Literal and writes a long union flat', () => {
    const arms = Array.from({ length: 5000 }, (_, i) => ({ const: `v${i}` }));
    const merged = renderPythonSdk(
      [tool('u', obj({ a: { oneOf: [{ type: 'string' }, ...arms, { type: 'null' }] } }, ['a']))],
      { pythonFloor: '3.10' },
    );
    expect(merged).toMatch(/ {4}a: str \| Literal\["v0", "v1", .*"v4999"\] \| None\n/);
    const objects = Array.from({ length: 10 }, (_, i) => obj({ [`k${i}`]: { type: 'integer' } }));
    const flat = renderPythonSdk([tool('u', obj({ a: { oneOf: objects } }, ['a']))], { pythonFloor: '3.10' });
    expect(flat).toContain('    a: Union[UA, UArgsA, UA2, UA3, UA4, UA5, UA6, UA7, UA8, UA9]\n');
    expect(flat).not.toMatch(/UA \|/);
  });

  it('splices a 100,000-deep oneOf chain into one union', () => {
    let schema: unknown = { const: 0 };
    for (let i = 1; i < 100_000; i++) schema = { oneOf: [{ const: i }, schema] };
    const text = renderPythonSdk([tool('chain', obj({ a: schema }, ['a']))]);
    expect(text).toContain('    a: Literal[99999, 99998, ');
  });

  it('degrades only the part with no type to Any and never throws on malformed tools', () => {
    const text = renderPythonSdk([
      tool('bad', { type: 'object', properties: { a: { type: 'date' } } }, { output: { anyOf: [] } }),
      { name: 7, description: null, parameters: null } as unknown as ToolDefinition,
    ]);
    expect(text).toContain('class BadArgs(TypedDict, total=False):\n    a: Any\n');
    expect(text).toContain('async def bad(self, args: BadArgs) -> Any:');
    expect(text).toContain('# await tools["7"](args: Any) -> Any');
  });

  it('refuses an unsupported floor loudly', () => {
    expect(() => renderPythonSdk([], { pythonFloor: '3.7' })).toThrow(/unsupported Python floor/);
  });
});

describe('escaping', () => {
  it('string literals spell controls, separators, surrogates and quotes as escapes', () => {
    expect(pythonStringLiteral('a"b\\c\n\r\t\0\x7f\x85\u2028\u2029\ud800\u202e\ufeffé😀')).toBe(
      '"a\\"b\\\\c\\n\\r\\t\\x00\\x7f\\x85\\u2028\\u2029\\ud800\\u202e\\ufeffé😀"',
    );
  });

  it('docstrings escape only the quotes that could close them', () => {
    expect(pythonDocstring('say "hi"', '')).toBe('"""say "hi\\""""');
    expect(pythonDocstring('""""', '')).toBe('"""\\"\\"\\"\\""""');
    expect(pythonDocstring('a\r\nb\rc\fd\\', '  ')).toBe('"""a\n  b\n  c\\x0cd\\\\"""');
    // A surrogate value would not compile as a docstring on 3.13: it is shown as text instead.
    expect(pythonDocstring('x\ud800', '')).toBe('"""x\\\\ud800"""');
  });

  it('comments split on every line ending CPython knows and escape the rest', () => {
    expect(pythonCommentLines('a\rb\r\nc\nd\u2028e\x0bf\0', '  ')).toEqual([
      '  # a',
      '  # b',
      '  # c',
      '  # d\\u2028e\\x0bf\\x00',
    ]);
  });
});
