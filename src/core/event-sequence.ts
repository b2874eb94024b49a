/**
 * An event's `sequence`: its place in its directory's log, which the store knows only once the event is
 * committed. The stores keep an event's JSON as it was built and add the number as they read it, so what is
 * delivered, replayed, dead-lettered and served by the Events API carries it.
 */

/** The event's JSON with `"sequence":n` as its last field (the JSON is an object, as every event is). */
export function withSequence(json: string, sequence: number): string {
  return `${json.slice(0, -1)},"sequence":${sequence}}`;
}
