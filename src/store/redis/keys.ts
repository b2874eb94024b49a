/** Key names of the Redis store (the layout is described in users-groups.ts). */

/** Every key of one directory shares its hash tag, so a directory's scripts run in one slot. */
export const prefix = (directoryId: string): string => `dsync:{${directoryId}}:`;
/** All directories (ZSET by creation time). */
export const DIRS = 'dsync:dirs';
/** Directories of a tenant and product (ZSET by creation time). */
export const tenantProductKey = (tenant: string, product: string): string => `dsync:tp:${tenant}:${product}`;
/** Directories with events to deliver (ZSET scored by when). */
export const DUE = 'dsync:due';
