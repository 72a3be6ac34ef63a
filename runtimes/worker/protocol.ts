/**
 * Frames between the host and a worker that runs programs one at a time. Values always cross as JSON
 * text, never as structured clones: the worker writes it with the same rules as the seam's lossless
 * serializer, and the host validates every value it receives with the seam's parser.
 */

import type { NamespaceShape } from '../seam/calls.js';
import { readGuestError } from '../seam/result.js';

export type { NamespaceShape };

/** The program's parameters, in order: each namespace, followed by its error class when it has one. */
export function globalNames(namespaces: readonly NamespaceShape[]): string[] {
  return namespaces.flatMap((shape) =>
    shape.errorClass === undefined ? [shape.name] : [shape.name, shape.errorClass.name],
  );
}

/** Host → worker. */
export type HostFrame =
  | { type: 'run'; code: string; namespaces: NamespaceShape[]; outputLimitBytes: number }
  | { type: 'reply'; id: number; ok: string }
  /** `failure`: the JSON text of `{ error, code?, data? }` (see failureJson). */
  | { type: 'reply'; id: number; failure: string };

export type GuestFailureKind = 'exception' | 'invalid-output' | 'output-limit';

/** Worker → host. */
export type GuestFrame =
  | { type: 'log'; line: string }
  | { type: 'call'; id: number; namespace: string; member: string; args: string }
  | { type: 'result'; value: string }
  | { type: 'failure'; kind: GuestFailureKind; name?: string; message: string }
  /** Sent after a run's last frame once the worker's microtask queue has drained: it may serve another run. */
  | { type: 'idle' }
  /** Sent once, when the worker has booted and listens for runs: a run's time budget starts no earlier. */
  | { type: 'ready' };

/** The frames that belong to a run, as opposed to the worker's own lifecycle reports. */
export type RunFrame = Exclude<GuestFrame, { type: 'idle' | 'ready' }>;

function field(frame: object, key: string): unknown {
  return Object.hasOwn(frame, key) ? (frame as Record<string, unknown>)[key] : undefined;
}

/**
 * Reads an inbound frame from the worker, which a hostile program may have forged: returns a fresh frame
 * built from checked own fields only, or undefined for anything malformed.
 */
export function readGuestFrame(raw: unknown): GuestFrame | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const type = field(raw, 'type');
  if (type === 'log') {
    const line = field(raw, 'line');
    return typeof line === 'string' ? { type, line } : undefined;
  }
  if (type === 'call') {
    const id = field(raw, 'id');
    const namespace = field(raw, 'namespace');
    const member = field(raw, 'member');
    const args = field(raw, 'args');
    if (
      !Number.isSafeInteger(id) ||
      typeof namespace !== 'string' ||
      typeof member !== 'string' ||
      typeof args !== 'string'
    ) {
      return undefined;
    }
    return { type, id: id as number, namespace, member, args };
  }
  if (type === 'idle' || type === 'ready') return { type };
  if (type === 'result') {
    const value = field(raw, 'value');
    return typeof value === 'string' ? { type, value } : undefined;
  }
  if (type === 'failure') {
    const error = readGuestError(field(raw, 'kind'), field(raw, 'message'), field(raw, 'name'));
    if (error === undefined) return undefined;
    return {
      type,
      kind: error.kind as GuestFailureKind,
      message: error.message,
      ...(error.name === undefined ? {} : { name: error.name }),
    };
  }
  return undefined;
}
