/** An error code's entry; its own module so the table and the area files holding its sections share it. */
export interface ErrorCodeDoc {
  /** The HTTP status a request failing with it is answered with; none for codes no request answers with. */
  status?: number;
  meaning: string;
  action: string;
}

export type Entries<K extends string> = Record<K, ErrorCodeDoc>;
