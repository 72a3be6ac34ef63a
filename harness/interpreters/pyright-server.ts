import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onHostExit } from '../../runtimes/seam/host-exit.js';
import { resolveOptional } from '../../runtimes/seam/optional-package.js';
import { ownedTempDir } from '../../runtimes/seam/owned-temp-dir.js';

/** One diagnostic of pyright, positions 0-based as the language server protocol gives them. */
export interface PyrightDiagnostic {
  line: number;
  character: number;
  severity: 'error' | 'warning' | 'information';
  message: string;
  rule?: string;
}

/** A directory of files for one check; `open` names the files whose diagnostics are wanted. */
export interface PyrightJob {
  files: ReadonlyMap<string, string>;
  open: readonly string[];
}

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'information', 4: 'information' } as const;
/**
 * Pyright answers in about a second per job once warm, and starts in seconds; a job still unanswered after
 * this (start included) is stuck, and fails rather than passing its programs unchecked.
 */
const JOB_TIMEOUT_MS = 120_000;
/** Pause before asking again about a document pyright has not taken in yet. */
const NOT_OPEN_YET_MS = 20;

interface LspDiagnostic {
  range: { start: { line: number; character: number } };
  severity?: 1 | 2 | 3 | 4;
  message: string;
  code?: string | number;
}

/** A pull-diagnostics answer: `full` with a result id is a finished analysis of the open document. */
interface DiagnosticReport {
  kind: 'full' | 'unchanged';
  resultId?: string;
  items?: LspDiagnostic[];
}

/** An empty environment inside the server's workspace: the only site-packages pyright may search. */
const NO_SITE_PACKAGES = 'no-site-packages';

/**
 * What a server checks with, besides the files. Programs run where no installed package is importable (a
 * local CPython started with -I -S, Pyodide, a bare image), so pyright resolves imports against its bundled
 * typeshed and the empty environment above, never the host's: a module installed on one machine and not on
 * another cannot change the verdict. With an environment named, pyright also runs no interpreter to find one.
 */
export function pyrightConfig(pythonVersion: string): Record<string, string> {
  return { pythonVersion, typeCheckingMode: 'standard', venvPath: '.', venv: NO_SITE_PACKAGES };
}

/** The requests of one job, so that a job past its deadline can cancel what it still waits for. */
interface JobRequests {
  ids: Set<number>;
  expired?: Error;
}

/**
 * A pyright language server kept for the whole process: pyright takes seconds to start and to load
 * typeshed, while checking a few more files on a warm server takes about a second. Each job gets a fresh
 * directory under the server's workspace; its files are opened, their diagnostics pulled, then closed
 * and deleted. The server does not keep the process alive while idle and is killed when the process exits.
 *
 * Diagnostics are pulled (`textDocument/diagnostic`), not awaited as pushes: pyright pushes a file's
 * diagnostics after each slice of its analysis, so a push for the opened version may come from parsing
 * and binding alone, before the checker ran, and be empty where the finished analysis has errors. A pull
 * answer is given only once the file is fully checked. As a client that pulls, pyright also skips its
 * background analysis, so it checks only the files asked about.
 */
