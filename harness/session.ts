import { randomBytes } from 'node:crypto';
import type { Host } from '../contract/host.js';
import type { Model } from '../contract/model.js';
import { DEFAULT_PYODIDE_VERSION, type PyodidePythonVersion } from '../runtimes/pyodide/versions.js';
import type { ByteStore } from '../runtimes/seam/byte-store.js';
import { RuntimePool } from '../runtimes/seam/pool.js';
import type { Language } from '../runtimes/seam/types.js';
import { TokenCounter } from './cache/token-counter.js';
import {
  type BlobKind,
  cacheDisabledByEnvironment,
  cacheMaxBytes,
  judgedBy,
  VerdictCache,
} from './cache/verdict-cache.js';
import { InterpreterInventory } from './interpreters/inventory.js';
import { PyrightServers } from './interpreters/pyright-server.js';
import type { StubCell } from './interpreters/types.js';
import type { Scenario } from './scenario/types.js';

/** The service name under which the apps a session boots find it (`harness/assembly/boot.ts` sets it). */
export const SESSION_SERVICE = 'concordSession';

/** State a part above the session keeps for one command: declared once by its owner, made on first use. */
export interface SessionSlot<T> {
  readonly name: string;
  create(): T;
}

export interface SessionOptions {
  /**
   * The project root whose `.concord/cache/` keeps verdicts between runs; none (or `CONCORD_NO_CACHE` set): every
   * verdict is computed.
   */
  cacheRoot?: string;
  /**
   * The Pyodide releases of the stub matrix (`pyodide.versions` of the project's config); default the one concord
   * installs.
   */
  pyodides?: readonly PyodidePythonVersion[];
  /** How long a pyright job may wait for its answer (tests make pyright impatient). */
  pyrightTimeoutMs?: number;
  /** The host that boots the project's apps (`host:` in concord.config.yml); none: concord assembles them. */
  host?: ProjectHost;
}

/** A project's host, and where it came from (messages name it). */
export interface ProjectHost {
  host: Host;
  /** The host module as the project names it (`./concord-host.mjs`). */
  ref: string;
  /** The module's real path. */
  file: string;
  /** The project root the host boots its apps in. */
  root: string;
}

/**
 * What one concord command (a gate, a record, a drift watch, a skew) shares between the apps it boots and
 * the checks it runs, owned by it and disposed once: the pooled runtimes, the verdict cache (and the Pyodide
 * memory snapshots kept in it), the pyright servers, the interpreter inventory, the live model handed to
 * the model plugin, the scenarios it already parsed and what its checks computed once for several pairs.
 * It reaches the apps as a service on their root context and the checks in their input, never through
 * process-wide state, so two commands in one process see nothing of each other.
 *
 * ```ts
 * await using session = new Session({ cacheRoot: project.root });
 * ```
 */
export class Session {
  readonly cache: VerdictCache | undefined;
  readonly runtimes: RuntimePool;
  /** The host that boots the project's apps; none: concord assembles them. */
  readonly host: ProjectHost | undefined;
  readonly pyright: PyrightServers;
  /** The SDK's tokens, counted once per text for this command. */
  readonly tokens: TokenCounter;
  private readonly pyodides: readonly PyodidePythonVersion[];
  private inventoryFound: Promise<InterpreterInventory> | undefined;
  /** The interpreters' checkers started before any pair needs them (startInterpreters). */
  private interpretersStarted: Promise<void> | undefined;
  /** The stub-validity matrix of the pairs checked so far, by `scenario/runtime` (the reports read it). */
  readonly stubCells = new Map<string, StubCell[]>();
  private readonly computed = new Map<string, Promise<unknown>>();
  private readonly slots = new Map<SessionSlot<unknown>, unknown>();
  private readonly liveModels = new Map<string, Model>();
  private readonly scenarios = new Map<string, Scenario>();
  /**
   * Plugins (by module) whose apply had not settled at an app's boot deadline, with why: a later app of the
   * same command fails at once instead of waiting out the deadline again for each pair and probe.
   */
  readonly neverStarted = new Map<string, string>();

