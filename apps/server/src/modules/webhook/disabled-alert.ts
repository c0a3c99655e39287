/**
 * 推送地址已停用: the console turns an endpoint off after 3 days of failures and raises an alert
 * in the bell (告警通知, kind `webhook-disabled`, one per endpoint) that links to 开放平台; the
 * alert closes when staff enable the endpoint again or remove it. Both go out as `alert.raised` /
 * `alert.closed` events too (to group robots that want them), in the same transaction.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { businessDateTime } from '@cowork/contract';
import { webhookMessages } from '@cowork/contract/resources/webhook';
import type { Executor } from '../../db/client.ts';
import { alerts, webhookEndpoints } from '../../db/schema.ts';
import { alertEvents, recordEvents } from '../../lib/outbox.ts';

const causeKeyOf = (endpointId: number) => `webhook-disabled:${endpointId}`;

/**
 * Turns the endpoint off if it is still on and has been failing since `failingSince`, and raises
 * its alert. Answers whether this call turned it off (another instance may have done it already).
 */
export async function disableFailingEndpoint(
  tx: Executor,
  endpoint: { id: number; name: string; failingSince: Date },
): Promise<boolean> {
  const reason = webhookMessages.disabledAfterFailures(businessDateTime(endpoint.failingSince));
  const turnedOff = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  if (turnedOff.length === 0) return false;
  const raised = await tx
    .insert(alerts)
    .values({
      kind: 'webhook-disabled',
      causeKey: causeKeyOf(endpoint.id),
      title: `推送地址「${endpoint.name}」持续失败 3 天，已自动停用`,
      detail: reason,
      link: '/system/open',
      count: 1,
    })
    .onConflictDoNothing({ target: alerts.causeKey, where: isNull(alerts.closedAt) })
    .returning();
  await recordEvents(tx, alertEvents(raised, []));
  return true;
}

/** Closes the endpoint's open alert, if any: it was enabled again or removed. */
export async function closeDisabledAlert(tx: Executor, endpointId: number): Promise<void> {
  const closed = await tx
    .update(alerts)
    .set({ closedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(alerts.causeKey, causeKeyOf(endpointId)), isNull(alerts.closedAt)))
    .returning();
  await recordEvents(tx, alertEvents([], closed));
}
