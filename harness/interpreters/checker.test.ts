import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CPYTHON_IMAGES } from '../../runtimes/cpython/images.js';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { liveChildProcesses } from '../../test/child-processes.js';
import { Host } from '../../test/host-requirements.js';
import { Checker, type CheckerProcess } from './checker.js';
import { containerInterpreters } from './container.js';
import { findInterpreters, LocalInterpreter, startChecker } from './local.js';
import { readVerifyReport } from './report.js';
import type { VerifyReport } from './types.js';

// A local CPython's checker is one long-lived process serving every batch of a run. Modules run in its
// executor, a fork of it that runs one module after another and ends as soon as one leaves something behind,
// so nothing a module does reaches the next; a batch that kills or hangs the checker fails alone: the next
// batch gets a new checker.

const newest = findInterpreters().at(-1);
/** A module that fails naming a pid: `os.getpid()` is the executor it runs in, `os.getppid()` the checker. */
const failsNaming = (who: string, call: 'getpid' | 'getppid') =>
  `import os\nraise RuntimeError("${who} %d" % os.${call}())\n`;
/** The pid a module of failsNaming(who) named in its outcome. */
const pidNamed = (who: string) => (outcome: unknown) =>
  Number(new RegExp(`${who} (\\d+)`).exec((outcome as { message: string }).message)?.[1]);
const CHECKER_PID = failsNaming('checker', 'getppid');
const pidOf = pidNamed('checker');
const EXECUTOR_PID = failsNaming('executor', 'getpid');
const executorOf = pidNamed('executor');

