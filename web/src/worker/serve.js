// The working end of the bridge (./bridge.js): a service's handlers answering
// requests that arrive on a port, in a Web Worker (./worker.js) or on the page
// itself (the bridge's fallback where no worker can start). The same code
// either way, so a service behaves the same in both places.
//
// Messages (plain data: they are structured-cloned):
//   in:  { id, request, payload }   call handlers[request](payload, context)
//        { id, cancel: true }       that call's context.signal aborts
//   out: { ready: true }            once, from a worker that has started (./worker.js)
//        { id, progress }           any number, while the call runs
//        { id, reply }              its result, once; or
//        { id, error, name }        the message and name of what it threw
//
// A handler: (payload, { progress, signal, sliceMs, nextSlice }) -> result or a
// promise of it. `progress(value)` sends a progress message; `signal` aborts
// when the caller cancels (the handler stops where it can and replies, e.g.
// with what it did so far); a handler that works for longer than `sliceMs`
// awaits `nextSlice(ms)` between slices, so that a cancel can arrive and, on
// the page, the page can paint.

const messageOf = (err) => String(err?.message ?? err);

// Runs fn after `ms`, or as the next task for 0 (a MessageChannel: a nested
// setTimeout waits at least 4 ms). For a worker; on the page setTimeout.
export function afterTask() {
  const channel = new MessageChannel();
  const due = [];
  channel.port1.onmessage = () => due.shift()?.();
  return (fn, ms) => {
    if (ms > 0) {
      setTimeout(fn, ms);
    } else {
      due.push(fn);
      channel.port2.postMessage(null);
    }
  };
}

// port: a Worker's global scope or a MessagePort. handlers: an object of
// handlers or a promise of one (requests wait for it, in order).
// -> { close() }: every running call's signal aborts and the port is left.
export function serve(port, handlers, { sliceMs = 20, schedule = (fn, ms) => setTimeout(fn, ms) } = {}) {
  const ready = Promise.resolve(handlers);
  ready.catch(() => {});   // a failure is each request's error, not an unhandled rejection
  const running = new Map();   // id -> AbortController
  const nextSlice = (ms = 0) => new Promise((resolve) => schedule(resolve, ms));

  async function call({ id, request, payload }) {
    const controller = new AbortController();
    running.set(id, controller);
    const progress = (value) => { if (running.get(id) === controller) port.postMessage({ id, progress: value }); };
    try {
      const all = await ready;
      const handler = Object.hasOwn(all, request) ? all[request] : undefined;
      if (typeof handler !== 'function') throw new Error(`request: unknown name ${JSON.stringify(request)}`);
      const reply = await handler(payload, { progress, signal: controller.signal, sliceMs, nextSlice });
      if (running.get(id) === controller) port.postMessage({ id, reply });
    } catch (err) {
      if (running.get(id) === controller) port.postMessage({ id, error: messageOf(err), name: err?.name ?? 'Error' });
    } finally {
      if (running.get(id) === controller) running.delete(id);
    }
  }

  function receive({ data }) {
    if (data?.cancel) running.get(data.id)?.abort();
    else if (data?.request !== undefined) call(data);
  }

  port.addEventListener('message', receive);
  port.start?.();
  return {
    close() {
      port.removeEventListener('message', receive);
      for (const controller of running.values()) controller.abort();
      running.clear();
    },
  };
}
