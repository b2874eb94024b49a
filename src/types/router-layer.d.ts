/** express's own path matcher (router/lib/layer.js, untyped): the SCIM dispatcher matches exactly as express. */
declare module 'router/lib/layer.js' {
  interface LayerOptions {
    sensitive?: boolean;
    strict?: boolean;
    end?: boolean;
  }
  class Layer {
    constructor(path: string, options: LayerOptions, fn: (...args: unknown[]) => unknown);
    /** The matched part and the decoded parameters, or false; throws (status 400) on malformed percent-encoding. */
    match(path: string): false | { params: Record<string, string>; path: string };
  }
  export default Layer;
}
