import { expect } from 'chai';
import { countInSync, IN_SYNC_MAX_LAG_S } from '../../../src/store/redis/replicas-in-sync.js';

describe("replicas in sync, from a master's INFO replication", () => {
  it('counts the replicas online and acknowledging, not those in their first sync or silent too long', () => {
    const info = [
      '# Replication',
      'role:master',
      'connected_slaves:5',
      'slave0:ip=10.0.0.2,port=6380,state=online,offset=1234,lag=0',
      `slave1:ip=10.0.0.3,port=6380,state=online,offset=1234,lag=${IN_SYNC_MAX_LAG_S}`,
      `slave2:ip=10.0.0.4,port=6380,state=online,offset=1200,lag=${IN_SYNC_MAX_LAG_S + 1}`,
      'slave3:ip=10.0.0.5,port=6380,state=wait_bgsave,offset=0,lag=0',
      'slave4:ip=10.0.0.6,port=6380,state=send_bulk,offset=0,lag=0',
      'master_replid:8f1c0e5b6f6e0d5f1c7b7e8a9b0c1d2e3f4a5b6c',
      '',
    ].join('\r\n');
    expect(countInSync(info)).to.equal(2);
    expect(countInSync('# Replication\r\nrole:master\r\nconnected_slaves:0\r\n')).to.equal(0);
  });
});
