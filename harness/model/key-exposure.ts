import { processRunsSeeAccountEnviron } from '../../runtimes/cpython/index.js';
import type { RuntimeName } from '../scenario/types.js';

/** The flag that lets live mode run Python programs that share concord's account while it holds the key. */
export const ALLOW_KEY_EXPOSURE = '--allow-key-exposure';

/**
 * Why live mode must not run these runtimes while concord holds the key, or undefined when it may. The key
 * leaves concord's environment before anything runs, but Linux keeps the environment a process started with
 * in `/proc/<pid>/environ`, readable by every process of the same account. As root, each `python` run has a
 * uid of its own (and a PID namespace); not as root, runs get a user namespace of their own where the host
 * allows one (their own /proc); the Pyodide worker runs under Node's permission model and the container in its
 * own namespaces. Only a `python` run sharing concord's account without namespaces could read it.
 */
export function keyExposure(
  runtimes: Iterable<RuntimeName>,
  hasKey: boolean,
  seesAccountEnviron: () => boolean = processRunsSeeAccountEnviron,
): string | undefined {
  if (!hasKey || ![...runtimes].includes('python') || !seesAccountEnviron()) return undefined;
  const uid = process.getuid?.();
  return (
    `python runs share concord's account here (uid ${String(uid)}, not root, and no user namespace can be made), so a program could read CONCORD_MODEL_API_KEY from /proc/${process.pid}/environ; ` +
    `run as root (each run gets a uid of its own), allow unprivileged user namespaces, use --runtime pyodide or python-container, or pass ${ALLOW_KEY_EXPOSURE} to accept that risk`
  );
}
