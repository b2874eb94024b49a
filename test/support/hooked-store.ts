/**
 * Deterministic races: a proxy over a store that runs `fn` once, just before the first call of method `name`,
 * so a "concurrent" request lands exactly between another request's read and its commit. `calls` names every
 * method called, in order.
 */
import type { Store } from '../../src/core/store-port.js';

export function hooked(store: Store): {
  store: Store;
  calls: string[];
  before(name: keyof Store, fn: () => Promise<void>): void;
} {
  const hooks = new Map<string, () => Promise<void>>();
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        calls.push(String(prop));
        const hook = hooks.get(String(prop));
        if (hook) {
          hooks.delete(String(prop));
          await hook();
        }
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, calls, before: (name, fn) => void hooks.set(String(name), fn) };
}
