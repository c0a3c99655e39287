/**
 * Requests per second of an authenticated `sso-user/user-info` call on our server against a bare
 * Fastify handler returning the same answer (the same JSON and the same fixed headers: the security
 * headers are bytes of the answer, not work of the core), both listening on loopback and loaded by autocannon in
 * the same run, three rounds. The ratio is our authentication + envelope + database overhead. Runs
 * on embedded PGlite, or on PostgreSQL when BENCH_DATABASE_URL is set.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { endpoints } from '@cowork/contract';
import { summarise } from './results.ts';
import { fixedHeadersOf, startServer } from './server.ts';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 20;
const ROUNDS = 3;

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export async function apiOverhead() {
  const { handle, url: ours, headers, close } = await startServer();
  const sample = await fetch(`${ours}${endpoints.userInfo}`, { headers });
  const body = await sample.text();
  const fixedHeaders = fixedHeadersOf(sample);

  const bare = Fastify({ logger: false });
  bare.get(endpoints.userInfo, (_request, reply) => reply.headers(fixedHeaders).send(body));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  // Warm both up, then measure them one after the other, round after round, in the same run.
  await load(`${bareUrl}${endpoints.userInfo}`, headers);
  await load(`${ours}${endpoints.userInfo}`, headers);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const reference = await load(`${bareUrl}${endpoints.userInfo}`, headers);
    const measured = await load(`${ours}${endpoints.userInfo}`, headers);
    rounds.push({ reference, measured });
  }

  await close();
  await bare.close();
  return {
    engine: handle.engine,
    rounds,
    result: summarise(
      'user-info.ratio',
      'ratio',
      rounds.map((r) => r.measured.rps / r.reference.rps),
    ),
  };
}
