import { type CallAnswer, failureJson, namespaceShapes } from '../seam/calls.js';
import { JsonValueError, rebuildJsonValue } from '../seam/json.js';
import { readGuestResult } from '../seam/result.js';
import type { BindingNamespace, JsonValue, RunError } from '../seam/types.js';

/**
 * The JSON-lines protocol between the host and the CPython guest server (`guest/concord_guest.py`, whose
 * docstring defines the frames). Everything that arrives is untrusted: a program shares its process with
 * the guest, so any inbound line may be forged or junk. Each line is parsed, checked field by field and
 * rebuilt; a line that fails is dropped, never thrown.
 */

export type GuestFrame =
  | { type: 'ready'; python: string }
  /** `uid`: the run's own account, when runs get one. */
  | { type: 'started'; group: number; uid?: number }
  | { type: 'call'; call: number; namespace: string; member: string; args: JsonValue }
  | { type: 'log'; line: string }
  | { type: 'result'; value: JsonValue }
  | { type: 'result'; error: RunError }
  /** Bytes the run wrote straight to its fds 1 and 2: counted against the output cap, never shown. */
  | { type: 'written'; bytes: number }
  /** `limit`: the server ended the run for going over that budget. */
  | { type: 'ended'; status: string; limit?: 'memory' | 'disk' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function decodeResult(frame: Record<string, unknown>): GuestFrame | undefined {
  const result = readGuestResult(frame);
  return result === undefined ? undefined : { type: 'result', ...result };
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
      const uid = own(frame, 'uid');
      if (!Number.isSafeInteger(group) || (group as number) <= 1) return undefined;
      if (uid !== undefined && (!Number.isSafeInteger(uid) || (uid as number) <= 0)) return undefined;
      return { type: 'started', group: group as number, ...(uid === undefined ? {} : { uid: uid as number }) };
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
    case 'written': {
      const bytes = own(frame, 'bytes');
      return Number.isSafeInteger(bytes) && (bytes as number) >= 0
        ? { type: 'written', bytes: bytes as number }
        : undefined;
    }
    case 'ended': {
      const status = own(frame, 'status');
      const limit = own(frame, 'limit');
      if (typeof status !== 'string') return undefined;
      return limit === 'memory' || limit === 'disk' ? { type: 'ended', status, limit } : { type: 'ended', status };
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
  const namespaces = namespaceShapes(bindings);
  return (
    JSON.stringify({
      type: 'run',
      source: program,
      namespaces,
      limits,
      ...(channel === undefined ? {} : { channel }),
    }) + '\n'
  );
}

export function encodeReplyFrame(call: number, outcome: CallAnswer): string {
  if ('error' in outcome) return `{"type":"reply","call":${call},${failureJson(outcome).slice(1)}\n`;
  return `{"type":"reply","call":${call},"ok":${outcome.okJson}}\n`;
}

export const ABORT_FRAME = '{"type":"abort"}\n';
