import { JsonValueError, rebuildJsonValue, toJsonText } from '../seam/json.js';
import type { BindingNamespace, JsonValue, RunError } from '../seam/types.js';

/**
 * The JSON-lines protocol between the host and the CPython guest server (`guest/concord_guest.py`, whose
 * docstring defines the frames). Everything that arrives is untrusted: a program shares its process with
 * the guest, so any inbound line may be forged or junk. Each line is parsed, checked field by field and
 * rebuilt; a line that fails is dropped, never thrown.
 */

export type GuestFrame =
  | { type: 'ready'; python: string }
  | { type: 'started'; group: number }
  | { type: 'call'; call: number; namespace: string; member: string; args: JsonValue }
  | { type: 'log'; line: string }
  | { type: 'result'; value: JsonValue }
  | { type: 'result'; error: RunError }
  | { type: 'ended'; status: string };

/** Kinds a program's own process may report; every other kind is decided by the host. */
const GUEST_ERROR_KINDS = new Set(['exception', 'invalid-output']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function decodeResult(frame: Record<string, unknown>): GuestFrame | undefined {
  if (Object.prototype.hasOwnProperty.call(frame, 'value')) {
    try {
      return { type: 'result', value: rebuildJsonValue(own(frame, 'value'), 'the returned value') };
    } catch (error) {
      if (!(error instanceof JsonValueError)) throw error;
      // JSON text can spell values JavaScript cannot keep (1e400, -0): that is the program's output at fault.
      return { type: 'result', error: { kind: 'invalid-output', message: error.message } };
    }
  }
  const error = own(frame, 'error');
  if (!isRecord(error)) return undefined;
  const kind = own(error, 'kind');
  const message = own(error, 'message');
  const name = own(error, 'name');
  if (typeof kind !== 'string' || !GUEST_ERROR_KINDS.has(kind) || typeof message !== 'string') return undefined;
  const rebuilt: RunError = { kind: kind as RunError['kind'], message };
  if (typeof name === 'string' && name !== '') rebuilt.name = name;
  return { type: 'result', error: rebuilt };
}

/** One inbound line as a frame, or undefined when it is not a well-formed frame. */
export function decodeGuestFrame(line: string): GuestFrame | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(frame)) return undefined;
  switch (own(frame, 'type')) {
    case 'ready': {
      const python = own(frame, 'python');
      return typeof python === 'string' ? { type: 'ready', python } : undefined;
    }
    case 'started': {
      const group = own(frame, 'group');
      return Number.isSafeInteger(group) && (group as number) > 1 ? { type: 'started', group: group as number } : undefined;
    }
    case 'call': {
      const call = own(frame, 'call');
      const namespace = own(frame, 'namespace');
      const member = own(frame, 'member');
      if (!Number.isSafeInteger(call) || typeof namespace !== 'string' || typeof member !== 'string') return undefined;
      try {
        const args = rebuildJsonValue(own(frame, 'args'), 'the call arguments');
        return { type: 'call', call: call as number, namespace, member, args };
      } catch (error) {
        if (error instanceof JsonValueError) return undefined;
        throw error;
      }
    }
    case 'log': {
      const line = own(frame, 'line');
      return typeof line === 'string' ? { type: 'log', line } : undefined;
    }
    case 'result':
      return decodeResult(frame);
    case 'ended': {
      const status = own(frame, 'status');
      return typeof status === 'string' ? { type: 'ended', status } : undefined;
    }
    default:
      return undefined;
  }
}

/** Frames a run's own process may send; on the run channel every other frame is junk. */
export type RunFrame = Extract<GuestFrame, { type: 'call' | 'log' | 'result' }>;

/** One line from a run channel as a frame, or undefined when it is not a well-formed run frame. */
export function decodeRunFrame(line: string): RunFrame | undefined {
  const frame = decodeGuestFrame(line);
  return frame?.type === 'call' || frame?.type === 'log' || frame?.type === 'result' ? frame : undefined;
}

export interface RunLimits {
  memoryBytes?: number;
  processes?: number;
}

/** The run channel a `run` frame offers its child (see run-channel.ts). */
export interface RunChannelAddress {
  path: string;
  token: string;
}

export function encodeRunFrame(
  program: string,
  bindings: readonly BindingNamespace[],
  limits: RunLimits,
  channel?: RunChannelAddress,
): string {
  const namespaces = bindings.map((namespace) => ({
    name: namespace.name,
    members: [...namespace.functions.keys()],
    errorClass: namespace.errorClass === undefined ? null : { ...namespace.errorClass },
  }));
  return JSON.stringify({ type: 'run', source: program, namespaces, limits, ...(channel === undefined ? {} : { channel }) }) + '\n';
}

/** A tool call's outcome: the result already checked and serialized as lossless JSON text, or a message. */
export type ReplyOutcome = { okJson: string } | { error: string };

/** A tool's result as a reply outcome: checked and serialized in one iterative walk (deep values are fine). */
export function toolResultOutcome(value: unknown, what: string): ReplyOutcome {
  try {
    return { okJson: toJsonText(value, what) };
  } catch (error) {
    if (error instanceof JsonValueError) return { error: error.message };
    throw error;
  }
}

export function encodeReplyFrame(call: number, outcome: ReplyOutcome): string {
  if ('error' in outcome) return JSON.stringify({ type: 'reply', call, error: outcome.error }) + '\n';
  return `{"type":"reply","call":${call},"ok":${outcome.okJson}}\n`;
}

export const ABORT_FRAME = '{"type":"abort"}\n';

/** Splits a byte stream into UTF-8 lines; a line longer than `maxLineBytes` is dropped whole. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      if (!this.skipping && this.pending.length === 0) lines.push(chunk.toString('utf8', start, end));
      else if (!this.skipping) {
        this.pending.push(chunk.subarray(start, end));
        lines.push(Buffer.concat(this.pending).toString('utf8'));
      }
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      start = end + 1;
    }
    if (!this.skipping && start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxLineBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skipping = true;
      }
    }
    return lines;
  }
}
