import { expect } from 'chai';
import {
  ConflictError,
  ContentionError,
  DsyncError,
  NotFoundError,
  ValidationError,
} from '../../../src/core/errors.js';
import { sameSecret } from '../../../src/core/secrets.js';
import { scimErrorResult } from '../../../src/scim/error-mapper.js';
import { ScimError } from '../../../src/scim/errors.js';
import { ScimHandler } from '../../../src/scim/handler.js';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe('SCIM error mapper', () => {
  it("renders core's coded errors in SCIM's words", () => {
    expect(scimErrorResult(new ConflictError('taken')).data).to.deep.equal({
      schemas: [ERROR],
      status: '409',
      scimType: 'uniqueness',
      detail: 'taken',
    });
    expect(scimErrorResult(new ValidationError('bad', 'userName')).data).to.include({
      status: '400',
      scimType: 'invalidValue',
    });
    const missing = scimErrorResult(new NotFoundError('User u1 not found'));
    expect(missing.status).to.equal(404);
    expect(missing.data).to.deep.equal({ schemas: [ERROR], status: '404', detail: 'User u1 not found' });
    expect(missing.headers).to.deep.equal({ 'Content-Type': 'application/scim+json' });
  });

  it('keeps a ScimError as it is, and codes it on the DsyncError base', () => {
    const err = new ScimError(400, 'bad filter', 'invalidFilter');
    expect(err).to.be.instanceOf(DsyncError).and.include({ code: 'DSYNC_SCIM_INVALID_FILTER', status: 400 });
    expect(new ScimError(405, 'no').code).to.equal('DSYNC_SCIM_405');
    expect(scimErrorResult(err).data).to.deep.equal({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'bad filter',
    });
  });

  it('renders body-parser failures as 4xx', () => {
    expect(scimErrorResult({ type: 'entity.parse.failed', status: 400 }).data).to.include({
      status: '400',
      scimType: 'invalidSyntax',
    });
    expect(scimErrorResult({ type: 'entity.too.large', status: 413 }).status).to.equal(413);
    expect(scimErrorResult(Object.assign(new Error('Content-Type must be JSON'), { status: 415 })).data).to.include({
      status: '415',
      detail: 'Content-Type must be JSON',
    });
  });

  it('names the error id and the request id in a 5xx body and logs the error with that id', () => {
    const logged: Array<{ err: unknown; errorId: string }> = [];
    const boom = new Error('socket exploded');
    const result = scimErrorResult(boom, { requestId: 'req-1', log: (err, errorId) => logged.push({ err, errorId }) });
    expect(result.status).to.equal(500);
    expect(logged).to.have.length(1);
    expect(logged[0]!.err).to.equal(boom);
    const detail = (result.data as { detail: string }).detail;
    expect(detail).to.equal(`Internal server error (error id ${logged[0]!.errorId}, request id req-1)`);
    expect(detail).to.not.include('socket');
  });

  it('sends Retry-After for errors that pass by themselves, with their id', () => {
    const err = new ContentionError();
    const result = scimErrorResult(err);
    expect(result.status).to.equal(503);
    expect(result.headers).to.include({ 'Retry-After': '1' });
    expect((result.data as { detail: string }).detail).to.include(`error id ${err.id}`);
  });

  it('logs nothing for a 4xx', () => {
    let calls = 0;
    scimErrorResult(new NotFoundError('x'), { log: () => calls++ });
    expect(calls).to.equal(0);
  });

  it('the handler answers a fault of its own with a SCIM 500 naming the id it logged', async () => {
    const failing = new Proxy({} as never, {
      get: () => async () => {
        throw new Error('store fault');
      },
    });
    const logged: string[] = [];
    const handler = new ScimHandler({
      reads: failing,
      users: failing,
      groups: failing,
      tokens: failing,
      onError: (_err, _req, id) => logged.push(id!),
    });
    const res = await handler.handle({
      method: 'GET',
      directoryId: 'd1',
      resourceType: 'Users',
      apiSecret: 's',
      requestId: 'r-9',
    });
    expect(res.status).to.equal(500);
    expect(logged).to.have.length(1);
    expect(res.data).to.deep.include({ schemas: [ERROR], status: '500' });
    expect((res.data as { detail: string }).detail).to.equal(
      `Internal server error (error id ${logged[0]}, request id r-9)`,
    );
  });
});

describe('sameSecret', () => {
  it('matches equal secrets only, never an empty one', () => {
    expect(sameSecret('s3cret', 's3cret')).to.equal(true);
    expect(sameSecret('s3cret', 's3cre')).to.equal(false);
    expect(sameSecret('', '')).to.equal(false);
    expect(sameSecret('x', '')).to.equal(false);
  });
});
