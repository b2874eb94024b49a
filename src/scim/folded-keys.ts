/**
 * Case-insensitive attribute names (RFC 7643 §2.1) in constant time, for the objects one request builds or
 * patches. `findKey` scans every key of an object for a spelling it does not hold, so a body of n new names
 * written into one object cost n² comparisons (10,000 names: seconds of a blocked event loop). Here each object's
 * keys are folded to lower case once, when first asked for a spelling it lacks, and the index is kept current by
 * the writes made through `set`, `put` and `remove`: an object indexed here is changed through them only.
 */
import type { JsonObject } from './values.js';

export class FoldedKeys {
  /** Each object's keys by their lower case (the first spelling in key order, as a scan would find it). */
  private readonly indexes = new WeakMap<JsonObject, Map<string, string>>();
  /** Objects holding two spellings of one name: removing one rebuilds their index. */
  private readonly twins = new WeakSet<JsonObject>();

  /** The key of `obj` that names `name`, ignoring case; an exact match wins. */
  find(obj: JsonObject, name: string): string | undefined {
    if (Object.hasOwn(obj, name)) return name;
    return this.index(obj).get(name.toLowerCase());
  }

  /** The value `obj` holds under `name`, any case (a filter's attribute reader). */
  readonly get = (obj: JsonObject, name: string): unknown => {
    const key = this.find(obj, name);
    return key === undefined ? undefined : obj[key];
  };

  /** Sets `name` under the spelling `obj` already has for it (else as given); undefined removes it. */
  set(obj: JsonObject, name: string, value: unknown): void {
    const key = this.find(obj, name);
    if (value === undefined) {
      if (key !== undefined) this.remove(obj, key);
    } else {
      this.put(obj, key ?? name, value);
    }
  }

  /** Sets exactly `key` (which may be a second spelling of a name `obj` holds). */
  put(obj: JsonObject, key: string, value: unknown): void {
    if (!Object.hasOwn(obj, key)) {
      const index = this.indexes.get(obj);
      const lower = key.toLowerCase();
      if (index?.has(lower)) this.twins.add(obj);
      else index?.set(lower, key);
    }
    obj[key] = value;
  }

  /** Deletes exactly `key`. */
  remove(obj: JsonObject, key: string): void {
    if (!Object.hasOwn(obj, key)) return;
    delete obj[key];
    const index = this.indexes.get(obj);
    if (index === undefined) return;
    // Another spelling of the name may be left: rebuilt from the keys when next asked.
    if (this.twins.has(obj)) this.indexes.delete(obj);
    else index.delete(key.toLowerCase());
  }

  private index(obj: JsonObject): Map<string, string> {
    let index = this.indexes.get(obj);
    if (index === undefined) {
      index = new Map();
      for (const key of Object.keys(obj)) {
        const lower = key.toLowerCase();
        if (index.has(lower)) this.twins.add(obj);
        else index.set(lower, key);
      }
      this.indexes.set(obj, index);
    }
    return index;
  }
}
