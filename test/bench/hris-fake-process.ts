/**
 * The fake HR systems of the HRIS benchmark, in their own process (so the benchmark's RSS is the sync's alone),
 * driven by IPC messages: seed a company, apply a share of changes, report the provider's requests.
 */
import { startFakes, type HrType } from '../support/hr-fakes.js';

type Command =
  | { cmd: 'seed'; type: HrType; employees: number; departments: number }
  | { cmd: 'change'; type: HrType; share: number }
  | { cmd: 'calls'; type: HrType };

const fakes = await startFakes();
// The benchmark measures the sync, not Bob's limit: its fake answers every request (dsync still paces itself).
(fakes.hibob.server as { perMinute: number }).perMinute = 0;

function seed(
  type: HrType,
  employees: number,
  departments: number,
): { url: string; credentials: Record<string, string> } {
  const f = fakes[type];
  for (let i = 0; i < employees; i++) f.hire({ department: `Department ${i % departments}` });
  f.age();
  return { url: f.url, credentials: f.credentials() };
}

/** `share` of the employees changed: renamed, moved, terminated, removed and hired in equal parts. */
function change(type: HrType, share: number): Record<string, number> {
  const f = fakes[type];
  f.age();
  const ids = f.ids();
  const each = Math.max(1, Math.floor((ids.length * share) / 5));
  ids.slice(0, each).forEach((id) => f.rename(id, 'Renamed'));
  ids.slice(each, 2 * each).forEach((id, i) => f.move(id, `Department ${i % 7}`));
  ids.slice(2 * each, 3 * each).forEach((id) => f.terminate(id));
  ids.slice(3 * each, 4 * each).forEach((id) => f.remove(id));
  for (let i = 0; i < each; i++) f.hire({ department: 'Department 1' });
  return { renamed: each, moved: each, terminated: each, removed: each, hired: each };
}

process.on('message', (m: Command) => {
  const reply = (data: unknown) => process.send!(data);
  if (m.cmd === 'seed') reply(seed(m.type, m.employees, m.departments));
  else if (m.cmd === 'change') reply(change(m.type, m.share));
  else if (m.cmd === 'calls') reply(fakes[m.type].totalCalls);
});
process.send!({ ready: true });