  constructor(options: SessionOptions = {}) {
    this.host = options.host;
    const cache =
      options.cacheRoot === undefined || cacheDisabledByEnvironment()
        ? undefined
        : new VerdictCache(options.cacheRoot, judgedBy(), cacheMaxBytes());
    this.cache = cache;
    // Pyodide workers boot from a memory snapshot kept beside the verdicts, where the release supports one; the
    // TypeScript worker reads a program it prepared before from there instead of loading the compiler again.
    const store = (kind: BlobKind): ByteStore | undefined =>
      cache && {
        read: (key) => cache.getBytes(kind, key),
        write: (key, bytes) => cache.putBytes(kind, key, bytes),
        drop: (key) => cache.dropBytes(kind, key),
      };
    // A fallback (a local process for a container) is said once per command, however many pairs meet it.
    const said = new Set<string>();
    const notices = {
      say(notice: string) {
        if (said.has(notice)) return;
        said.add(notice);
        process.stderr.write(`concord: ${notice}\n`);
      },
    };
    this.runtimes = new RuntimePool({
      snapshots: store('pyodide-snapshot'),
      preparedPrograms: store('typescript-program'),
      notices,
    });
    this.pyright = new PyrightServers(options.pyrightTimeoutMs);
    this.tokens = new TokenCounter(cache);
    this.pyodides = options.pyodides ?? [DEFAULT_PYODIDE_VERSION];
  }

  /** The Python interpreters of this session (local, container, Pyodide): discovered once, on first use. */
  inventory(): Promise<InterpreterInventory> {
    const found = (this.inventoryFound ??= InterpreterInventory.discover({
      pyodide: this.pyodides,
      cache: this.cache,
      snapshots: this.runtimes.host.snapshots,
    }));
    found.catch(() => {
      if (this.inventoryFound === found) this.inventoryFound = undefined;
    });
    return found;
  }

  /**
   * Starts the interpreters' checkers now (local processes, the Pyodide boot; see InterpreterInventory.start), in the
   * background,
   * so the first Python pair does not wait for a cold start: when the verdict cache holds no module verdict
   * yet (a first run, a fresh CI runner, no cache). A cache that holds some was filled by an earlier run, whose
   * SDKs may all be judged already: then nothing starts before a batch needs it.
   */
  async startInterpreters(): Promise<void> {
    if (this.interpretersStarted !== undefined) return;
    if (this.cache !== undefined && (await this.cache.folder.list('import').catch(() => [])).length > 0) return;
    // Nothing here may reject: a checker that cannot start is reported by the first batch that needs it, and a
    // rejection no pair awaits yet would end the process.
    this.interpretersStarted ??= this.inventory()
      .then((inventory) => inventory.start())
      .catch(() => undefined);
  }

  /** Resolves once the checkers startInterpreters() started are running or failed to (at once when it started none). */
  async interpretersReady(): Promise<void> {
    await this.interpretersStarted;
  }

  /**
   * What `compute` gives for `key`, computed once per session: several pairs share one answer (pyright on
   * the Python SDK that every Python runtime of a scenario shows). A failure is not kept.
   */
  once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.computed.get(key) as Promise<T> | undefined;
    if (known !== undefined) return known;
    const started = compute();
    this.computed.set(key, started);
    started.catch(() => {
      if (this.computed.get(key) === started) this.computed.delete(key);
    });
    return started;
  }

  /** What `slot` holds for this command, made by its `create` on first use. */
  slot<T>(slot: SessionSlot<T>): T {
    if (!this.slots.has(slot)) this.slots.set(slot, slot.create());
    return this.slots.get(slot) as T;
  }

  /**
   * Hands a live model to the model plugin by a token in its config: the endpoint and key never go into a `cordis.yml`.
   */
  registerLiveModel(model: Model): { token: string; release(): void } {
    const token = randomBytes(8).toString('hex');
    this.liveModels.set(token, model);
    return { token, release: () => this.liveModels.delete(token) };
  }

  liveModel(token: string): Model | undefined {
    return this.liveModels.get(token);
  }

  /**
   * Hands the scenario as parsed (and as replayed in `language`) to the model plugin, which would otherwise read its
   * file again.
   */
  handOver(scenario: Scenario, language: Language): void {
    this.scenarios.set(`${language}\0${scenario.file}`, scenario);
  }

  scenario(file: string, language: Language): Scenario | undefined {
    return this.scenarios.get(`${language}\0${file}`);
  }

  /**
   * Stops everything the session started: the runtimes its apps borrowed, pyright, the interpreters of the
   * inventory; then waits for the cache's background writes (a memory snapshot a worker sent is on disk
   * before the command ends). Every part is stopped even when one fails; the failures are thrown together.
   */
  async dispose(): Promise<void> {
    this.liveModels.clear();
    this.scenarios.clear();
    this.computed.clear();
    this.slots.clear();
    this.neverStarted.clear();
    this.pyright.stop();
    const inventory = this.inventoryFound;
    this.inventoryFound = undefined;
    const outcomes = await Promise.allSettled([
      this.runtimes.dispose(),
      inventory?.then(
        (found) => found.dispose(),
        () => undefined,
      ),
    ]);
    await this.cache?.settled();
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'stopping the session failed');
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}
