import type { Readable, Writable } from 'node:stream';
import { LineSplitter } from '../../runtimes/seam/lines.js';

/** A report longer than this is no report: the checker is stopped. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** One running checker process (see CHECKER_SCRIPT), however it runs: a local process or a container exec. */
export interface CheckerProcess {
  /** Requests, one JSON line each; ending it ends the checker. */
  readonly requests: Writable;
  /** Reports, one JSON line each. */
  readonly reports: Readable;
  /** Settles once the process has ended, with what befell it, after its name: `failed (1): <stderr's end>`. */
  readonly ended: Promise<string>;
  /** Kills it at once (and whatever it started); resolves once it is gone. */
  kill(): Promise<void>;
  /** Ends it gently, between batches: its stdin closes and it exits. */
  close(): Promise<void>;
  /** Whether it keeps the host alive: only while a batch waits on it. */
  ref(on: boolean): void;
}

export interface CheckerOptions {
  /** How the checker is named in errors: the executable, or the label and image. */
  who: string;
  /** Starts a checker process. */
  start(): Promise<CheckerProcess>;
  /** Without a batch for this long, the checker is ended (the next batch starts a new one); default never. */
  idleMs?: number;
}

interface Running {
  process: CheckerProcess;
  /** The next report line, once asked for. */
  next: Array<(line: string) => void>;
  lines: string[];
  ended: boolean;
}

/**
 * One long-lived checker of one interpreter: started on the first batch (or by `start()`), it serves every
 * batch of the run, one at a time, over its pipes. A batch that gets no report within its time, or during
 * which the checker ends, fails naming the checker; the checker is killed and the next batch starts a new
 * one, so nothing a batch did reaches the next. While no batch waits on it, it does not keep the host alive.
 */
export class Checker {
  #running: Promise<Running> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #idle: NodeJS.Timeout | undefined;
  #disposed = false;

  constructor(private readonly options: CheckerOptions) {}

  /** Starts the checker now, if it is not running, so the first batch finds it ready. */
  start(): Promise<void> {
    return this.#enqueue(async () => {
      await this.#process();
    });
  }

  /**
   * Sends one request (its sources as JSON) and resolves with the report line; `timeoutMs` bounds the whole
   * batch, and `seconds` each module a verifying batch executes (IMPORT_SECONDS unless given).
   */
  request(
    request: { sources: readonly string[]; verify: boolean; seconds?: number },
    timeoutMs: number,
  ): Promise<string> {
    return this.#enqueue(() => this.#exchange(`${JSON.stringify(request)}\n`, timeoutMs));
  }

  /**
   * Kills the running checker, if any, and the one a start or batch queued before this launches (a start
   * asked for just before the dispose has not launched its checker yet); a batch after this starts a new one.
   */
  async dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#idle);
    await this.#stop();
    await this.#enqueue(() => this.#stop());
    this.#disposed = false;
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #exchange(line: string, timeoutMs: number): Promise<string> {
    clearTimeout(this.#idle);
    const running = await this.#process();
    const { who } = this.options;
    running.process.ref(true);
    let timer: NodeJS.Timeout | undefined;
    try {
      const report = new Promise<string>((resolve) => running.next.push(resolve));
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${who} did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      const ended = running.process.ended.then((why): never => {
        throw new Error(`${who} ${why}`);
      });
      // Once the report is in, the checker's later end is no batch's failure.
      ended.catch(() => {});
      running.process.requests.write(line);
      this.#flush(running);
      return await Promise.race([report, late, ended]);
    } catch (error) {
      await this.#stop();
      throw error;
    } finally {
      clearTimeout(timer);
      running.process.ref(false);
      if (this.options.idleMs !== undefined && !this.#disposed) {
        this.#idle = setTimeout(() => void this.#enqueue(() => this.#stop('close')), this.options.idleMs);
        this.#idle.unref();
      }
    }
  }

  /** The running checker, started when there is none (or the last one ended). */
  #process(): Promise<Running> {
    const current = this.#running;
    if (current !== undefined) {
      return current.then(
        (running) => (running.ended ? this.#launch() : running),
        () => this.#launch(),
      );
    }
    return this.#launch();
  }

  #launch(): Promise<Running> {
    const launched = (async (): Promise<Running> => {
      const process = await this.options.start();
      process.ref(false);
      const running: Running = { process, next: [], lines: [], ended: false };
      const splitter = new LineSplitter(MAX_REPORT_BYTES, () => void process.kill());
      process.reports.on('data', (chunk: Buffer) => {
        running.lines.push(...splitter.push(chunk));
        this.#flush(running);
      });
      process.reports.on('error', () => {});
      process.requests.on('error', () => {});
      void process.ended.then(() => (running.ended = true));
      return running;
    })();
    this.#running = launched;
    // A failed start is not kept: the next batch tries again.
    launched.catch(() => {
      if (this.#running === launched) this.#running = undefined;
    });
    return launched;
  }

  #flush(running: Running): void {
    while (running.next.length > 0 && running.lines.length > 0) running.next.shift()!(running.lines.shift()!);
  }

  async #stop(how: 'kill' | 'close' = 'kill'): Promise<void> {
    const current = this.#running;
    this.#running = undefined;
    const running = await current?.catch(() => undefined);
    if (running === undefined) return;
    running.ended = true;
    // Idle, it does not keep the host alive; awaited, its end must: else a host whose last work is this wait
    // finds its event loop empty and ends with the wait still pending.
    running.process.ref(true);
    await (how === 'kill' ? running.process.kill() : running.process.close());
  }
}
