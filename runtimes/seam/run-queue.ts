/**
 * Runs tasks one at a time, in the order they were queued: a guest that serves one program at a time
 * (a CPython guest server, a Pyodide interpreter) takes the next run only when the last one has ended. A
 * failed task does not stop the queue.
 */
export class RunQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}
