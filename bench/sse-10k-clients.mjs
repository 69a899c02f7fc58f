// Child of bench/sse-10k.ts: opens one GET /api/v1/events stream per token given on stdin (first line: JSON
// {url, tokens}), prints "ready <n>" once every stream answered 200, and for every event whose data carries
// `sent` (epoch ms with fractions, performance.timeOrigin + performance.now() of the sender) records the
// delay until it arrived here. A later stdin line "report" prints {latencies: [ms...], events} and clears them.
// Its own process, so the server's memory figures hold no client memory.
import http from 'node:http';

const now = () => performance.timeOrigin + performance.now();
let input = '';
let latencies = [];
let started = false;
const SENT = /"sent":([0-9.]+)/g;

function open(url, tokens) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let ok = 0;
  let i = 0;
  // a few hundred connection attempts in flight at a time: a burst of 10,000 SYNs overflows the listen backlog
  const next = () => {
    if (i >= tokens.length) return;
    const token = tokens[i++];
    const req = http.get(
      `${url}/api/v1/events`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          process.stderr.write(`stream answered ${res.statusCode}\n`);
          process.exit(1);
        }
        res.setEncoding('utf8');
        let carry = '';
        res.on('data', (chunk) => {
          const at = now();
          // only whole events: an event split over two chunks is read when its end arrives
          const text = carry + chunk;
          const end = text.lastIndexOf('\n\n');
          carry = end < 0 ? text : text.slice(end + 2);
          if (end < 0) return;
          for (const m of text.slice(0, end).matchAll(SENT)) latencies.push(at - Number(m[1]));
        });
        ok++;
        if (ok === tokens.length) process.stdout.write(`ready ${ok}\n`);
        next();
      },
    );
    req.on('error', (err) => {
      process.stderr.write(`stream failed: ${err.message}\n`);
      process.exit(1);
    });
  };
  for (let k = 0; k < 200; k++) next();
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => {
  input += c;
  for (let nl = input.indexOf('\n'); nl >= 0; nl = input.indexOf('\n')) {
    const line = input.slice(0, nl);
    input = input.slice(nl + 1);
    if (!started) {
      started = true;
      const { url, tokens } = JSON.parse(line);
      open(url, tokens);
    } else if (line === 'report') {
      process.stdout.write(`${JSON.stringify({ latencies, events: latencies.length })}\n`);
      latencies = [];
    }
  }
});
process.stdin.on('end', () => process.exit(0));
