/**
 * A SCIM write load against a real `dsync serve` for failover and resharding tests: several writers, each
 * creating users and adding them to its directory's group, round-robin over several directories. Every answer is
 * recorded; what answered 2xx is what the service acknowledged, and `verifyAcknowledged` checks that all of it
 * is readable and that its events reached the receiver.
 */
import { expect } from 'chai';
import { mapLimit } from '../../src/core/chunks.js';
import { api, createDirectories, creating, scimSecrets, USER_SCHEMA, type DsyncProc } from './dsync-process.js';
import type { FaultReceiver } from './fault-receiver.js';
import { sleep, until } from './harness.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface LoadDirectory {
  id: string;
  groupId: string;
}

export interface Answer {
  dir: string;
  op: 'create' | 'patch';
  /** When the request was sent, in ms since the load started. */
  at: number;
  /** When the answer came (or the request failed). */
  done: number;
  /** HTTP status, or `network` (refused / reset connection) or `timeout` (no answer within 10 s). */
  status: number | 'network' | 'timeout';
  /** What was wrong with the answer (a 503 without a SCIM Error body, an unexpected status). */
  defect?: string;
}

/** Directories with one group each, on the webhook receiver. */
export async function loadDirectories(
  proc: DsyncProc,
  n: number,
  webhookUrl: string,
  tag: string,
): Promise<LoadDirectory[]> {
  const dirs = await createDirectories(proc, n, webhookUrl, tag);
  return Promise.all(
    dirs.map(async ({ id }) => {
      const displayName = `${tag} group`;
      const res = await creating(() =>
        scim(proc, id, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName }),
      );
      if (res.status === 409 && res.tries > 1) {
        // An earlier try committed: the group is there.
        const found = await scim(
          proc,
          id,
          'GET',
          `/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`,
        );
        return { id, groupId: found.body.Resources[0].id as string };
      }
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return { id, groupId: res.body.id as string };
    }),
  );
}

