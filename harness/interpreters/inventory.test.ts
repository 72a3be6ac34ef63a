import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { ContainerInterpreter, containerInterpreters } from './container.js';
import { InterpreterInventory } from './inventory.js';
import { findInterpreters, LocalInterpreter } from './local.js';
import type { CompileReport, PythonInterpreter } from './types.js';

const BROKEN = 'class Tools:\n    async def look(self, args: dict) -> dict\n        ...\n';
const VALID = 'x: int = 1\n';
// U+A7D1 was added in Unicode 14.0: CPython 3.9 (13.0) rejects it in a name, 3.11 (14.0) accepts it.
const PAST_3_9 = '\u{A7D1}lossary = 1\n';

/** A real interpreter that counts the batches it is sent. */
function counted(interpreter: PythonInterpreter): PythonInterpreter & { batches: (readonly string[])[] } {
  const batches: (readonly string[])[] = [];
  return Object.assign(Object.create(interpreter) as PythonInterpreter, {
    batches,
    compile(sources: readonly string[]): Promise<CompileReport> {
      batches.push(sources);
      return interpreter.compile(sources);
    },
  });
}

const locals = findInterpreters();
const floor = await Host.with('python3.9');

(await Host.with('python3')).describe('local interpreters', () => {
  it('are found once per minor version, oldest first, with their Unicode version', () => {
    const versions = locals.map((l) => l.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect([...versions].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))).toEqual(versions);
    for (const l of locals) expect(l.unicode).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('compile a batch in one process, report line and column, and never send a source twice', async () => {
    const newest = new LocalInterpreter(locals.at(-1)!);
    onTestFinished(() => newest.dispose());
    const interpreter = counted(newest);
    const inventory = new InterpreterInventory([interpreter]);
    const report = await inventory.compileOn(interpreter, [VALID, BROKEN]);
    expect(report.python.startsWith(locals.at(-1)!.version)).toBe(true);
    expect(report.results[0]).toEqual({ ok: true });
    expect(report.results[1]).toMatchObject({ ok: false, name: 'SyntaxError', line: 2 });
    expect((report.results[1] as { column: number }).column).toBeGreaterThan(0);
    const again = await inventory.compileOn(interpreter, [BROKEN, VALID, 'y = 2\n']);
    expect(again.results.map((r) => r.ok)).toEqual([false, true, true]);
    expect(interpreter.batches).toEqual([[VALID, BROKEN], ['y = 2\n']]);
  });

  floor.it('reject a name past the interpreter Unicode tables', {}, async () => {
    const interpreter = new LocalInterpreter(locals.find((l) => l.version === '3.9')!);
    onTestFinished(() => interpreter.dispose());
    const report = await interpreter.compile([PAST_3_9]);
    expect(report.results[0]).toMatchObject({ ok: false, name: 'SyntaxError', line: 1 });
  });
});

const containers = await containerInterpreters();

async function runningCompileContainers(): Promise<string[]> {
  const client = await getContainerRuntimeClient();
  const list = await client.container.dockerode.listContainers({
    filters: { label: ['org.concord.role=compile', `org.concord.host-pid=${process.pid}`] },
  });
  return list.map((c) => c.Id);
}

(await Host.with('docker')).describe('container interpreters', () => {
  const floor = containers.interpreters[0]!;
  afterAll(() => floor.dispose());

  it('compile a batch in one exec and report the image Unicode version', async () => {
    const report = await floor.compile([VALID, PAST_3_9, BROKEN]);
    expect(report.python.startsWith(floor.version)).toBe(true);
    expect(report.unicode).toBe(floor.unicode);
    expect(report.results[0]).toEqual({ ok: true });
    if (floor.version === '3.9') expect(report.results[1]).toMatchObject({ ok: false, name: 'SyntaxError', line: 1 });
    expect(report.results[2]).toMatchObject({ ok: false, line: 2 });
  });

  it('ends an idle container by itself and starts a fresh one for the next batch', async () => {
    const brief = new ContainerInterpreter(floor.version, floor.image, 1);
    try {
      expect((await brief.compile([VALID])).results).toEqual([{ ok: true }]);
      const first = (await runningCompileContainers()).length;
      expect(first).toBeGreaterThan(0);
      // Past one idle second the keeper (looking every second) exits and Docker removes the container.
      let running = first;
      for (const deadline = Date.now() + 20_000; running === first && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        running = (await runningCompileContainers()).length;
      }
      expect(running).toBe(first - 1);
      expect((await brief.compile([BROKEN])).results[0]).toMatchObject({ ok: false, line: 2 });
    } finally {
      await brief.dispose();
    }
  }, 60_000);
});

describe('the inventory', () => {
  it('lists Pyodide releases without booting them, oldest first, and says what is absent', async () => {
    const inventory = await InterpreterInventory.discover({ containers: false, local: false });
    expect(inventory.interpreters.map((i) => i.label)).toEqual([
      'pyodide 3.11',
      'pyodide 3.12',
      'pyodide 3.13',
      'pyodide 3.14',
    ]);
    expect(inventory.interpreters.map((i) => i.unicode)).toEqual(['14.0.0', '15.0.0', '15.1.0', '16.0.0']);
  });

  it('reports an interpreter that cannot run instead of throwing', async () => {
    const missing = new LocalInterpreter({
      version: '3.9',
      executable: '/nonexistent/python3.9',
      python: '3.9.0',
      unicode: '13.0.0',
    });
    const [answer] = await new InterpreterInventory([missing]).compileEverywhere([VALID]);
    expect(answer).toMatchObject({ interpreter: missing, error: expect.stringContaining('/nonexistent/python3.9') });
  });
});
