/**
 * The write scripts by name, as the adapter loads and calls them (script-runner.ts): each is one Lua text, the
 * prelude's helpers first, then the membership helpers it uses, then its own body.
 */
import { createGroup, deleteGroup, updateGroup } from './groups.js';
import { drain, MEMBERS, stage, verify } from './memberships.js';
import { PRELUDE } from './prelude.js';
import { createUser, deleteUser, updateUser } from './users.js';

export const SCRIPTS = {
  dsyncCreateUser: PRELUDE + createUser,
  dsyncUpdateUser: PRELUDE + updateUser,
  dsyncDeleteUser: PRELUDE + deleteUser,
  dsyncCreateGroup: PRELUDE + MEMBERS + createGroup,
  dsyncUpdateGroup: PRELUDE + MEMBERS + updateGroup,
  dsyncDeleteGroup: PRELUDE + deleteGroup,
  dsyncDrain: PRELUDE + MEMBERS + drain,
  dsyncStage: PRELUDE + MEMBERS + stage,
  dsyncVerify: PRELUDE + MEMBERS + verify,
} as const;
export type ScriptName = keyof typeof SCRIPTS;
