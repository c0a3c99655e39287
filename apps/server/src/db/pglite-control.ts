/**
 * Who holds the embedded database's files. PGlite takes no lock of its own, and two processes on one
 * data directory corrupt it; so the process that opens DATA_DIR/pglite (the server, or a backup or a
 * restore run while it is stopped) listens on the Unix socket DATA_DIR/pglite.sock for as long as it
 * holds it. Another process finds it held there, and `npm run backup` asks the running server for a
 * snapshot through it. Only the owner of DATA_DIR may connect (mode 0600), who can read the files anyway.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { propertyOf, textOf } from '../lib/unknown.ts';
import { runningVersion, type RunningVersion } from '../lib/version.ts';
import { lastMigrationAt, type DbHandle } from './client.ts';

export const PGLITE_SOCKET = 'pglite.sock';

export type HolderRole = 'server' | 'backup' | 'restore';

/** What the holder answers first: itself, and whether the bytes of a snapshot follow. */
const answerSchema = z.object({
  role: z.enum(['server', 'backup', 'restore']),
  pid: z.number().int(),
  ok: z.boolean(),
  message: z.string().optional(),
  /** With a snapshot: the version of the server, and the last migration its database holds. */
  version: z.object({ version: z.string(), commit: z.string().optional() }).optional(),
  migratedAt: z.number().nullable().optional(),
});
type Answer = z.infer<typeof answerSchema>;

/** A snapshot from the running server: the data directory as a tar, and what it holds. */
export interface ServedSnapshot {
  data: Readable;
  version: RunningVersion;
  migratedAt: number | null;
}

const HOLDER_NAMES: Record<HolderRole, string> = {
  server: 'a running server',
  backup: 'a backup (npm run backup)',
  restore: 'a restore (npm run restore)',
};

/** Another process holds DATA_DIR/pglite: opening it here too would corrupt it. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly role: HolderRole,
    readonly pid: number,
    dataDir: string,
  ) {
    super(
      `the embedded database in ${path.join(dataDir, 'pglite')} is in use by ${HOLDER_NAMES[role]} (process ${pid}); two processes on it would corrupt it: wait for it to finish or stop it, or give this one another DATA_DIR`,
    );
  }
}

/** Linux's limit on a Unix socket's path (sun_path less its final NUL); Node would cut a longer one. */
const SOCKET_PATH_MAX = 107;
/** A peer that has not sent its one line by then is dropped. */
const REQUEST_TIMEOUT_MS = 10_000;
const LINE_MAX = 1024;

export interface DataDirClaim {
  /** Why no socket could be made (a path too long, a file system without sockets): nothing guards the files. */
  problem?: string;
  /** Answers snapshot requests from now on (the server, once its database is open). */
  serve(handle: Pick<DbHandle, 'db' | 'snapshot'>): void;
  release(): Promise<void>;
}

/** A snapshot's bytes for a Node stream, a megabyte at a time (PGlite answers a Blob). */
export async function* blobChunks(blob: Blob): AsyncGenerator<Buffer> {
  const size = 1024 * 1024;
  for (let at = 0; at < blob.size; at += size)
    yield Buffer.from(await blob.slice(at, at + size).arrayBuffer());
}

/** Reads one line (at most LINE_MAX bytes) from the socket; the rest stays readable. */
function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (error?: Error, line?: string) => {
      socket.off('readable', onReadable).off('error', done).off('end', onEnd);
      if (error) reject(error);
      else resolve(line!);
    };
    const onEnd = () => done(new Error('the other process closed the connection without answering'));
    const onReadable = () => {
      for (let chunk: Buffer | null; (chunk = socket.read() as Buffer | null) !== null;) {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf(10);
        if (end >= 0) {
          if (end + 1 < buffered.length) socket.unshift(buffered.subarray(end + 1));
          return done(undefined, buffered.subarray(0, end).toString('utf8'));
        }
        if (buffered.length > LINE_MAX) return done(new Error('the other process sent a line too long'));
      }
    };
    socket.on('readable', onReadable).on('error', done).on('end', onEnd);
  });
}

