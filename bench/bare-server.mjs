// The yardstick of bench/hot-paths.ts: a bare Fastify 5 server in its own process, as the API runs in its
// own, answering the API's envelope. GET /bare and POST /bare (which parses and echoes a small JSON body).
// It logs each request like the API does in production (pino at BARE_LOG, default info, to stdout, which
// the bench sends to /dev/null); BARE_LOG=off gives the framework alone.
import Fastify from 'fastify';

const level = process.env.BARE_LOG ?? 'info';
const app = Fastify({ logger: level === 'off' ? false : { level } });
app.get('/bare', async () => ({ returnCode: 0, returnMessage: 'OK', returnData: { ok: true } }));
app.post('/bare', async (request) => ({ returnCode: 0, returnMessage: 'OK', returnData: request.body }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => app.close().then(() => process.exit(0)));
