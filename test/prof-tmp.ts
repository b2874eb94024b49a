import { openStore, startService } from './support/harness.js';
import { seedUsers } from './support/big-group.js';
const kind = (process.argv[2] ?? 'memory') as 'memory' | 'redis';
const store = await openStore(kind);
const svc = await startService(store);
const dir = await svc.createDirectory();
const users = await seedUsers(store, dir.id, 200_000);
let label = 'idle';
let last = performance.now();
setInterval(() => { const now = performance.now(); if (now - last > 80) console.log(`STALL ${(now - last).toFixed(0)} ms during ${label}`); last = now; }, 5).unref();
const ops = (...Operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });
label = 'post';
const res = await svc.scim(dir, 'POST', '/Groups', { displayName: 'All', members: users.slice(0, 20000).map((value) => ({ value })) });
for (let i = 20000; i < 200000; i += 20000) { label = `patch ${i}`; await svc.scim(dir, 'PATCH', `/Groups/${res.body.id}`, ops({ op: 'add', path: 'members', value: users.slice(i, i + 20000).map((value) => ({ value })) })); }
label = 'patch remove all';
await svc.scim(dir, 'PATCH', `/Groups/${res.body.id}`, ops({ op: 'remove', path: 'members' }));
for (let i = 0; i < 200000; i += 20000) { label = `refill ${i}`; await svc.scim(dir, 'PATCH', `/Groups/${res.body.id}`, ops({ op: 'add', path: 'members', value: users.slice(i, i + 20000).map((value) => ({ value })) })); }
label = 'put []';
await svc.scim(dir, 'PUT', `/Groups/${res.body.id}`, { displayName: 'All', members: [] });
label = 'done';
await svc.close();
process.exit(0);