async function scim(
  proc: DsyncProc,
  dir: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${proc.url}/api/scim/v2.0/${dir}${path}`, {
    method,
    headers: { authorization: `Bearer ${scimSecrets.get(dir)}`, 'content-type': 'application/scim+json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export class ScimWriteLoad {
  readonly answers: Answer[] = [];
  /** Acknowledged creates: directory → user ids. */
  readonly users = new Map<string, string[]>();
  /** Acknowledged group additions: `<group id> <user id>`. */
  readonly members = new Set<string>();
  private readonly t0 = Date.now();
  private running = false;
  private writers: Promise<void>[] = [];

  constructor(
    private readonly proc: DsyncProc,
    private readonly dirs: LoadDirectory[],
    private readonly o: { writers: number; pauseMs: number },
  ) {}

  /** Milliseconds since the load started. */
  now(): number {
    return Date.now() - this.t0;
  }

  start(): void {
    this.running = true;
    this.writers = Array.from({ length: this.o.writers }, (_, w) => this.writer(w));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.writers);
  }

  private async writer(w: number): Promise<void> {
    for (let i = 0; this.running; i++) {
      const dir = this.dirs[(w + i) % this.dirs.length]!;
      const created = await this.send(dir, 'create', 'POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: `w${w}-${i}@load.example.com`,
      });
      if (created?.status === 201) {
        const userId = created.body.id as string;
        this.users.set(dir.id, [...(this.users.get(dir.id) ?? []), userId]);
        const patch = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }] };
        const added = await this.send(dir, 'patch', 'PATCH', `/Groups/${dir.groupId}`, patch);
        if (added?.status === 204) this.members.add(`${dir.groupId} ${userId}`);
      }
      await sleep(this.o.pauseMs);
    }
  }

  private async send(
    dir: LoadDirectory,
    op: Answer['op'],
    method: string,
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: any } | undefined> {
    const answer: Answer = { dir: dir.id, op, at: this.now(), done: -1, status: 'network' };
    this.answers.push(answer);
    try {
      const res = await scim(this.proc, dir.id, method, path, body);
      answer.done = this.now();
      answer.status = res.status;
      if (
        res.status === 503 &&
        !(res.body?.schemas?.includes(SCIM_ERROR) && res.body.status === '503' && res.body.detail)
      ) {
        answer.defect = `503 without a SCIM Error body: ${JSON.stringify(res.body)}`;
      } else if (res.status !== 503 && res.status !== (op === 'create' ? 201 : 204)) {
        answer.defect = `${res.status}: ${JSON.stringify(res.body)}`;
      }
      return res;
    } catch (err) {
      answer.done = this.now();
      answer.status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      answer.defect = `${answer.status}: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`;
      return undefined;
    }
  }

  /** Answers for `dir` sent at or after `from` (ms since the start). */
  answersFor(dir: string, from = 0): Answer[] {
    return this.answers.filter((a) => a.dir === dir && a.at >= from);
  }

  /**
   * When `dir` took writes again after `from`: the answer time of the first of `run` writes in a row (by send
   * time, all answered) that answered 2xx; undefined = not yet.
   */
  recoveredAt(dir: string, from: number, run = 10): number | undefined {
    const answers = this.answersFor(dir, from).filter((a) => a.done >= 0);
    const ok = (a: Answer) => a.status === 201 || a.status === 204;
    for (let i = 0; i + run <= answers.length; i++) {
      if (answers.slice(i, i + run).every(ok)) return answers[i]!.done;
    }
    return undefined;
  }

  /** Counts by status, for logs and failure messages. */
  summary(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const a of this.answers) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
    return counts;
  }
}

/**
 * The load's acceptance: every answer a 2xx or a 503 with a SCIM Error body; every acknowledged user readable
 * and in its group, and its `user.created` / `group.user_added` events delivered (`deliveredMs`: how long after
 * the load the last of them arrived).
 */
export async function verifyAcknowledged(
  proc: DsyncProc,
  receiver: FaultReceiver,
  load: ScimWriteLoad,
  dirs: LoadDirectory[],
): Promise<{ deliveredMs: number }> {
  const defects = load.answers.filter((a) => a.defect);
  expect(
    defects.length,
    `answers other than 2xx / 503 with a body: ${defects
      .slice(0, 3)
      .map((a) => a.defect)
      .join('; ')}`,
  ).to.equal(0);

  const created = new Set([...load.users.values()].flat());
  const seen = () => {
    const users = new Set<string>();
    const members = new Set<string>();
    for (const { event } of receiver.events()) {
      if (event.event === 'user.created') users.add(event.data.id);
      if (event.event === 'group.user_added') members.add(`${event.data.group.id} ${event.data.id}`);
    }
    return { users, members };
  };
  const missing = () => {
    const s = seen();
    return {
      users: [...created].filter((u) => !s.users.has(u)),
      members: [...load.members].filter((m) => !s.members.has(m)),
    };
  };
  const t0 = Date.now();
  await until(
    () => missing().users.length + missing().members.length === 0,
    () =>
      `events of every acknowledged write (missing: ${missing().users.length} user.created, ${missing().members.length} group.user_added)`,
    30_000,
  );
  const deliveredMs = Date.now() - t0;

  const lost = await lostAcknowledged(proc, load, dirs);
  expect(lost.users, 'acknowledged users missing').to.deep.equal([]);
  expect(lost.members, 'acknowledged members missing from their groups').to.deep.equal([]);
  return { deliveredMs };
}

/** The acknowledged users and memberships that the service cannot read back (each directory must be readable). */
export async function lostAcknowledged(
  proc: DsyncProc,
  load: ScimWriteLoad,
  dirs: LoadDirectory[],
): Promise<{ users: string[]; members: string[] }> {
  const lost = { users: [] as string[], members: [] as string[] };
  for (const dir of dirs) {
    await mapLimit(load.users.get(dir.id) ?? [], 16, async (id) => {
      const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}/Users/${id}`, {
        headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}` },
      });
      if (res.status === 404) lost.users.push(`${dir.id} ${id}`);
      else expect(res.status, `acknowledged user ${id} of ${dir.id}`).to.equal(200);
      await res.arrayBuffer();
    });
    expect((await api(proc, 'GET', `/api/v1/directory-sync/${dir.id}`)).status, `directory ${dir.id}`).to.equal(200);
    const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}/Groups/${dir.groupId}`, {
      headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}` },
    });
    expect(res.status, `group ${dir.groupId} of ${dir.id}`).to.equal(200);
    const members = new Set(
      ((await res.json()) as { members?: Array<{ value: string }> }).members?.map((m) => m.value),
    );
    lost.members.push(
      ...[...load.members].filter((m) => m.startsWith(`${dir.groupId} `) && !members.has(m.split(' ')[1]!)),
    );
  }
  return lost;
}
