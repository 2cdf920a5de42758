// A small least-recently-used map for answers kept in this process (share-card images, topic summaries).
// A Map iterates in insertion order: re-inserting on every read makes its first key the least recently used.
export interface Lru<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

export function createLru<V>(max: number): Lru<V> {
  const entries = new Map<string, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
