import { afterAll, describe, expect, it } from 'vitest';
import { PyrightServer } from './pyright-server.js';

const servers: PyrightServer[] = [];
const started = (timeoutMs?: number) => {
  const server = new PyrightServer('3.11', timeoutMs);
  servers.push(server);
  return server;
};
afterAll(() => servers.forEach((server) => server.kill()));

/** Programs whose only error is one the checker finds: parsing and binding alone see nothing wrong. */
const programs = Array.from({ length: 8 }, (_, i) => [`program_${i + 1}.py`, `def f() -> int:\n    return "${i}"\n`] as const);

describe('a pyright server', () => {
  it('answers each opened file with its finished analysis, not an earlier empty one', { timeout: 120_000 }, async () => {
    const server = started();
    for (let round = 0; round < 3; round++) {
      const results = await server.check({ files: new Map(programs), open: programs.map(([name]) => name) });
      for (const [name] of programs) {
        expect([name, results.get(name)?.map((d) => [d.line, d.character, d.rule])]).toEqual([name, [[1, 11, 'reportReturnType']]]);
      }
    }
  });

  it('fails a job it has not answered within its timeout, rather than passing it', { timeout: 60_000 }, async () => {
    const [name, text] = programs[0]!;
    await expect(started(1).check({ files: new Map([[name, text]]), open: [name] })).rejects.toThrow('pyright did not answer within 0.001 s');
  });
});