/** What a module could leave behind, each with a module that fails if it finds it. */
const LEFT_BEHIND: Array<[what: string, change: string, probe: string]> = [
  [
    'an attribute of a loaded module',
    'import typing\ntyping.LEFT_BEHIND = 1\n',
    'import typing\nassert not hasattr(typing, "LEFT_BEHIND")\n',
  ],
  [
    'an attribute of a class',
    'import typing\ntyping.Generic.left_behind = 1\n',
    'import typing\nassert not hasattr(typing.Generic, "left_behind")\n',
  ],
  ['a builtin', 'import builtins\nbuiltins.len = None\n', 'assert len([]) == 0\n'],
  [
    'an item of a list in a module',
    'import typing\ntyping.__all__.append("LeftBehind")\n',
    'import typing\nassert "LeftBehind" not in typing.__all__\n',
  ],
  [
    'a module in sys.modules',
    'import sys, types\nsys.modules["typing"] = types.ModuleType("typing")\n',
    'from typing import TypedDict\n',
  ],
  [
    'the import path',
    'import sys\nsys.path.insert(0, "/left-behind")\n',
    'import sys\nassert "/left-behind" not in sys.path\n',
  ],
  [
    'the environment',
    'import os\nos.environ["LEFT_BEHIND"] = "1"\n',
    'import os\nassert "LEFT_BEHIND" not in os.environ\n',
  ],
  ['the working directory', 'import os\nos.chdir("/")\n', 'import os\nassert os.getcwd() != "/"\n'],
  [
    'a signal handler',
    'import signal\nsignal.signal(signal.SIGUSR1, lambda *_: None)\n',
    'import signal\nassert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL\n',
  ],
  [
    'a thread',
    'import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n',
    'import os\nassert len(os.listdir("/proc/self/task")) == 1\n',
  ],
  [
    'an open file',
    'import os\nos.open("/etc/passwd", os.O_RDONLY)\n',
    'import os\nfor fd in os.listdir("/proc/self/fd"):\n    try:\n        target = os.readlink("/proc/self/fd/" + fd)\n    except OSError:\n        continue\n    assert target != "/etc/passwd"\n',
  ],
  [
    'the recursion limit',
    'import sys\nsys.setrecursionlimit(321)\n',
    'import sys\nassert sys.getrecursionlimit() != 321\n',
  ],
];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A module that hangs holds its batch for the whole module time limit while spending nothing: that batch,
 * with a limit of 2 s (the checker's is IMPORT_SECONDS), goes to a checker of its own before the first test,
 * and the local checker's tests, which come last, read its report once the others have run.
 */
const sleeper =
  newest === undefined ? undefined : new Checker({ who: 'sleeper', start: () => startChecker(newest.executable) });
let hung: Promise<VerifyReport> | undefined;
beforeAll(() => {
  const sources = ['import time\ntime.sleep(600)\n', 'z = 1\n'];
  hung = sleeper
    ?.request({ sources, verify: true, seconds: 2 }, 60_000)
    .then((text) => readVerifyReport(text, sources.length, 'sleeper'));
  // Its own test reports a failure.
  hung?.catch(() => {});
});
afterAll(() => sleeper?.dispose());

(await Host.with('python3')).describe('a checker that does not answer', () => {
  it('fails the batch at its time limit, kills the checker and starts a new one for the next', {
    timeout: 30_000,
  }, async () => {
    const started: CheckerProcess[] = [];
    const checker = new Checker({
      who: 'mute',
      start: async () => {
        const process = await startChecker(
          newest!.executable,
          'import sys, time\nsys.stdin.readline()\ntime.sleep(600)\n',
        );
        started.push(process);
        return process;
      },
    });
    try {
      await expect(checker.request({ sources: ['x = 1\n'], verify: false }, 1000)).rejects.toThrow(
        'mute did not answer within 1 s',
      );
      expect(await started[0]!.ended).toMatch(/^failed \(SIGKILL\)/);
      await expect(checker.request({ sources: ['x = 1\n'], verify: false }, 1000)).rejects.toThrow(
        'mute did not answer within 1 s',
      );
      expect(started).toHaveLength(2);
    } finally {
      await checker.dispose();
    }
  });
});

/** A stub as concord's renderer writes them: the first one an executor runs makes typing load what it loads lazily. */
const STUB =
  'from typing import Any, Dict, List, Literal, Optional, TypedDict, Union\nclass Args(TypedDict, total=False):\n    a: Optional[Union[int, str]]\n    b: List[Dict[str, Any]]\n    c: Literal["x"]\n';

(await Host.with('docker')).describe('the checker of every CPython image', () => {
  it('runs stubs one after another in one executor: what typing loads on first use is loaded before', {
    timeout: 120_000,
  }, async () => {
    const { interpreters } = await containerInterpreters();
    try {
      expect(interpreters.map((i) => i.version)).toEqual(CPYTHON_IMAGES.map((image) => image.python));
      const reports = await Promise.all(
        interpreters.map((i) => i.verify([EXECUTOR_PID, STUB, EXECUTOR_PID, STUB, EXECUTOR_PID])),
      );
      for (const [n, report] of reports.entries()) {
        const pids = [0, 2, 4].map((k) => executorOf(report.imports[k]));
        expect([interpreters[n]!.label, report.imports[1], report.imports[3], new Set(pids).size]).toEqual([
          interpreters[n]!.label,
          { ok: true },
          { ok: true },
          1,
        ]);
      }
    } finally {
      await Promise.all(interpreters.map((i) => i.dispose()));
    }
  });
});

(await Host.with('python3')).describe('the checker of a local CPython', () => {
  const interpreter = new LocalInterpreter(newest!);
  afterAll(() => interpreter.dispose());

  it('serves many batches from one process, the modules in forks of it', { timeout: 60_000 }, async () => {
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

  it('stops a checker whose start was asked for just before the dispose, once it has launched', {
    timeout: 60_000,
  }, async () => {
    const fresh = new LocalInterpreter(newest!);
    const before = new Set(liveChildProcesses());
    const started = fresh.start();
    await fresh.dispose();
    await started;
    expect(
      liveChildProcesses()
        .filter((line) => !before.has(line))
        .map((line) => line.slice(0, 100)),
    ).toEqual([]);
  });

  // Between batches a checker does not keep its host alive; while the host waits for it to end, it must: else
  // a command whose last work is stopping its checkers finds its event loop empty and ends mid-wait.
  it('keeps its host alive while it is being stopped, though idle it does not', { timeout: 60_000 }, () => {
    const script = [
      `const { LocalInterpreter } = await import(${JSON.stringify(builtModule('harness/interpreters/local.ts'))});`,
      `const interpreter = new LocalInterpreter(${JSON.stringify(newest)});`,
      "await interpreter.compile(['x = 1\\n']);",
      "process.once('beforeExit', () => { console.log('the event loop emptied while the checker was being stopped'); process.exit(3); });",
      'await interpreter.dispose();',
      // As the gate does: a finished command exits rather than wait for its event loop to empty.
      "console.log('stopped');",
      'process.exit(0);',
    ].join('\n');
    const host = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(host.stderr).toBe('');
    expect(host.stdout.trim()).toBe('stopped');
    expect(host.status).toBe(0);
  });

  it('runs module after module in one executor, a fork of the checker, while none leaves anything behind', {
    timeout: 60_000,
  }, async () => {
    const report = await interpreter.verify([
      EXECUTOR_PID,
      EXECUTOR_PID,
      'from typing import TypedDict\nclass A(TypedDict):\n    x: int\n',
      EXECUTOR_PID,
      CHECKER_PID,
    ]);
    const executor = executorOf(report.imports[0]);
    expect(executor).toBeGreaterThan(0);
    expect([report.imports[1], report.imports[3]].map(executorOf)).toEqual([executor, executor]);
    expect(report.imports[2]).toEqual({ ok: true });
    expect(pidOf(report.imports[4])).not.toBe(executor);
  });

  it.each(LEFT_BEHIND)(
    'runs the module after one that changed %s in a fresh executor, where the change is not',
    { timeout: 60_000 },
    async (_what, change, probe) => {
      const report = await interpreter.verify([EXECUTOR_PID, change, probe, EXECUTOR_PID]);
      expect(report.imports.slice(1, 3)).toEqual([{ ok: true }, { ok: true }]);
      expect(executorOf(report.imports[3])).not.toBe(executorOf(report.imports[0]));
    },
  );

  it('names a module that ends its executor a crash, and runs the next in a new one', { timeout: 60_000 }, async () => {
    const report = await interpreter.verify(['import os\nos._exit(3)\n', 'z = 1\n']);
    expect(report.imports).toEqual([
      {
        ok: false,
        name: 'Crash',
        message: 'the interpreter ended while executing the module (wait status 768)',
        line: null,
        column: null,
      },
      { ok: true },
    ]);
  });

  it('fails the batch whose module kills the checker, and serves the next from a new one', {
    timeout: 60_000,
  }, async () => {
    const before = pidOf((await interpreter.verify([CHECKER_PID])).imports[0]);
    await expect(
      interpreter.verify(['import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\n']),
    ).rejects.toThrow(/failed \(SIGKILL\)/);
    const after = pidOf((await interpreter.verify([CHECKER_PID])).imports[0]);
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
  });

  it('bounds a module that hangs with the module time limit, and the checker goes on', {
    timeout: 60_000,
  }, async () => {
    // The checker times the executor from outside (it waits on the outcome pipe): a module asleep hangs it as
    // a busy one does, without spending a core for the whole limit.
    const report = await hung!;
    expect(report.imports).toEqual([
      { ok: false, name: 'Timeout', message: 'the module did not finish within 2 s', line: null, column: null },
      { ok: true },
    ]);
  });

  if (process.getuid?.() === 0) {
    it('gives the modules no network', { timeout: 60_000 }, async () => {
      const report = await interpreter.verify([
        'import socket\nsocket.create_connection(("1.1.1.1", 53), timeout=5)\n',
      ]);
      expect(report.imports[0]).toMatchObject({ ok: false, name: expect.stringMatching(/OSError|Error/), line: 2 });
    });
  }
});
