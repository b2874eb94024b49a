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
  return checked(thrown, scimType, status);
}

/** `expectScimError` for a promise: asserts it rejects with such a ScimError, and returns it. */
export async function expectScimRejection(
  promise: Promise<unknown>,
  scimType: ScimType,
  status = 400,
): Promise<ScimError> {
  return checked(
    await promise.then(
      () => undefined,
      (err: unknown) => err,
    ),
    scimType,
    status,
  );
}

function checked(thrown: unknown, scimType: ScimType, status: number): ScimError {
  expect(thrown, 'expected a ScimError to be thrown').to.be.instanceOf(ScimError);
  const error = thrown as ScimError;
  expect(error.status).to.equal(status);
  expect(error.scimType).to.equal(scimType);
  return error;
}