export class PyrightServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly workspace: string;
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private nextJob = 0;
  private busy = 0;
  private exited: string | undefined;
  private stderr = '';
  private readonly replies = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly ready: Promise<void>;

  constructor(
    pythonVersion: string,
    private readonly timeoutMs = JOB_TIMEOUT_MS,
  ) {
    // pyright is an optional peer: without it, say so before anything is made.
    const entry = resolveOptional('pyright/langserver.index.js', 'type-checking Python programs');
    this.workspace = ownedTempDir('concord-pyright');
    mkdirSync(join(this.workspace, NO_SITE_PACKAGES, 'lib', 'site-packages'), { recursive: true });
    writeFileSync(join(this.workspace, 'pyrightconfig.json'), JSON.stringify(pyrightConfig(pythonVersion)));
    // pyright makes a temp folder of its own (pyright-<pid>-…) and removes it only when it shuts down, which a
    // killed server never does: it goes under the workspace, which concord removes (or the next run sweeps).
    // A dot folder, which pyright never takes for sources.
    const temp = join(this.workspace, '.tmp');
    mkdirSync(temp);
    this.child = spawn(process.execPath, [entry, '--stdio'], {
      cwd: this.workspace,
      env: { ...process.env, TMPDIR: temp },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => void (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    this.child.on('exit', (code, signal) =>
      this.fail(`pyright exited (${signal ?? `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}`),
    );
    this.child.on('error', (error) => this.fail(`pyright could not start: ${error.message}`));
    // A write to a server that just died fails with EPIPE; its exit reports why.
    this.child.stdin.on('error', () => undefined);
    onHostExit(() => this.kill());
    this.ready = this.initialize();
    this.ready.catch(() => undefined);
    this.idle();
  }

  /**
   * Writes the job's files, opens the wanted ones and resolves with their diagnostics by file name.
   * Rejects when pyright is gone or has not answered within the server's timeout.
   */
  async check(job: PyrightJob): Promise<Map<string, PyrightDiagnostic[]>> {
    this.hold();
    const dir = join(this.workspace, `job-${++this.nextJob}`);
    const requests: JobRequests = { ids: new Set() };
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.expire(requests)), this.timeoutMs);
    });
    expired.catch(() => undefined);
    let uris: Array<readonly [string, string]> = [];
    try {
      await Promise.race([this.ready, expired]);
      mkdirSync(dir);
      for (const [name, text] of job.files) writeFileSync(join(dir, name), text);
      uris = job.open.map((name) => [name, pathToFileURL(join(dir, name)).href] as const);
      for (const [name, uri] of uris) {
        this.notify('textDocument/didOpen', {
          textDocument: { uri, languageId: 'python', version: 1, text: job.files.get(name) ?? '' },
        });
      }
      const results = await Promise.race([
        Promise.all(uris.map(([, uri]) => this.diagnosticsOf(uri, requests))),
        expired,
      ]);
      return new Map(uris.map(([name], i) => [name, results[i]!.map(toDiagnostic)]));
    } finally {
      clearTimeout(timer);
      for (const [, uri] of uris) this.notify('textDocument/didClose', { textDocument: { uri } });
      await rm(dir, { recursive: true, force: true });
      this.release();
    }
  }

  /** Why the server is gone, once it is. */
  get exitReason(): string | undefined {
    return this.exited;
  }

  kill(): void {
    this.child.kill();
    rmSync(this.workspace, { recursive: true, force: true });
  }

  private async initialize(): Promise<void> {
    const root = pathToFileURL(this.workspace).href;
    await this.request('initialize', {
      processId: process.pid,
      rootUri: root,
      workspaceFolders: [{ uri: root, name: 'concord' }],
      capabilities: { textDocument: { diagnostic: { dynamicRegistration: true } }, workspace: { configuration: true } },
    });
    this.notify('initialized', {});
  }

  /** The diagnostics of an opened document, once pyright has finished checking it. */
  private async diagnosticsOf(uri: string, requests: JobRequests): Promise<LspDiagnostic[]> {
    for (;;) {
      const report = (await this.request(
        'textDocument/diagnostic',
        { textDocument: { uri } },
        requests,
      )) as DiagnosticReport;
      if (report.kind === 'full' && report.resultId !== undefined) return report.items ?? [];
      // pyright handles an open asynchronously: a pull that overtakes it finds no such document yet.
      await new Promise((resolve) => setTimeout(resolve, NOT_OPEN_YET_MS));
    }
  }

  /** Ends a job past its deadline: its pending requests are cancelled and every later one refused. */
  private expire(requests: JobRequests): Error {
    requests.expired = new Error(`pyright did not answer within ${this.timeoutMs / 1000} s`);
    for (const id of requests.ids) {
      this.replies.get(id)?.reject(requests.expired);
      this.replies.delete(id);
      this.notify('$/cancelRequest', { id });
    }
    return requests.expired;
  }

  private request(method: string, params: unknown, requests?: JobRequests): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (this.exited !== undefined) return reject(new Error(this.exited));
      if (requests?.expired) return reject(requests.expired);
      requests?.ids.add(id);
      const done = () => requests?.ids.delete(id);
      this.replies.set(id, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
      this.send({ id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    if (this.exited === undefined) this.send({ method, params });
  }

  private send(message: object): void {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      if (!Number.isFinite(length) || this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString();
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(
        JSON.parse(body) as {
          id?: number;
          method?: string;
          params?: unknown;
          result?: unknown;
          error?: { message: string };
        },
      );
    }
  }

  private dispatch(message: {
    id?: number;
    method?: string;
    params?: unknown;
    result?: unknown;
    error?: { message: string };
  }): void {
    if (message.method !== undefined && message.id !== undefined) {
      // Requests from the server (configuration, capability registration, progress): pyright reads its
      // settings from pyrightconfig.json, so every one of them gets an empty answer.
      const items = (message.params as { items?: unknown[] } | undefined)?.items;
      this.send({
        id: message.id,
        result: message.method === 'workspace/configuration' ? (items ?? []).map(() => null) : null,
      });
      return;
    }
    if (message.id !== undefined) {
      const reply = this.replies.get(message.id);
      this.replies.delete(message.id);
      if (message.error) reply?.reject(new Error(`pyright: ${message.error.message}`));
      else reply?.resolve(message.result);
      return;
    }
    // Notifications (log messages, progress) carry nothing a job needs.
  }

  private fail(reason: string): void {
    this.exited ??= reason;
    for (const reply of this.replies.values()) reply.reject(new Error(reason));
    this.replies.clear();
  }

  /** While a job runs the server's pipes keep the process alive; otherwise they do not. */
  private hold(): void {
    if (this.busy++ === 0)
      for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
        (stream as unknown as { ref(): void }).ref();
    this.child.ref();
  }

  private release(): void {
    if (--this.busy === 0) this.idle();
  }

  private idle(): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
      (stream as unknown as { unref(): void }).unref();
    this.child.unref();
  }
}

function toDiagnostic(d: LspDiagnostic): PyrightDiagnostic {
  const { line, character } = d.range.start;
  return {
    line,
    character,
    severity: SEVERITY[d.severity ?? 1],
    message: d.message,
    ...(d.code === undefined ? {} : { rule: String(d.code) }),
  };
}

/**
 * The pyright servers of one session, one per Python version, started on first use and stopped with the
 * session: a second command in the same process starts its own.
 */
export class PyrightServers {
  private readonly servers = new Map<string, PyrightServer>();

  /** @param timeoutMs how long a job may wait for pyright's answer (tests make pyright impatient). */
  constructor(private readonly timeoutMs?: number) {}

  /** The server for a Python version; one that exited is replaced. */
  server(pythonVersion: string): PyrightServer {
    let server = this.servers.get(pythonVersion);
    if (server === undefined || server.exitReason !== undefined) {
      server = new PyrightServer(pythonVersion, this.timeoutMs);
      this.servers.set(pythonVersion, server);
    }
    return server;
  }

  stop(): void {
    for (const server of this.servers.values()) server.kill();
    this.servers.clear();
  }
}
