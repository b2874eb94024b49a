/**
 * The three fake HR systems behind one face, as an HR admin works them (hire, rename, move, terminate, rehire,
 * delete an employee; revoke the key), so one suite and one model-based test run against each provider.
 */
import { FakeBambooHR } from './fake-bamboohr.js';
import { FakeHiBob } from './fake-hibob.js';
import { FakePersonio } from './fake-personio.js';

export type HrType = 'bamboohr' | 'hibob' | 'personio';
export const HR_TYPES: HrType[] = ['bamboohr', 'hibob', 'personio'];

export interface HrFake {
  type: HrType;
  name: string;
  /** The fake itself, for what only it has. */
  server: unknown;
  url: string;
  calls: Record<string, number>;
  readonly totalCalls: number;
  resetCalls(): void;
  /** The next `times` data requests answer `status`. */
  throttle(times: number, status?: number, retryAfter?: string): void;
  credentials(): Record<string, string>;
  /** Credentials the provider refuses (401). */
  wrong(): Record<string, string>;
  hire(o?: { department?: string | null; email?: string | null }): { id: string; email: string | null };
  email(id: string): string | null;
  firstName(id: string): string;
  rename(id: string, firstName: string): void;
  move(id: string, department: string | null): void;
  setEmail(id: string, email: string | null): void;
  terminate(id: string): void;
  rehire(id: string): void;
  remove(id: string): void;
  /** The key stops working (revoked). */
  revoke(): void;
  /** A webhook call as the provider sends it about `id` (BambooHR's signed with the credentials' webhook key). */
  webhook(id: string): { body: string; headers: Record<string, string> };
  /** Every change so far as made long ago (BambooHR's feed; nothing for the others). */
  age(): void;
  ids(): string[];
  close(): Promise<void>;
}

export function bambooFake(b: FakeBambooHR): HrFake {
  return {
    type: 'bamboohr',
    name: 'BambooHR',
    server: b,
    url: b.url,
    calls: b.calls,
    get totalCalls() {
      return b.totalCalls;
    },
    resetCalls: () => b.resetCalls(),
    throttle: (times, status = 429, retryAfter = '0') => b.fail('*', status, times, retryAfter),
    credentials: () => ({ subdomain: b.subdomain, api_key: 'bamboo-key-1', webhook_secret: 'bamboo-webhook-key' }),
    webhook: (id) => b.signedWebhook('bamboo-webhook-key', [id]),
    wrong: () => ({ subdomain: b.subdomain, api_key: 'wrong-key' }),
    hire: (o = {}) => {
      const e = b.hire({
        ...(o.department !== undefined && { department: o.department }),
        ...(o.email !== undefined && { workEmail: o.email }),
      });
      return { id: e.id, email: e.workEmail };
    },
    email: (id) => b.employees.get(id)!.workEmail,
    firstName: (id) => b.employees.get(id)!.firstName,
    rename: (id, firstName) => b.change(id, { firstName }),
    move: (id, department) => b.change(id, { department }),
    setEmail: (id, workEmail) => b.change(id, { workEmail }),
    terminate: (id) => b.change(id, { status: 'Inactive' }),
    rehire: (id) => b.change(id, { status: 'Active' }),
    remove: (id) => b.remove(id),
    revoke: () => b.keys.clear(),
    age: () => b.age(),
    ids: () => [...b.employees.keys()],
    close: () => b.close(),
  };
}

export function bobFake(h: FakeHiBob): HrFake {
  const e = (id: string) => h.employees.get(id)!;
  return {
    type: 'hibob',
    name: 'HiBob',
    server: h,
    url: h.url,
    calls: h.calls,
    get totalCalls() {
      return h.totalCalls;
    },
    resetCalls: () => h.resetCalls(),
    throttle: (times, status = 429, retryAfter = '0') => h.fail('*', status, times, retryAfter),
    credentials: () => ({ service_user_id: 'SERVICE-USER-1', token: 'hibob-token-1' }),
    // Bob's webhooks carry metadata only: the event and whom it is about.
    webhook: (id) => ({
      body: JSON.stringify({
        companyId: 626193,
        type: 'employee.updated',
        triggeredBy: 'user',
        triggeredAt: new Date().toISOString(),
        version: 'v2',
        data: { employeeId: id },
      }),
      headers: { 'Content-Type': 'application/json' },
    }),
    wrong: () => ({ service_user_id: 'SERVICE-USER-1', token: 'wrong-token' }),
    hire: (o = {}) => {
      const x = h.hire({
        ...(o.department !== undefined && { department: o.department }),
        ...(o.email !== undefined && { email: o.email }),
      });
      return { id: x.id, email: x.email };
    },
    email: (id) => e(id).email,
    firstName: (id) => e(id).firstName,
    rename: (id, firstName) => void (e(id).firstName = firstName),
    move: (id, department) => void (e(id).department = department),
    setEmail: (id, email) => void (e(id).email = email),
    terminate: (id) => void (e(id).status = 'Inactive'),
    rehire: (id) => void (e(id).status = 'Active'),
    remove: (id) => void h.employees.delete(id),
    revoke: () => h.users.clear(),
    age: () => undefined,
    ids: () => [...h.employees.keys()],
    close: () => h.close(),
  };
}

export function personioFake(p: FakePersonio): HrFake {
  const e = (id: string) => p.persons.get(id)!;
  return {
    type: 'personio',
    name: 'Personio',
    server: p,
    url: p.url,
    calls: p.calls,
    get totalCalls() {
      return p.totalCalls;
    },
    resetCalls: () => p.resetCalls(),
    throttle: (times, status = 429, retryAfter = '0') => p.fail('persons', status, times, retryAfter),
    credentials: () => ({ client_id: 'papi-client-1', client_secret: 'papi-secret-1' }),
    // Personio's webhooks carry no data beyond what changed.
    webhook: (id) => ({
      body: JSON.stringify({ event: 'person.updated', resource_id: id, occurred_at: new Date().toISOString() }),
      headers: { 'Content-Type': 'application/json' },
    }),
    wrong: () => ({ client_id: 'papi-client-1', client_secret: 'wrong-secret' }),
    hire: (o = {}) => {
      const x = p.hire({
        ...(o.department !== undefined && { department: o.department }),
        ...(o.email !== undefined && { email: o.email }),
      });
      return { id: x.id, email: x.email };
    },
    email: (id) => e(id).email,
    firstName: (id) => e(id).first_name,
    rename: (id, first) => void (e(id).first_name = first),
    move: (id, department) => void (e(id).department = department),
    setEmail: (id, email) => void (e(id).email = email),
    terminate: (id) => void (e(id).status = 'INACTIVE'),
    rehire: (id) => void (e(id).status = 'ACTIVE'),
    remove: (id) => void p.persons.delete(id),
    revoke: () => {
      p.clients.clear();
      p.expireTokens();
    },
    age: () => undefined,
    ids: () => [...p.persons.keys()],
    close: () => p.close(),
  };
}

export async function startFakes(): Promise<Record<HrType, HrFake>> {
  const [b, h, p] = await Promise.all([
    new FakeBambooHR().start(),
    new FakeHiBob().start(),
    new FakePersonio().start(),
  ]);
  return { bamboohr: bambooFake(b), hibob: bobFake(h), personio: personioFake(p) };
}
