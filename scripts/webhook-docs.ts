/**
 * The event section of docs/webhooks.md, written from the contract (packages/contract/src/
 * webhook-events.ts): each type's Chinese label, when it fires, its fields and the whole body a
 * receiver gets for its example. `npx tsx scripts/webhook-docs.ts` rewrites the section between the
 * markers; scripts/webhook-docs.test.ts fails when the file differs from what this writes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import {
  webhookEventExamples,
  webhookEventLabels,
  webhookEventSchemas,
  webhookEventTypes,
  type WebhookEventType,
} from '@cowork/contract';

export const DOCS_FILE = fileURLToPath(new URL('../docs/webhooks.md', import.meta.url));
export const START =
  '<!-- webhook-events:start (written by scripts/webhook-docs.ts; do not edit by hand) -->';
export const END = '<!-- webhook-events:end -->';

/** The data's own time of the event, as `createdAt` carries it: the most specific one first. */
const TIME_KEYS = [
  'closedAt',
  'clearedAt',
  'openedAt',
  'deniedAt',
  'onlineAt',
  'offlineAt',
  'raisedAt',
  'changedAt',
  'paidAt',
  'cancelledAt',
  'refundedAt',
  'createdAt',
  'issuedAt',
  'rejectedAt',
  'registeredAt',
  'addedAt',
  'removedAt',
];
const TEST_TIME = '2026-11-21T10:15:00.000+08:00';

/** A stable example event id (a UUID as the server makes them), so the section does not change by itself. */
function exampleId(type: string): string {
  const hex = createHash('sha256').update(type).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The whole body a receiver gets for the type's example. */
export function exampleBody(type: WebhookEventType) {
  const data: Record<string, unknown> = webhookEventExamples[type];
  const at = TIME_KEYS.map((key) => data[key]).find((value) => typeof value === 'string');
  return { id: exampleId(type), type, createdAt: typeof at === 'string' ? at : TEST_TIME, data };
}

/** A field's description, also when it sits on the schema a `.nullable()` wraps. */
function describe(schema: z.ZodType): { text: string; nullable: boolean } {
  const nullable = schema.safeParse(null).success;
  const inner =
    'unwrap' in schema && typeof schema.unwrap === 'function' ? (schema.unwrap() as z.ZodType) : null;
  return { text: schema.description ?? inner?.description ?? '', nullable };
}

function eventSection(type: WebhookEventType): string {
  const schema = webhookEventSchemas[type] as unknown as z.ZodObject;
  const when = (schema.description ?? '').split('：').slice(1).join('：');
  const rows = Object.entries(schema.shape).map(([key, field]) => {
    const { text, nullable } = describe(field as z.ZodType);
    return `| \`${key}\` | ${text.replaceAll('|', '\\|')}${nullable && !text.includes('null') ? '；可为 null' : ''} |`;
  });
  return [
    `### \`${type}\` ${webhookEventLabels[type]}`,
    '',
    `When it fires: ${when}。`,
    '',
    '| `data` field | 说明 |',
    '|---|---|',
    ...rows,
    '',
    '```json',
    JSON.stringify(exampleBody(type), null, 2),
    '```',
  ].join('\n');
}

/** The generated section, markers included. */
export function renderEventSection(): string {
  const index = webhookEventTypes.map(
    (type) =>
      `| [\`${type}\`](#${type.replaceAll('.', '')}-${webhookEventLabels[type]}) | ${webhookEventLabels[type]} |`,
  );
  return [
    START,
    '',
    '| type | 事件 |',
    '|---|---|',
    ...index,
    '',
    ...webhookEventTypes.flatMap((type) => [eventSection(type), '']),
    END,
  ].join('\n');
}

/** `text` with its section between the markers replaced by the generated one. */
export function withEventSection(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/webhooks.md lacks the markers ${START} … ${END}`);
  return `${text.slice(0, start)}${renderEventSection()}${text.slice(end + END.length)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = readFileSync(DOCS_FILE, 'utf8');
  const after = withEventSection(before);
  if (after !== before) writeFileSync(DOCS_FILE, after);
  console.log(
    after === before
      ? 'docs/webhooks.md: the event section is up to date'
      : 'docs/webhooks.md: event section written',
  );
}
