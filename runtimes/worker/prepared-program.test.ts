import { describe, expect, it } from 'vitest';
import type { ByteStore } from '../seam/byte-store.js';
import { memoryStore } from '../test/memory-store.js';
import { preparedProgram } from './prepared-program.js';
import { stripTypes } from './strip-types.js';

const PROGRAM = 'const n: number = await tools.count({});\nreturn n + 1;';
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a prepared program', () => {
  it('is the compiler’s answer, kept in the store and read from there the next time', async () => {
    const store = memoryStore();
    const first = await preparedProgram(PROGRAM, ['tools', 'ToolCallError'], store);
    expect(first).toEqual(await stripTypes(PROGRAM, ['tools', 'ToolCallError']));
    await settle();
    expect(store.entries.size).toBe(1);
    // What the store holds is what the next run gets: the compiler is not asked again.
    const [key] = [...store.entries.keys()];
    store.entries.set(
      key!,
      Buffer.from(JSON.stringify({ code: '(async function (tools, ToolCallError) { return 7; })' })),
    );
    expect(await preparedProgram(PROGRAM, ['tools', 'ToolCallError'], store)).toEqual({
      code: '(async function (tools, ToolCallError) { return 7; })',
    });
  });

  it('is keyed by the program and its binding names', async () => {
    const store = memoryStore();
    await preparedProgram(PROGRAM, ['tools', 'ToolCallError'], store);
    await preparedProgram(PROGRAM, ['tools'], store);
    await preparedProgram(`${PROGRAM}\n`, ['tools'], store);
    await settle();
    expect(store.entries.size).toBe(3);
  });

  it('keeps a syntax error as the answer too', async () => {
    const store = memoryStore();
    const broken = await preparedProgram('return (1 +;', ['tools'], store);
    expect(broken).toMatchObject({
      error: { name: 'SyntaxError', message: expect.stringContaining('program.ts line 1') },
    });
    await settle();
    expect(await preparedProgram('return (1 +;', ['tools'], store)).toEqual(broken);
  });

  it('is computed afresh from an entry that is not one (junk, another shape) or a store that fails, and the entry replaced', async () => {
    const fresh = await stripTypes(PROGRAM, ['tools']);
    for (const junk of [
      'not json',
      'null',
      '{"code": 1}',
      '{"code": "x", "error": {"name": "SyntaxError", "message": "m"}}',
      '{"error": {"name": "TypeError", "message": "m"}}',
    ]) {
      const store = memoryStore();
      await preparedProgram(PROGRAM, ['tools'], store);
      await settle();
      const [key] = [...store.entries.keys()];
      store.entries.set(key!, Buffer.from(junk));
      expect(await preparedProgram(PROGRAM, ['tools'], store), junk).toEqual(fresh);
      await settle();
      expect(JSON.parse(Buffer.from(store.entries.get(key!)!).toString('utf8')), junk).toEqual(fresh);
    }
    const failing: ByteStore = {
      read: () => Promise.reject(new Error('disk gone')),
      write: () => Promise.reject(new Error('disk gone')),
      drop: async () => {},
    };
    expect(await preparedProgram(PROGRAM, ['tools'], failing)).toEqual(fresh);
  });
});
