/** The resources an event names, read off its text for user and group events, equal those of the parsed event. */
import { expect } from 'chai';
import { buildEvent, groupData, userData } from '../../../src/core/events.js';
import { withSequence } from '../../../src/core/event-sequence.js';
import { parsedResources, resourcesOf } from '../../../src/delivery/event-resources.js';

const sly = 'x","data":{"id":"evil';
const dirs = [
  { id: 'd1', tenant: 't', product: 'p' },
  { id: 'd2', tenant: sly, product: `${sly}\\"` },
];
const bodies = [
  { userName: 'a@x.io', name: { givenName: 'A', familyName: 'B' } },
  { userName: sly, group: { id: 'fake' }, data: { id: 'fake' }, displayName: '"data":{"id":"fake"' },
];

describe('resources an event names', () => {
  it('read off the text equal the parsed ones, for every type and awkward tenants and bodies', () => {
    let checked = 0;
    for (const dir of dirs) {
      for (const body of bodies) {
        for (const id of ['u-1', 'we\\"ird', 'ünï']) {
          const events = [
            buildEvent(dir, 'user.created', userData(id, body)),
            buildEvent(dir, 'user.updated', userData(id, body), { raw: { a: 1 } }),
            buildEvent(dir, 'user.deleted', userData(id, body)),
            buildEvent(dir, 'group.created', groupData(id, body)),
            buildEvent(dir, 'group.deleted', groupData(id, body)),
            buildEvent(dir, 'group.user_added', { ...userData(id, body), group: groupData('g-1', body) }),
            buildEvent(dir, 'group.user_removed', { ...userData(id, body), group: groupData('g-1', body) }),
          ];
          for (const e of events) {
            for (const json of [e.json, withSequence(e.json, 42)]) {
              expect(resourcesOf(json), json).to.deep.equal(parsedResources(json));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).to.equal(2 * 2 * 3 * 7 * 2);
    expect(resourcesOf(buildEvent(dirs[1]!, 'user.created', userData('u-1', bodies[1]!)).json)).to.deep.equal({
      user: 'u-1',
      group: undefined,
    });
    expect(resourcesOf(buildEvent(dirs[0]!, 'group.created', groupData('g-1', bodies[0]!)).json)).to.deep.equal({
      user: undefined,
      group: 'g-1',
    });
    expect(
      resourcesOf(
        buildEvent(dirs[0]!, 'group.user_added', { ...userData('u', bodies[0]!), group: groupData('g', bodies[1]!) })
          .json,
      ),
    ).to.deep.equal({ user: 'u', group: 'g' });
  });

  it('text of another shape than dsync writes is parsed', () => {
    const texts = [
      '{"id":"e\\u0031","event":"user.created","data":{"id":"x"}}',
      '{"id":"e1","event":"User.created","data":{"id":"x"}}',
      '{"id":"e1","event":"user.created\\u0031","data":{"id":"x"}}',
      '{"id":"e1","event":"","data":{"id":"x"}}',
      '{"event":"user.created","id":"e1","data":{"id":"x"}}',
      '{"id":"e1","event":"group.user_added","data":{"id":"u","group":{"id":"g"}}}',
      '{"id":"e1","event":"group.user_addedx","data":{"id":"u","group":{"id":"g"}}}',
      '{"id":"e1","event":"group.user_removed","data":{"group":{"id":"g"},"id":"u"}}',
      '{"id":"e1","event":"user.updated","data":{"id":"a\\"b"}}',
      '{"id":"e1","event":"directory.updated","data":{"id":"d"}}',
    ];
    for (const json of texts) expect(resourcesOf(json), json).to.deep.equal(parsedResources(json));
  });
});
