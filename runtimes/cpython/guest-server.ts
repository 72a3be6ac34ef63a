import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { startBudget } from '../seam/budget.js';
import { answerCall, type BridgeLimits, BridgeWatch } from '../seam/calls.js';
import { toJsonText } from '../seam/json.js';
import { LineSplitter } from '../seam/lines.js';
import { runMessages } from '../seam/messages.js';
import { OutputBudget } from '../seam/output.js';
import type { BindingNamespace, JsonValue, RunError, RunResult } from '../seam/types.js';
import {
  ABORT_FRAME,
  decodeGuestFrame,
  decodeRunFrame,
  encodeReplyFrame,
  encodeRunFrame,
  type GuestFrame,
  type RunChannelAddress,
  type RunLimits,
} from './frames.js';
import type { RunChannelListener } from './run-channel.js';

/** A started guest server (`python3 -I -S -c <guest>`), however it was launched. */
export interface GuestTransport {
  /** Host → guest frames. */
  readonly input: Writable;
  /** Guest → host frames. */
  readonly output: Readable;
  /** The last lines the server wrote to its stderr (programs cannot reach it), for error messages. */
  stderrTail(): string;
  /** Where runs may connect to the host directly instead of through the server's relay (optional). */
  readonly runChannel?: RunChannelListener;
  /** Resolves, with a description such as `exit 1`, once the server process is gone. */
  readonly exited: Promise<string>;
  /**
   * Kills the server and everything it started; resolves once they are gone. `runGroup` and `runUid` are
   * the process group and the account of the run in progress, as the server announced them.
   */
  kill(runGroup?: number, runUid?: number): Promise<void>;
}

export interface RunSettings {
  timeoutMs: number;
  outputLimitBytes: number;
  limits: RunLimits;
  /** What one tool call may carry each way. */
  bridge: BridgeLimits;
  /** The budget a server's `disk` limit refers to, in MB, where the server enforces one. */
  diskMb?: number;
}

/** Longer than any legitimate frame; a longer line is junk and dropped whole. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;
/** After an abort frame the server has this long to report the run's end before it is killed outright. */
const ABORT_GRACE_MS = 5_000;
/**
 * Once the server reports the run's end, its processes are gone and the run channel closes at once; what
 * is still unread there is the run's. A channel some process still holds is cut after this long.
 */
const CHANNEL_DRAIN_MS = 2_000;

/** What one run reaches of the server it runs on. */
interface RunHost {
  readonly transport: GuestTransport;
  kill(runGroup?: number, runUid?: number): Promise<void>;
  /** Whether `run` is still the server's run: a late reply or channel must never reach the next one. */
  isActive(run: GuestRun): boolean;
  /** The run is over: the server is free for the next. */
  ended(run: GuestRun): void;
  answer(
    run: GuestRun,
    frame: Extract<GuestFrame, { type: 'call' }>,
    bindings: readonly BindingNamespace[],
    replies: Writable,
  ): Promise<void>;
}

/** One guest server: a pre-fork interpreter that runs each program in a fresh child, one run at a time. */
export class GuestServer {
  private active: GuestRun | undefined;
  private dead = false;

  private constructor(
    private readonly transport: GuestTransport,
    /** The guest interpreter's version, `major.minor.micro`. */
    readonly python: string,
  ) {}

