import { afterAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { Checker, type CheckerProcess } from './checker.js';
import { findInterpreters, LocalInterpreter, startChecker } from './local.js';

// A local CPython's checker is one long-lived process serving every batch of a run; each module still runs
// in a fork of its own, so nothing a module does reaches a later batch, and a batch that kills or hangs the
// checker fails alone: the next batch gets a new checker.

const newest = findInterpreters().at(-1);
/** Fails the module with the checker's pid in the message: the fork's parent is the checker. */
const CHECKER_PID = 'import os\nraise RuntimeError("checker %d" % os.getppid())\n';
const pidOf = (outcome: unknown) => Number(/checker (\d+)/.exec((outcome as { message: string }).message)?.[1]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

(await Host.with('python3')).describe('the checker of a local CPython', () => {
  const interpreter = new LocalInterpreter(newest!);
  afterAll(() => interpreter.dispose());

  it('serves many batches from one process, each module in a fork of its own', { timeout: 60_000 }, async () => {
    const first = await interpreter.verify([CHECKER_PID]);
    const compiled = await interpreter.compile(['x = (\n', 'y = 1\n']);
    const second = await interpreter.verify([CHECKER_PID, 'import typing\ntyping.LEFT_BEHIND = 1\n']);
    const third = await interpreter.verify(['import typing\ntyping.LEFT_BEHIND\n']);
    const pid = pidOf(first.imports[0]);
    expect(pid).toBeGreaterThan(0);
    expect(pidOf(second.imports[0])).toBe(pid);
    expect(compiled.results.map((r) => r.ok)).toEqual([false, true]);
    expect(second.imports[1]).toEqual({ ok: true });
    // What one module did to a module it imported is gone for the next batch's module.
    expect(third.imports[0]).toMatchObject({ ok: false, name: 'AttributeError', line: 2 });
    await interpreter.dispose();
    expect(alive(pid)).toBe(false);
  });

  it('fails the batch whose module kills the checker, and serves the next from a new one', { timeout: 60_000 }, async () => {
    const before = pidOf((await interpreter.verify([CHECKER_PID])).imports[0]);
    await expect(interpreter.verify(['import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\n'])).rejects.toThrow(/failed \(SIGKILL\)/);
    const after = pidOf((await interpreter.verify([CHECKER_PID])).imports[0]);
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
  });

  it('bounds a module that hangs with the module time limit, and the checker goes on', { timeout: 60_000 }, async () => {
    const report = await interpreter.verify(['while True:\n    pass\n', 'z = 1\n']);
    expect(report.imports).toEqual([{ ok: false, name: 'Timeout', message: 'the module did not finish within 10 s', line: null, column: null }, { ok: true }]);
  });

  if (process.getuid?.() === 0) {
    it('gives the modules no network', { timeout: 60_000 }, async () => {
      const report = await interpreter.verify(['import socket\nsocket.create_connection(("1.1.1.1", 53), timeout=5)\n']);
      expect(report.imports[0]).toMatchObject({ ok: false, name: expect.stringMatching(/OSError|Error/), line: 2 });
    });
  }
});

(await Host.with('python3')).describe('a checker that does not answer', () => {
  it('fails the batch at its time limit, kills the checker and starts a new one for the next', { timeout: 30_000 }, async () => {
    const started: CheckerProcess[] = [];
    const checker = new Checker({
      who: 'mute',
      start: async () => {
        const process = await startChecker(newest!.executable, 'import sys, time\nsys.stdin.readline()\ntime.sleep(600)\n');
        started.push(process);
        return process;
      },
    });
    try {
      await expect(checker.request({ sources: ['x = 1\n'], verify: false }, 1000)).rejects.toThrow('mute did not answer within 1 s');
      expect(await started[0]!.ended).toMatch(/^failed \(SIGKILL\)/);
      await expect(checker.request({ sources: ['x = 1\n'], verify: false }, 1000)).rejects.toThrow('mute did not answer within 1 s');
      expect(started).toHaveLength(2);
    } finally {
      await checker.dispose();
    }
  });
});
