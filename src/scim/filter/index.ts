/** The filter engine's public surface: parse once, then plan against the store and re-check. */
export type { CompareOp, CompValue, FilterNode, FilterPath } from './ast.js';
export { compileFilter, matches, type Predicate } from './evaluate.js';
export { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter } from './parser.js';
export { type IndexLookup, type IndexName, type Plan, planFilter } from './plan.js';
