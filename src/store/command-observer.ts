/** Told about every store command once it settles (metrics); the name is the command's, never its arguments. */
export type CommandObserver = (command: string, seconds: number, failed: boolean) => void;
