// The bench's baseline: a bare Hono app on @hono/node-server in a process of its own,
// answering one page of topics (the JSON file named by argv[2], the server's own hot list) two ways:
//   GET /bare/bytes  the JSON serialised once at start, sent as ready bytes (the stack's ceiling)
//   GET /bare/json   c.json(page) per request (what a route that stringifies each time costs)
// Plain JavaScript run by node: nothing compiled, no Crux code. Sends its port to the parent.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';

const page = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = new TextEncoder().encode(JSON.stringify(page));
const app = new Hono()
  .get('/bare/bytes', (c) => c.body(bytes, 200, { 'content-type': 'application/json' }))
  .get('/bare/json', (c) => c.json(page));

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send?.({ port: info.port }));
process.on('SIGTERM', () => process.exit(0));
