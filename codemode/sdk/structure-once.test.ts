import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../tools/types.js';
import { renderPythonSdk } from './python/index.js';
import { renderTypeScriptSdk } from './typescript/index.js';

/** A postal address, written as a fresh object each time: equal structures, never the same object. */
const address = () => ({
  type: 'object',
  description: 'Where to deliver.',
  properties: { street: { type: 'string' }, city: { type: 'string' } },
  required: ['city'],
});

const tools = (): ToolDefinition[] => [
  {
    name: 'ship',
    description: 'Ships an order.',
    parameters: { type: 'object', properties: { to: address(), from: address() }, required: ['to'] },
    output: { type: 'object', properties: { delivered_to: address() } },
  },
  {
    name: 'quote',
    description: 'Prices a delivery.',
    parameters: { type: 'object', properties: { to: address() }, required: ['to'] },
  },
  {
    name: 'track',
    description: 'Where an order is.',
    // The same arguments as quote's, as another object.
    parameters: { type: 'object', properties: { to: address() }, required: ['to'] },
  },
];

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('an object schema that appears more than once', () => {
  it('is one Python class wherever it appears: arguments, output, other tools', () => {
    const sdk = renderPythonSdk(tools(), { pythonFloor: '3.9' });
    expect(count(sdk, /^ {4}street: str$/gm)).toBe(1);
    // Named where it first appears, in tool order: the `to` of the arguments quote (which sorts first) and track
    // both take, named after their one field.
    expect(sdk).toContain('class _ToArgsToRequired(TypedDict):\n    city: str\n');
    expect(sdk).toMatch(/^ {4}delivered_to: ToArgsTo$/m);
    expect(sdk).toMatch(/^ {8}"from": ToArgsTo,$/m);
    // The fields that hold it say what it is; the class does not say it again.
    expect(count(sdk, /Where to deliver\./g)).toBe(4);
    // Equal arguments are one class too, named after their one field (neither tool's own).
    expect(sdk).toContain('async def quote(self, args: ToArgs) -> Any:');
    expect(sdk).toContain('async def track(self, args: ToArgs) -> Any:');
    expect(sdk).not.toMatch(/QuoteArgs|TrackArgs/);
  });

  it('is a Python class written before every class that names it, wherever it was met first', () => {
    const point = () => ({
      type: 'object',
      properties: { x: { type: 'integer' }, y: { type: 'integer' } },
      required: ['x', 'y'],
    });
    // The point is met first as the items of `points`, then as a field of the class of `view`, which was queued
    // before the point's own class: CPython would read `origin: PlotPointsItem` before the class exists.
    const sdk = renderPythonSdk(
      [
        {
          name: 'plot',
          description: 'Plots points.',
          parameters: {
            type: 'object',
            properties: {
              points: { type: 'array', items: point() },
              view: { type: 'object', properties: { origin: point(), label: obj({ text: { type: 'string' } }) } },
            },
          },
        },
      ],
      { pythonFloor: '3.9' },
    );
    expect(sdk.match(/^class \w+/gm)).toEqual([
      'class PlotLabel',
      'class PlotPointsItem',
      'class PlotView',
      'class PlotArgs',
      'class ToolCallError',
      'class Tools',
    ]);
    expect(sdk).toContain(
      'class PlotView(TypedDict, total=False):\n    label: PlotLabel\n    origin: PlotPointsItem\n',
    );
  });

  it('is one TypeScript type wherever it appears, declared where it first appears', () => {
    const sdk = renderTypeScriptSdk(tools());
    expect(count(sdk, /^ {2}street\?: string;$/gm)).toBe(1);
    expect(sdk).toContain('type ToArgs_To = {\n  street?: string;\n  city: string;\n};');
    expect(sdk).toMatch(/^ {2}to: ToArgs_To;$/m);
    expect(sdk).toMatch(/^ {2}from\?: ToArgs_To;$/m);
    expect(sdk).toMatch(/^ {2}delivered_to\?: ToArgs_To;$/m);
    expect(sdk).toContain('  quote(args: ToArgs): Promise<unknown>;');
    expect(sdk).toContain('  track(args: ToArgs): Promise<unknown>;');
    // The field keeps the description; the shared type does not repeat it.
    expect(count(sdk, /Where to deliver\./g)).toBe(4);
  });

  it('is written inline when it appears once', () => {
    const one: ToolDefinition[] = [
      { name: 'ship', description: '', parameters: { type: 'object', properties: { to: address() } } },
    ];
    expect(renderTypeScriptSdk(one)).toContain('type ShipArgs = {\n  /** Where to deliver. */\n  to?: {\n');
  });

  it('stays two types when the structures differ in anything written (a description, a required key)', () => {
    const other = { ...address(), description: 'Where to bill.' };
    const differing: ToolDefinition[] = [
      { name: 'a', description: '', parameters: { type: 'object', properties: { x: address() } } },
      { name: 'b', description: '', parameters: { type: 'object', properties: { x: other } } },
      { name: 'c', description: '', parameters: { type: 'object', properties: { x: { ...address(), required: [] } } } },
    ];
    expect(count(renderPythonSdk(differing, { pythonFloor: '3.11' }), /^ {4}street: /gm)).toBe(3);
    expect(count(renderTypeScriptSdk(differing), /^ +street\?: string;$/gm)).toBe(3);
  });

  it('is one type whatever it is titled: a title names the type, as class-based generators write it', () => {
    // A model's schema: titled at the root, its nested models as definitions.
    const member = () => ({
      title: 'Member',
      type: 'object',
      properties: { name: { type: 'string' }, since: { type: 'string', format: 'date' } },
      required: ['name'],
    });
    const titled: ToolDefinition[] = [
      {
        name: 'enrol',
        description: '',
        parameters: member(),
        output: { ...member(), title: 'Enrolled' },
      },
      {
        name: 'list_team',
        description: '',
        parameters: { type: 'object', properties: {} },
        output: {
          type: 'object',
          properties: { lead: { $ref: '#/$defs/Member' } },
          required: ['lead'],
          $defs: { Member: member() },
        },
      },
    ];
    const python = renderPythonSdk(titled, { pythonFloor: '3.11' });
    expect(count(python, /^ {4}since: /gm)).toBe(1);
    expect(python).toContain('async def enrol(self, args: Member) -> Member:');
    const typescript = renderTypeScriptSdk(titled);
    expect(count(typescript, /^ +since\?: string;$/gm)).toBe(1);
    expect(typescript).toContain('  enrol(args: Member): Promise<Member>;');
    // Alone, a title is still what the type says of itself.
    const alone = [titled[0]!];
    expect(renderPythonSdk(alone, { pythonFloor: '3.11' })).toContain(
      'class EnrolArgs(TypedDict):\n    """Member"""\n',
    );
    expect(renderTypeScriptSdk(alone)).toContain('/** Member */\ntype EnrolArgs = {');
  });

  it('is its one type far down a chain of unions too, past where structures are compared', () => {
    // 300 unions, each an object of one structure or the next union: its last arms lie 600 schema levels down.
    let value: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 300; level++) value = { oneOf: [{ type: 'object', properties: { a: {} } }, value] };
    const chained: ToolDefinition[] = [
      { name: 'deep', description: '', parameters: { type: 'object', properties: { v: value }, required: ['v'] } },
    ];
    // The one object whose fields straddle the horizon is compared as a structure of its own: one more type.
    const typescript = renderTypeScriptSdk(chained);
    expect(count(typescript, /\| Deep_V\b/g)).toBeGreaterThanOrEqual(298);
    expect(count(typescript, /^ +a\?: unknown;$/gm)).toBeLessThanOrEqual(2);
    expect(count(renderPythonSdk(chained, { pythonFloor: '3.11' }), /^class /gm)).toBeLessThanOrEqual(5);
  });
});
