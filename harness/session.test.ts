import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Model } from '../contract/model.js';
import { createCpythonRuntime } from '../runtimes/cpython/runtime.js';
import { liveChildProcesses } from '../test/child-processes.js';
import { runtimeTarget } from './assembly/runtimes.js';
import { committedScenarios } from './checks/test/run-pair.js';
import { TYPESCRIPT_COMPILER } from './languages/typescript/compiler.js';
import { runOne } from './pairs/run-one.js';
import type { Scenario } from './scenario/types.js';
import { Session } from './session.js';

const nestedReads = async (): Promise<Scenario> => (await committedScenarios()).find((s) => s.name === 'nested-reads')!;

describe('a session owns what the apps of one command share, and nothing of another session', () => {
  it("two sessions in one process keep their own runtimes: disposing one leaves the other's running", {
    timeout: 120_000,
  }, async () => {
    const scenario = await nestedReads();
    await using first = new Session();
    await using second = new Session();
    const onFirst = await runOne(scenario, runtimeTarget('typescript', scenario.runtimeConfig, first));
    const onSecond = await runOne(scenario, runtimeTarget('typescript', scenario.runtimeConfig, second));
    expect([onFirst.record.failure, onSecond.record.failure]).toEqual([undefined, undefined]);
    expect(first.runtimes.keys()).toHaveLength(1);
    expect(second.runtimes.keys()).toHaveLength(1);
    await first.dispose();
    expect(first.runtimes.keys()).toEqual([]);
    // The second session's pooled worker outlived the first session's disposal and serves its next app.
    const again = await runOne(scenario, runtimeTarget('typescript', scenario.runtimeConfig, second));
    expect(again.record.failure).toBeUndefined();
    expect(second.runtimes.keys()).toHaveLength(1);
  });

  it('hands the scenario it parsed to the model plugin, which does not read the file again', {
    timeout: 120_000,
  }, async () => {
    const scenario = await nestedReads();
    const answer = 'The answer from the scenario the session handed over.';
    const handed: Scenario = {
      ...scenario,
      script: scenario.script.map((step) => (step.kind === 'final' ? { ...step, text: answer } : step)),
    };
    await using session = new Session();
    const { record } = await runOne(handed, runtimeTarget('typescript', scenario.runtimeConfig, session));
    expect(record.failure).toBeUndefined();
    expect(record.answer).toBe(answer);
  });

  it('an app booted in one session cannot use a live model handed over in another', { timeout: 120_000 }, async () => {
    const scenario = await nestedReads();
    await using owner = new Session();
    await using other = new Session();
    const model: Model = { complete: () => Promise.resolve({ content: 'from the owner', toolCalls: [] }) };
    const handle = owner.registerLiveModel(model);
    await expect(
      runOne(scenario, runtimeTarget('typescript', scenario.runtimeConfig, other), { live: handle.token }),
    ).rejects.toThrow(/no live model is handed over under this token/);
    const { record } = await runOne(scenario, runtimeTarget('typescript', scenario.runtimeConfig, owner), {
      live: handle.token,
    });
    expect(record.answer).toBe('from the owner');
  });

  it('stops the checkers it started early, even when it is disposed before they are up', {
    timeout: 120_000,
  }, async () => {
    // An empty cache: the session starts the local interpreters' checkers as it begins (no Pyodide here).
    const cacheRoot = await mkdtemp(join(tmpdir(), 'session-test-'));
    try {
      const session = new Session({ cacheRoot, pyodides: [] });
      await session.startInterpreters();
      // Disposed while the interpreters are still being discovered: their checkers start only after that.
      await session.dispose();
      expect(
        liveChildProcesses()
          .filter((line) => line.includes(' -I -c '))
          .map((line) => line.slice(0, 100)),
      ).toEqual([]);
    } finally {
      await rm(cacheRoot, { recursive: true, force: true });
    }
  });

  it('keeps what its commands compute to itself: the compiler, token counts and fallback notices start afresh in another', {
    timeout: 60_000,
  }, async () => {
    await using first = new Session();
    await using second = new Session();
    // The compiler with its parsed standard library: one per session, made again after a disposal.
    const compiler = first.slot(TYPESCRIPT_COMPILER);
    expect(first.slot(TYPESCRIPT_COMPILER)).toBe(compiler);
    expect(second.slot(TYPESCRIPT_COMPILER)).not.toBe(compiler);
    // Token counts: each session counts with a counter of its own.
    expect(first.tokens).not.toBe(second.tokens);
    expect(await first.tokens.count('class Tools: ...\n')).toBe(await second.tokens.count('class Tools: ...\n'));
    // A fallback notice is said once per session, however many runtimes fall back alike, and again in the next.
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (
      said.push(String(chunk)), true
    )) as typeof process.stderr.write;
    try {
      const absent = { isolation: 'container', image: 'concord-absent-image:0' } as const;
      for (const session of [first, first, second])
        await (await createCpythonRuntime(absent, session.runtimes.host)).dispose();
    } finally {
      process.stderr.write = write;
    }
    const fallbacks = said.filter((line) => line.includes('CPython runs in a local process, not a container'));
    expect(fallbacks).toHaveLength(2);
    await first.dispose();
    expect(first.slot(TYPESCRIPT_COMPILER)).not.toBe(compiler);
  });
});
