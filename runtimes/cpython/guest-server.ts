import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { startBudget } from '../seam/budget.js';
import { answerCall } from '../seam/calls.js';
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

interface ActiveRun {
  /** `replies` is where the answer to a call frame goes: the way the call came in. */
  onFrame(frame: GuestFrame, replies: Writable): void;
  onExit(status: string): void;
}

/** One guest server: a pre-fork interpreter that runs each program in a fresh child, one run at a time. */
export class GuestServer {
  private active: ActiveRun | undefined;
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
      const logs: string[] = [];
      const output = new OutputBudget(settings.outputLimitBytes);
      let outcome: { value: JsonValue } | { error: RunError } | undefined;
      let stopped: RunError | undefined;
      let backstop: NodeJS.Timeout | undefined;
      let runGroup: number | undefined;
      let runUid: number | undefined;

      // The run's own connection, when its child took the run channel the host offered.
      let channel: Socket | undefined;
      let channelClosed: Promise<void> = Promise.resolve();
      let finished = false;
      let overBudget: RunError | undefined;
      const finish = (exitStatus: string, serverGone: boolean): void => {
        if (finished) return;
        finished = true;
        cancelBudget();
        clearTimeout(backstop);
        signal?.removeEventListener('abort', onAbort);
        offer?.withdraw();
        channel?.destroy();
        this.active = undefined;
        if (stopped !== undefined) resolve({ logs, error: stopped });
        else if (!serverGone && overBudget !== undefined) resolve({ logs, error: overBudget });
        else if (!serverGone && output.exceeded) {
          // Bytes written to fds 1 and 2 are all counted once the server reports the end.
          resolve({ logs, error: runMessages.outputLimit(settings.outputLimitBytes) });
        } else if (serverGone) {
          // Only the server vouches that a run is over and nothing of it still runs: a result that came
          // over the run channel while the server died (killed by the program, say) is not trusted.
          const message = `the Python guest server ended (${exitStatus}) before the run did.${stderrNote(this.transport)}`;
          resolve({ logs, error: { kind: 'worker-exit', message } });
        } else if (outcome !== undefined) resolve({ logs, ...outcome });
        else {
          const message = `the Python process running the program ended (${exitStatus}) before the program returned a result`;
          resolve({ logs, error: { kind: 'worker-exit', message } });
        }
      };
      /** The run's processes are gone: read what they left on the run channel, then finish. */
      const finishAfterChannel = (exitStatus: string): void => {
        if (channel === undefined) {
          finish(exitStatus, false);
          return;
        }
        let drainTimer: NodeJS.Timeout | undefined;
        const drainCut = new Promise<void>((done) => {
          drainTimer = setTimeout(done, CHANNEL_DRAIN_MS);
        });
        void Promise.race([channelClosed, drainCut]).then(() => {
          clearTimeout(drainTimer);
          finish(exitStatus, false);
        });
      };
      const stop = (error: RunError): void => {
        if (stopped !== undefined || outcome !== undefined) return;
        stopped = error;
        this.transport.input.write(ABORT_FRAME);
        backstop = setTimeout(() => void this.kill(runGroup, runUid), ABORT_GRACE_MS);
      };
      const overLimit = (): void => stop(runMessages.outputLimit(settings.outputLimitBytes));
      const onAbort = (): void => stop(runMessages.aborted());
      const cancelBudget = startBudget(settings.timeoutMs, () => stop(runMessages.timeout(settings.timeoutMs)));
      signal?.addEventListener('abort', onAbort, { once: true });

      const run: ActiveRun = {
        onFrame: (frame, replies) => {
          switch (frame.type) {
            case 'call':
              if (stopped === undefined) void this.answer(run, frame, bindings, replies);
              return;
            case 'log':
              if (stopped !== undefined) return;
              if (output.log(frame.line)) logs.push(frame.line);
              else overLimit();
              return;
            case 'result':
              if (outcome !== undefined || stopped !== undefined) return;
              if ('error' in frame) {
                if (frame.error.kind === 'output-limit') overLimit();
                else outcome = { error: frame.error };
                return;
              }
              if (output.value(toJsonText(frame.value))) outcome = { value: frame.value };
              else overLimit();
              return;
            case 'written':
              if (stopped === undefined && !output.bytes(frame.bytes) && outcome === undefined) overLimit();
              return;
            case 'started':
              runGroup ??= frame.group;
              runUid ??= frame.uid;
              return;
            case 'ended':
              if (frame.limit === 'memory')
                overBudget = runMessages.memoryLimit((settings.limits.memoryBytes ?? 0) / (1024 * 1024));
              else if (frame.limit === 'disk') overBudget = runMessages.diskLimit(settings.diskMb ?? 0);
              finishAfterChannel(frame.status);
              return;
            case 'ready':
              return;
          }
        },
        onExit: (status) => finish(status, true),
      };
      this.active = run;
      const offer = this.transport.runChannel?.offer((socket) => {
        if (this.active !== run || channel !== undefined) {
          socket.destroy();
          return;
        }
        channel = socket;
        channelClosed = new Promise((closed) => socket.once('close', () => closed()));
        // Only call, log and result frames are the run's to send; anything else on its channel is junk.
        const splitter = new LineSplitter(MAX_FRAME_BYTES);
        socket.on('data', (chunk: Buffer) => {
          for (const line of splitter.push(chunk)) {
            const frame = decodeRunFrame(line);
            if (frame !== undefined && this.active === run) run.onFrame(frame, socket);
          }
        });
      });
      this.transport.input.write(encodeRunFrame(program, bindings, settings.limits, offer?.channel));
    });
  }

  private async answer(
    run: ActiveRun,
    frame: Extract<GuestFrame, { type: 'call' }>,
    bindings: readonly BindingNamespace[],
    replies: Writable,
  ): Promise<void> {
    const answer = await answerCall(bindings, frame.namespace, frame.member, frame.args);
    // A reply that arrives after its run ended must not reach the next run.
    if (this.active === run) replies.write(encodeReplyFrame(frame.call, answer));
  }
}

function stderrNote(transport: GuestTransport): string {
  const tail = transport.stderrTail().trim();
  return tail === '' ? '' : ` Its stderr ends with:\n${tail}`;
}