const listen = (server: net.Server, file: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });

/** Connects to the holder of `dataDir` and sends `want`; undefined when nobody holds it. */
async function ask(dataDir: string, want: 'who' | 'snapshot') {
  const socket = net.createConnection(path.join(dataDir, PGLITE_SOCKET));
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  } catch (error) {
    socket.destroy();
    // No socket, or one that a process which died left behind.
    if (['ENOENT', 'ECONNREFUSED'].includes(textOf(error, 'code') ?? '')) return undefined;
    throw error;
  }
  socket.write(`${JSON.stringify({ want })}\n`);
  try {
    const answer = answerSchema.parse(JSON.parse(await readLine(socket)));
    return { answer, socket };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/**
 * Takes DATA_DIR/pglite for this process as `role`: throws DataDirBusyError when a live process
 * holds it; a socket left by a process that died is taken over.
 */
export async function claimDataDir(dataDir: string, role: HolderRole): Promise<DataDirClaim> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, PGLITE_SOCKET);
  let served: Pick<DbHandle, 'db' | 'snapshot'> | undefined;
  const server = net.createServer((socket) => void answer(socket));
  const answer = async (socket: net.Socket) => {
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    const reply = (fields: Omit<Answer, 'role' | 'pid'>) =>
      socket.write(`${JSON.stringify({ role, pid: process.pid, ...fields })}\n`);
    try {
      const want = propertyOf(JSON.parse(await readLine(socket)), 'want');
      socket.setTimeout(0);
      if (want !== 'snapshot' || !served?.snapshot) {
        const message =
          role === 'server'
            ? 'the server is still starting: try again in a few seconds'
            : `${HOLDER_NAMES[role]} holds the database`;
        reply({ ok: want === 'who', message });
        return void socket.end();
      }
      // Read first: a migration runs only at a start, never while this server serves.
      const migratedAt = await lastMigrationAt(served.db);
      const blob = await served.snapshot();
      reply({ ok: true, version: runningVersion, migratedAt });
      Readable.from(blobChunks(blob)).pipe(socket);
    } catch (error) {
      reply({ ok: false, message: error instanceof Error ? error.message : String(error) });
      socket.end();
    }
  };
  const unguarded = (problem: string): DataDirClaim => ({
    problem,
    serve: () => undefined,
    release: async () => undefined,
  });
  if (Buffer.byteLength(file) > SOCKET_PATH_MAX)
    return unguarded(`the path ${file} is longer than a Unix socket's ${SOCKET_PATH_MAX} bytes`);
  try {
    await listen(server, file);
  } catch (error) {
    if (textOf(error, 'code') !== 'EADDRINUSE')
      return unguarded(`${file} cannot be made: ${error instanceof Error ? error.message : String(error)}`);
    const held = await ask(dataDir, 'who');
    if (held) {
      held.socket.destroy();
      throw new DataDirBusyError(held.answer.role, held.answer.pid, dataDir);
    }
    await fs.rm(file, { force: true });
    await listen(server, file);
  }
  await fs.chmod(file, 0o600);
  return {
    serve(handle) {
      served = handle;
    },
    async release() {
      // Closing the server removes the socket file; connections still open (a snapshot being sent) end.
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Asks the process holding `dataDir` for a snapshot of the database (a tar): its bytes as a stream,
 * or undefined when no process holds it. Throws DataDirBusyError when the holder is not a server.
 */
export async function requestSnapshot(dataDir: string): Promise<ServedSnapshot | undefined> {
  const held = await ask(dataDir, 'snapshot');
  if (!held) return undefined;
  const { answer, socket } = held;
  if (answer.ok)
    return {
      data: socket,
      version: answer.version ?? { version: 'unknown' },
      migratedAt: answer.migratedAt ?? null,
    };
  socket.destroy();
  if (answer.role !== 'server') throw new DataDirBusyError(answer.role, answer.pid, dataDir);
  throw new Error(`the running server (process ${answer.pid}) gave no snapshot: ${answer.message}`);
}
