/** Google's OAuth state: the shared signed state (pull/oauth-state.ts) under Google's purpose and error. */
import { StateSigner as PullStateSigner } from '../pull/oauth-state.js';
import { InvalidStateError } from './errors.js';

export { STATE_TTL_MS, type StatePayload } from '../pull/oauth-state.js';

export class StateSigner extends PullStateSigner {
  constructor(clientSecret: string) {
    super(clientSecret, 'dsync google oauth state v1', (reason) => new InvalidStateError(reason));
  }
}
