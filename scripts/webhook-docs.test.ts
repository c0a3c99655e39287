/**
 * docs/webhooks.md tells receivers what each event looks like: its section is written from the
 * contract by scripts/webhook-docs.ts, and this fails when the contract changed since.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webhookEventSchemas, webhookEventTypes } from '@cowork/contract';
import { DOCS_FILE, exampleBody, renderEventSection, withEventSection } from './webhook-docs.ts';

describe('docs/webhooks.md', () => {
  const text = readFileSync(DOCS_FILE, 'utf8');

  it('shows the events as the contract declares them (run `npx tsx scripts/webhook-docs.ts` after a change)', () => {
    expect(withEventSection(text)).toBe(text);
  });

  it('shows every event type with a body whose data its schema accepts', () => {
    const section = renderEventSection();
    for (const type of webhookEventTypes) {
      expect(section).toContain(`### \`${type}\``);
      const body = exampleBody(type);
      expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'data']);
      expect(webhookEventSchemas[type].safeParse(body.data).success).toBe(true);
      expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