  /** Starts talking to a launched server; rejects (and kills it) unless it reports ready in time. */
  static async connect(transport: GuestTransport, startupTimeoutMs: number, what: string): Promise<GuestServer> {
    transport.input.on('error', () => {
      // A closed pipe shows up as the server's exit, which every waiter already handles.
    });
    const splitter = new LineSplitter(MAX_FRAME_BYTES);
    let server: GuestServer | undefined;
    const python = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${what} did not report ready within ${startupTimeoutMs} ms.${stderrNote(transport)}`));
      }, startupTimeoutMs);
      transport.output.on('data', (chunk: Buffer) => {
        for (const line of splitter.push(chunk)) {
          const frame = decodeGuestFrame(line);
          if (frame === undefined) continue;
          if (server !== undefined) server.active?.onFrame(frame, transport.input);
          else if (frame.type === 'ready') {
            clearTimeout(timer);
            resolve(frame.python);
          }
        }
      });
      void transport.exited.then((status) => {
        clearTimeout(timer);
        reject(new Error(`${what} exited (${status}) before it was ready.${stderrNote(transport)}`));
      });
    }).catch(async (error: unknown) => {
      await transport.kill();
      throw error;
    });
    server = new GuestServer(transport, python);
    const started = server;
    void transport.exited.then((status) => {
      started.dead = true;
      started.active?.onExit(status);
    });
    return server;
  }

  get alive(): boolean {
    return !this.dead;
  }

  async kill(runGroup?: number, runUid?: number): Promise<void> {
    this.dead = true;
    await this.transport.kill(runGroup, runUid);
  }

  /** Runs one program. The caller never overlaps two runs on one server. */
  run(
    program: string,
    bindings: readonly BindingNamespace[],
    settings: RunSettings,
    signal?: AbortSignal,
  ): Promise<RunResult> {
    if (signal?.aborted) return Promise.resolve({ logs: [], error: runMessages.abortedBeforeStart() });
    if (this.dead) {
      return Promise.resolve({
        logs: [],
        error: { kind: 'worker-exit', message: 'the Python guest server is no longer running' },
      });
    }
    return new Promise<RunResult>((resolve) => {
      const run = new GuestRun(this.runHost, bindings, settings, signal, resolve);
      this.active = run;
      run.offerChannel();
      this.transport.input.write(encodeRunFrame(program, bindings, settings.limits, run.offeredChannel));
    });
  }

  /** What a run reaches of its server. */
  private get runHost(): RunHost {
    return {
      transport: this.transport,
      kill: (runGroup, runUid) => this.kill(runGroup, runUid),
      isActive: (run) => this.active === run,
      ended: (run) => {
        if (this.active === run) this.active = undefined;
      },
      answer: (run, frame, bindings, replies) => this.answer(run, frame, bindings, replies),
    };
  }

  private async answer(
    run: GuestRun,
    frame: Extract<GuestFrame, { type: 'call' }>,
    bindings: readonly BindingNamespace[],
    replies: Writable,
  ): Promise<void> {
    const answer = await answerCall(bindings, frame.namespace, frame.member, frame.args, run.watch);
    // A reply that arrives after its run ended must not reach the next run.
    if (this.active === run) replies.write(encodeReplyFrame(frame.call, answer));
  }
}

/**
 * One run on a guest server, from its run frame to its result: its logs and output budget, its time budget and abort,
 * the frames of the server and of its own run channel, and how it ends. Only the server vouches that a run is over.
 */
class GuestRun {
  /** The bridge bounds of this run, and the first a call passed. */
  readonly watch: BridgeWatch;
  private readonly logs: string[] = [];
  private readonly output: OutputBudget;
  private outcome: { value: JsonValue } | { error: RunError } | undefined;
  private stopped: RunError | undefined;
  private overBudget: RunError | undefined;
  private backstop: NodeJS.Timeout | undefined;
  private runGroup: number | undefined;
  private runUid: number | undefined;
  /** The run's own connection, when its child took the run channel the host offered. */
  private channel: Socket | undefined;
  private channelClosed: Promise<void> = Promise.resolve();
  private offer: ReturnType<RunChannelListener['offer']> | undefined;
  private finished = false;
  private readonly cancelBudget: () => void;
  private readonly onAbort = (): void => this.stop(runMessages.aborted());

  constructor(
    private readonly host: RunHost,
    private readonly bindings: readonly BindingNamespace[],
    private readonly settings: RunSettings,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (result: RunResult) => void,
  ) {
    this.output = new OutputBudget(settings.outputLimitBytes);
    this.watch = new BridgeWatch(settings.bridge);
    this.cancelBudget = startBudget(settings.timeoutMs, () => this.stop(runMessages.timeout(settings.timeoutMs)));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The channel the run frame names, where the host offers the run a connection of its own. */
  get offeredChannel(): RunChannelAddress | undefined {
    return this.offer?.channel;
  }

  /** Offers the run's child a channel straight to the host; only call, log and result frames are the run's to send. */
  offerChannel(): void {
    this.offer = this.host.transport.runChannel?.offer((socket) => {
      if (!this.host.isActive(this) || this.channel !== undefined) {
        socket.destroy();
        return;
      }
      this.channel = socket;
      this.channelClosed = new Promise((closed) => socket.once('close', () => closed()));
      // Anything else on its channel is junk.
      const splitter = new LineSplitter(MAX_FRAME_BYTES);
      socket.on('data', (chunk: Buffer) => {
        for (const line of splitter.push(chunk)) {
          const frame = decodeRunFrame(line);
          if (frame !== undefined && this.host.isActive(this)) this.onFrame(frame, socket);
        }
      });
    });
  }

  /** `replies` is where the answer to a call frame goes: the way the call came in. */
  onFrame(frame: GuestFrame, replies: Writable): void {
    const { output, settings } = this;
    switch (frame.type) {
      case 'call':
        if (this.stopped === undefined) void this.host.answer(this, frame, this.bindings, replies);
        return;
      case 'log':
        if (this.stopped !== undefined) return;
        if (output.log(frame.line)) this.logs.push(frame.line);
        else this.overLimit();
        return;
      case 'result':
        return this.onResult(frame);
      case 'written':
        if (this.stopped === undefined && !output.bytes(frame.bytes) && this.outcome === undefined) this.overLimit();
        return;
      case 'started':
        this.runGroup ??= frame.group;
        this.runUid ??= frame.uid;
        return;
      case 'ended':
        if (frame.limit === 'memory')
          this.overBudget = runMessages.memoryLimit((settings.limits.memoryBytes ?? 0) / (1024 * 1024));
        else if (frame.limit === 'disk') this.overBudget = runMessages.diskLimit(settings.diskMb ?? 0);
        this.finishAfterChannel(frame.status);
        return;
      case 'ready':
        return;
    }
  }

  onExit(status: string): void {
    this.finish(status, true);
  }

  private onResult(frame: Extract<GuestFrame, { type: 'result' }>): void {
    if (this.outcome !== undefined || this.stopped !== undefined) return;
    if ('error' in frame) {
      if (frame.error.kind === 'output-limit') this.overLimit();
      else this.outcome = { error: frame.error };
      return;
    }
    if (this.output.value(toJsonText(frame.value))) this.outcome = { value: frame.value };
    else this.overLimit();
  }

  private overLimit(): void {
    this.stop(runMessages.outputLimit(this.settings.outputLimitBytes));
  }

  private stop(error: RunError): void {
    if (this.stopped !== undefined || this.outcome !== undefined) return;
    this.stopped = error;
    this.host.transport.input.write(ABORT_FRAME);
    this.backstop = setTimeout(() => void this.host.kill(this.runGroup, this.runUid), ABORT_GRACE_MS);
  }

  /** The run's processes are gone: read what they left on the run channel, then finish. */
  private finishAfterChannel(exitStatus: string): void {
    if (this.channel === undefined) {
      this.finish(exitStatus, false);
      return;
    }
    let drainTimer: NodeJS.Timeout | undefined;
    const drainCut = new Promise<void>((done) => {
      drainTimer = setTimeout(done, CHANNEL_DRAIN_MS);
    });
    void Promise.race([this.channelClosed, drainCut]).then(() => {
      clearTimeout(drainTimer);
      this.finish(exitStatus, false);
    });
  }

  private finish(exitStatus: string, serverGone: boolean): void {
    if (this.finished) return;
    this.finished = true;
    this.cancelBudget();
    clearTimeout(this.backstop);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.offer?.withdraw();
    this.channel?.destroy();
    this.host.ended(this);
    this.resolve(this.watch.settle(this.result(exitStatus, serverGone)));
  }

  private result(exitStatus: string, serverGone: boolean): RunResult {
    const { logs, stopped, overBudget, outcome } = this;
    if (stopped !== undefined) return { logs, error: stopped };
    if (!serverGone && overBudget !== undefined) return { logs, error: overBudget };
    // Bytes written to fds 1 and 2 are all counted once the server reports the end.
    if (!serverGone && this.output.exceeded)
      return { logs, error: runMessages.outputLimit(this.settings.outputLimitBytes) };
    if (serverGone) {
      // Only the server vouches that a run is over and nothing of it still runs: a result that came over the run
      // channel while the server died (killed by the program, say) is not trusted.
      const message = `the Python guest server ended (${exitStatus}) before the run did.${stderrNote(this.host.transport)}`;
      return { logs, error: { kind: 'worker-exit', message } };
    }
    if (outcome !== undefined) return { logs, ...outcome };
    const message = `the Python process running the program ended (${exitStatus}) before the program returned a result`;
    return { logs, error: { kind: 'worker-exit', message } };
  }
}

function stderrNote(transport: GuestTransport): string {
  const tail = transport.stderrTail().trim();
  return tail === '' ? '' : ` Its stderr ends with:\n${tail}`;
}
