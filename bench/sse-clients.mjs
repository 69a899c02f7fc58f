// Child of bench/sse-memory.ts: opens one GET /api/v1/events stream per token given on stdin (JSON
// {url, tokens}), reads and discards what arrives, prints "ready <n>" once every stream answered 200,
// and keeps them open until its stdin closes. Runs in its own process so the server's figures hold no
// client memory.
import http from 'node:http';

let input = '';
process.stdin.on('data', (c) => {
  input += c;
  const nl = input.indexOf('\n');
  if (nl < 0) return;
  const { url, tokens } = JSON.parse(input.slice(0, nl));
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let ok = 0;
  for (const token of tokens) {
    const req = http.get(
      `${url}/api/v1/events`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          process.stderr.write(`stream answered ${res.statusCode}\n`);
          process.exit(1);
        }
        res.on('data', () => undefined);
        ok++;
        if (ok === tokens.length) process.stdout.write(`ready ${ok}\n`);
      },
    );
    req.on('error', (err) => {
      process.stderr.write(`stream failed: ${err.message}\n`);
      process.exit(1);
    });
  }
});
process.stdin.on('end', () => process.exit(0));
