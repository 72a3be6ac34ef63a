import { Worker } from 'node:worker_threads';

// An ES module: an eval'd CommonJS script would itself add require, module, exports, __filename and __dirname.
const LISTING =
  "import { parentPort } from 'node:worker_threads'; parentPort.postMessage(Object.getOwnPropertyNames(globalThis));";

let baseline: Promise<ReadonlySet<string>> | undefined;

/**
 * The own global properties of a fresh worker thread of this Node: the JavaScript built-ins plus Node's
 * standard globals (timers, URL, structuredClone …), before any code of ours runs. The TypeScript runtime
 * may remove some of them; anything a program sees beyond them was added by someone.
 */
export function platformGlobals(): Promise<ReadonlySet<string>> {
  baseline ??= new Promise<ReadonlySet<string>>((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(LISTING)}`));
    worker.once('message', (names: string[]) => {
      resolve(new Set(names));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return baseline;
}
