/**
 * A webhook receiver for trying dsync locally: verifies each delivery's Standard Webhooks signature with the
 * `standardwebhooks` package and prints the events. Usage:
 *   npx tsx examples/webhook-receiver.ts [port] [secret]
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.argv[2] ?? 4000);
const secret = process.argv[3] ?? 'whsec_ZHN5bmMtbG9jYWwtZGV2ZWxvcG1lbnQtc2VjcmV0';
// A `whsec_` secret is base64 after the prefix; any other secret is raw bytes: new Webhook(secret, { format: 'raw' }).
const wh = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });

createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    try {
      const payload = wh.verify(body, req.headers as Record<string, string>);
      for (const event of Array.isArray(payload) ? payload : [payload]) {
        console.log(`${req.headers['webhook-id']}  ${event.event}  ${JSON.stringify(event.data)}`);
      }
      res.writeHead(204).end();
    } catch (err) {
      console.error(`rejected a delivery: ${(err as Error).message}`);
      res.writeHead(400).end();
    }
  });
}).listen(port, () => console.log(`receiving webhooks on http://localhost:${port}/webhooks (secret ${secret})`));
