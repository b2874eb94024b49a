import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { sign } from '../../../src/delivery/signer.js';

describe('webhook signer', () => {
  const body = JSON.stringify({ id: 'evt_1', event: 'user.created', data: { name: 'Zoë ✓' } });
  const at = new Date('2026-11-21T08:00:00Z');

  it('matches the standardwebhooks package for whsec_ secrets', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = sign(secret, 'evt_1', body, at);
    expect(headers['webhook-signature']).to.equal(new Webhook(secret).sign('evt_1', at, body));
    expect(headers['webhook-timestamp']).to.equal(String(at.getTime() / 1000));
    expect(headers['webhook-id']).to.equal('evt_1');
  });

  it('matches the package in raw format for any other secret', () => {
    const secret = 'plain-shared-secret';
    expect(sign(secret, 'm', body, at)['webhook-signature']).to.equal(
      new Webhook(secret, { format: 'raw' }).sign('m', at, body),
    );
  });

  it('verifies with the package, and fails verification when the body changes', () => {
    const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
    const headers = sign(secret, 'evt_2', body);
    expect(new Webhook(secret).verify(body, { ...headers })).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('Zoë', 'Zoe'), { ...headers })).to.throw();
  });
});
