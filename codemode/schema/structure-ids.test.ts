import { describe, expect, it } from 'vitest';
import { SchemaLowerings } from './lower.js';
import { type NumberingScope, StructureIds } from './structure-ids.js';

const scope = (): NumberingScope => ({ refKey: (ref) => ref, seen: new Map() });
const hasFields = (node: Record<string, unknown>) => typeof node.properties === 'object';

describe('structure numbers', () => {
  it('are equal for values equal as JSON whatever the order of their keys, and differ otherwise', () => {
    const ids = new StructureIds({ isNamed: () => false });
    const at = scope();
    const a = ids.of({ type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, at);
    const b = ids.of({ required: ['x'], properties: { x: { type: 'string' } }, type: 'object' }, at);
    expect(a).toBe(b);
    expect(ids.of({ type: 'object', properties: { x: { type: 'string' } }, required: [] }, at)).not.toBe(a);
    // Item order counts; a number is not a string.
    expect(ids.of({ enum: [1, 2] }, at)).not.toBe(ids.of({ enum: [2, 1] }, at));
    expect(ids.of({ const: 1 }, at)).not.toBe(ids.of({ const: '1' }, at));
  });

  it('number the named objects inside a value, one number wherever they appear', () => {
    const ids = new StructureIds({ isNamed: hasFields });
    const at = scope();
    const address = () => ({ type: 'object', properties: { city: { type: 'string' } } });
    const args = { type: 'object', properties: { to: address(), from: address() } };
    ids.of(args, at);
    expect(at.seen.get(args.properties.to)).toBe(at.seen.get(args.properties.from));
    expect(at.seen.get(args.properties.to)).not.toBe(at.seen.get(args));
  });

  it('tell whoever asks of each named object the walk reaches, each time, what a reused one holds once', () => {
    const ids = new StructureIds({ isNamed: hasFields });
    const at = scope();
    const city = { type: 'object', properties: { name: { type: 'string' } } };
    const address = { type: 'object', properties: { city } };
    // The same object twice, and an equal one elsewhere.
    const value = {
      type: 'object',
      properties: { home: address, work: address, other: { type: 'object', properties: { town: { ...city } } } },
    };
    const met: number[] = [];
    ids.of(value, at, (id) => met.push(id));
    const [addressId, cityId, otherId] = [
      at.seen.get(address)!,
      at.seen.get(city)!,
      at.seen.get(value.properties.other)!,
    ];
    expect(met.filter((id) => id === addressId)).toHaveLength(2);
    // Once inside the reused address, once inside the other object: one structure.
    expect(met.filter((id) => id === cityId)).toHaveLength(2);
    expect(met.filter((id) => id === otherId)).toHaveLength(1);
    // Not the value itself, and nothing for a value numbered before.
    expect(met).toHaveLength(5);
    ids.of(value, at, (id) => met.push(id));
    expect(met).toHaveLength(5);
  });

  it('read a reference as what it names in its own scope', () => {
    const ids = new StructureIds({ isNamed: () => false });
    const money = (key: string): NumberingScope => ({ refKey: (ref) => `${key} ${ref}`, seen: new Map() });
    const value = () => ({ $ref: '#/$defs/Money' });
    expect(ids.of(value(), money('shared'))).toBe(ids.of(value(), money('shared')));
    expect(ids.of(value(), money('tool a'))).not.toBe(ids.of(value(), money('tool b')));
  });

  it('leave out the keys the options ignore', () => {
    const ids = new StructureIds({ isNamed: () => false, ignores: (_, key) => key === 'description' });
    const at = scope();
    expect(ids.of({ type: 'string', description: 'a' }, at)).toBe(ids.of({ type: 'string' }, at));
  });

  it('give no number to a value that contains itself or cannot be read, and do not hang', () => {
    const ids = new StructureIds({ isNamed: () => false, mayContainItself: true });
    const cyclic: Record<string, unknown> = { type: 'array' };
    cyclic.items = { type: 'object', properties: { next: cyclic } };
    expect(ids.of(cyclic, scope())).toBeUndefined();
    const throwing = Object.defineProperty({ type: 'object' }, 'properties', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(ids.of(throwing, scope())).toBeUndefined();
    // An object reached twice without a cycle is fine.
    const leaf = { type: 'object', properties: { a: { type: 'string' } } };
    expect(ids.of({ oneOf: [leaf, leaf] }, scope())).toBeTypeOf('number');
  });

  it('stay linear on a 100,000-deep chain', () => {
    const ids = new StructureIds({ isNamed: hasFields });
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) node = { type: 'object', properties: { inner: node } };
    const at = scope();
    expect(ids.of(node, at)).toBeTypeOf('number');
    expect(at.seen.size).toBe(100_000);
  });
});

describe('a horizon', () => {
  /** `levels` objects inside one another, the innermost holding `leaf`; each object and its `properties` are levels. */
  const nest = (levels: number, leaf: unknown = { type: 'string' }) => {
    let node = leaf as Record<string, unknown>;
    for (let i = 0; i < levels; i++) node = { type: 'object', properties: { inner: node } };
    return node;
  };

  it('numbers what lies within it and nothing past it, at its exact edge', () => {
    const ids = new StructureIds({ isNamed: hasFields, horizon: 6 });
    // Objects at levels 0, 2, 4 and 6 are read; the one at level 8 is past the horizon.
    const at = scope();
    const value = nest(5);
    ids.of(value, at);
    const numbered: number[] = [];
    for (
      let node = value, level = 0;
      hasFields(node);
      node = (node.properties as Record<string, Record<string, unknown>>).inner!, level += 2
    )
      if (at.seen.has(node)) numbered.push(level);
    expect(numbered).toEqual([0, 2, 4, 6]);
  });

  it('keeps equal what is equal within it, and merges nothing that reaches past it', () => {
    const ids = new StructureIds({ isNamed: hasFields, horizon: 6 });
    const at = scope();
    // Three objects deep (down to level 6 where its leaf's object sits, below which the leaf is a leaf): within.
    expect(ids.of(nest(3), at)).toBe(ids.of(nest(3), at));
    // Five deep reaches level 8: the two are numbered apart, and a value holding both twice has two numbers.
    expect(ids.of(nest(5), at)).not.toBe(ids.of(nest(5), at));
    const both = { type: 'object', properties: { a: nest(4), b: nest(4) } };
    ids.of(both, at);
    expect(at.seen.get(both.properties.a)).not.toBe(at.seen.get(both.properties.b));
    // Without a horizon the same two are one structure.
    const whole = new StructureIds({ isNamed: hasFields });
    expect(whole.of(nest(5), scope())).toBe(whole.of(nest(5), scope()));
  });

  it('reads only so deep on a 100,000-deep chain', () => {
    const ids = new StructureIds({ isNamed: hasFields, horizon: 256 });
    const at = scope();
    expect(ids.of(nest(100_000), at)).toBeTypeOf('number');
    expect(at.seen.size).toBe(129);
  });
});

describe('SchemaLowerings', () => {
  it('lowers roots of one structure once, whatever object holds them', () => {
    const lowerings = new SchemaLowerings();
    const root = () => ({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    const first = lowerings.lower(root());
    expect(lowerings.lower(root())).toBe(first);
    expect(lowerings.lower({ ...root(), required: [] })).not.toBe(first);
  });

  it('lowers alone a root that contains itself, beside another of its outline', () => {
    const lowerings = new SchemaLowerings();
    const cyclic = (): Record<string, unknown> => {
      const node: Record<string, unknown> = { type: 'object', properties: {} };
      (node.properties as Record<string, unknown>).self = node;
      return node;
    };
    const a = lowerings.lower(cyclic());
    const b = lowerings.lower(cyclic());
    expect(a).not.toBe(b);
    expect(b.schema.type).toBe('object');
  });
});
