/**
 * A Map that holds at most `limit` keys: setting a new key past it drops the oldest set first. For caches keyed by
 * something the network has without end (accounts, DIDs), so what the process remembers stays bounded (issue 31).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly limit: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (!this.map.has(key)) {
      while (this.map.size >= this.limit) {
        const oldest = this.map.keys().next();
        if (oldest.done) break;
        this.map.delete(oldest.value);
      }
    }
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
