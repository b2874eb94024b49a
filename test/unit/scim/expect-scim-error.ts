import { expect } from 'chai';
import { ScimError, type ScimType } from '../../../src/scim/errors.js';

/** Runs `fn`, asserts it throws a ScimError with this status and scimType, and returns it. */
export function expectScimError(fn: () => unknown, scimType: ScimType, status = 400): ScimError {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'expected a ScimError to be thrown').to.be.instanceOf(ScimError);
  const error = thrown as ScimError;
  expect(error.status).to.equal(status);
  expect(error.scimType).to.equal(scimType);
  return error;
}
