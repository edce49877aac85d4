// A minimal Chrome DevTools Protocol client over workerd's inspector, for the benchmarks that look inside a
// workerd: bench:render-profile (V8's CPU profiler) and bench:fuzz (the isolate's heap after a collection).

/** Connects to the inspector at `port`, to the target whose title matches `title` (else the first). */
export async function inspect(port: number, title?: RegExp) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { id: string; title?: string; webSocketDebuggerUrl?: string }[];
  const target = (title && targets.find((t) => title.test(t.title ?? t.id))) || targets[0];
  if (!target) throw new Error("no inspector target yet");
  const socket = new WebSocket(target.webSocketDebuggerUrl ?? `ws://127.0.0.1:${port}/${target.id}`);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}
