import type { RuntimeName } from '../scenario/types.js';

/** The flag that lets live mode run Python programs that share concord's account while it holds the key. */
export const ALLOW_KEY_EXPOSURE = '--allow-key-exposure';

/**
 * Why live mode must not run these runtimes while concord holds the key, or undefined when it may. The key
 * leaves concord's environment before anything runs, but Linux keeps the environment a process started with
 * in `/proc/<pid>/environ`, readable by every process of the same account. As root, each `python` run has a
 * uid of its own (and a PID namespace), the Pyodide worker runs as nobody under Node's permission model and
 * the container runs in its own namespaces: none of them can read it. Not as root, a `python` run shares
 * concord's account and could.
 */
export function keyExposure(
  runtimes: Iterable<RuntimeName>,
  hasKey: boolean,
  uid: number | undefined = process.getuid?.(),
): string | undefined {
  if (!hasKey || uid === 0 || ![...runtimes].includes('python')) return undefined;
  return (
    `python runs share concord's account here (uid ${String(uid)}, not root), so a program could read CONCORD_MODEL_API_KEY from /proc/${process.pid}/environ; ` +
    `run as root (each run gets a uid of its own), use --runtime pyodide or python-container, or pass ${ALLOW_KEY_EXPOSURE} to accept that risk`
  );
}
