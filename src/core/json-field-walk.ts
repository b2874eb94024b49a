/**
 * Walks a parsed JSON value depth-first without recursion (a hostile body nests deeper than the stack), with
 * each node's way back to the root, so a check can name the field it refuses (`emails[0].value`). Strings must
 * be valid Unicode: JSON's `\ud800` escape makes a lone UTF-16 surrogate, which the memory store keeps and Redis
 * (UTF-8) turns into U+FFFD, so the two stores would disagree on the value, its uniqueness and its lookups.
 */

export interface JsonNode {
  value: unknown;
  /** 0 for the root. */
  depth: number;
  parent?: JsonNode;
  /** The key (object) or index (array) under the parent. */
  key?: string | number;
}

/** Every node, parents before children; a consumer that throws at a node stops before its children are read. */
export function* walkJson(root: unknown): Generator<JsonNode, void, undefined> {
  const stack: JsonNode[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    const { value } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], depth: node.depth + 1, parent: node, key: i });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({
          value: (value as Record<string, unknown>)[keys[i]!],
          depth: node.depth + 1,
          parent: node,
          key: keys[i]!,
        });
      }
    }
  }
}

/** `a.b[0].c` (the root alone: ''). */
export function pathOf(node: JsonNode): string {
  let path = '';
  for (let n: JsonNode | undefined = node; n?.key !== undefined; n = n.parent) {
    const rest = path === '' || path.startsWith('[') ? path : `.${path}`;
    path = typeof n.key === 'number' ? `[${n.key}]${rest}` : `${n.key}${rest}`;
  }
  return path;
}

/**
 * Whether `text` is valid Unicode: no UTF-16 surrogate without its pair (the built-in, not a regex: every key and
 * string of every body).
 */
export const isWellFormed = (text: string): boolean => text.isWellFormed();

/** What a node holds that is not valid Unicode: its key or its string value; undefined when neither. */
export function malformedText(node: JsonNode): 'key' | 'value' | undefined {
  if (typeof node.key === 'string' && !isWellFormed(node.key)) return 'key';
  if (typeof node.value === 'string' && !isWellFormed(node.value)) return 'value';
  return undefined;
}

/** The path of the first field (key or string value) of `value` that is not valid Unicode. */
export function malformedField(value: unknown): string | undefined {
  for (const node of walkJson(value)) if (malformedText(node)) return pathOf(node) || '(the body)';
  return undefined;
}
