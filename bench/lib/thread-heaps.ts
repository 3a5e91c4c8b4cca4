/** One thread's V8 heap as /metrics gives it (manaboard_thread_heap_bytes{thread, kind}), bytes. */
export type ThreadHeap = { used: number; total: number; external: number };

/** The threads' heaps in one /metrics answer, by thread (serving, database, stream). */
export function threadHeaps(metrics: string): Map<string, ThreadHeap> {
  const threads = new Map<string, ThreadHeap>();
  for (const [, thread = '', kind, value] of metrics.matchAll(
    /^manaboard_thread_heap_bytes\{thread="([^"]+)",kind="(used|total|external)"\} (\S+)$/gm,
  )) {
    const heap = threads.get(thread) ?? { used: 0, total: 0, external: 0 };
    heap[kind as keyof ThreadHeap] = Number(value);
    threads.set(thread, heap);
  }
  return threads;
}
