/**
 * Demo leads of either kind: twenty over the last sixty days (a few today, more this month), in
 * every status, with sources, owners and follow-up records written after each lead came in.
 */
import { inArray } from 'drizzle-orm';
import type { LeadKind, LeadStatus } from '@cowork/contract/resources/lead';
import type { Executor } from '../../db/client.ts';
import {
  csrCapitalRecords,
  csrCapitalSites,
  csrCapitalWebsites,
  csrSources,
  ssoUsers,
} from '../../db/schema.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Days ago each lead came in: three today, then spread over sixty days. */
const daysAgo = [0, 0, 0, 1, 2, 3, 5, 6, 8, 11, 13, 17, 20, 24, 29, 33, 38, 44, 51, 58];
const statuses: LeadStatus[] = ['new', 'following', 'won', 'lost'];
const sourceCodes = ['website', 'wechat_mini', 'dianping', 'ground', 'referral'];
const owners = ['yunying', 'admin', null];
const names = ['张伟', '王芳', '李强', '刘洋', '陈静', '杨帆', '赵敏', '黄磊', '周婷', '吴昊'];
const cities = ['310100', '110100', '440300', '330100', '510100'];
const followUps = [
  '电话沟通需求，客户希望下周实地看场地',
  '已带看场地，客户对采光和交通满意',
  '发送报价方案，等待客户内部审批',
  '客户比较了周边两家，价格上还在犹豫',
  '确认合作意向，准备合同',
];

export interface LeadDemo {
  companyName: string;
  demand: string;
  /** The kind's own columns. */
  extra: Record<string, unknown>;
}

export async function seedLeads(tx: Executor, kind: LeadKind, leads: LeadDemo[]) {
  const sources = await tx
    .select({ id: csrSources.id, code: csrSources.code })
    .from(csrSources)
    .where(inArray(csrSources.code, sourceCodes));
  const staff = await tx
    .select({ id: ssoUsers.id, username: ssoUsers.username })
    .from(ssoUsers)
    .where(inArray(ssoUsers.username, ['yunying', 'admin']));
  const idOf = (username: string | null) => staff.find((s) => s.username === username)?.id ?? null;
  const now = Date.now();
  const table = kind === 'site' ? csrCapitalSites : csrCapitalWebsites;
  const values = leads.map((lead, i) => {
    // Today's leads came in minutes ago, so they stay today's whenever the demo is loaded.
    const createdAt = new Date(now - daysAgo[i % daysAgo.length] * DAY - (i + 1) * MINUTE);
    const status = statuses[i % statuses.length];
    return {
      contactName: names[i % names.length],
      contactPhone: `139${kind === 'site' ? '1' : '2'}${String(2000_000 + i * 1371).slice(-7)}`,
      companyName: lead.companyName,
      cityCode: cities[i % cities.length],
      sourceId: sources.find((s) => s.code === sourceCodes[i % sourceCodes.length])?.id ?? null,
      demand: lead.demand,
      status,
      ownerId: status === 'new' ? null : idOf(owners[i % owners.length]),
      ...lead.extra,
      createdAt,
      updatedAt: createdAt,
    };
  });
  const saved = await tx.insert(table).values(values).returning({
    id: table.id,
    status: table.status,
    createdAt: table.createdAt,
    ownerId: table.ownerId,
  });
  const records = saved.flatMap((lead, i) => {
    if (lead.status === 'new') return [];
    const count = lead.status === 'following' ? 1 + (i % 2) : 2 + (i % 2);
    const age = now - lead.createdAt.getTime();
    return Array.from({ length: count }, (_, n) => {
      // Evenly after the lead came in, the last one a little before now.
      const createdAt = new Date(lead.createdAt.getTime() + (age * (n + 1)) / (count + 1));
      const last = n === count - 1;
      return {
        leadKind: kind,
        leadId: lead.id,
        content:
          last && lead.status === 'won'
            ? '合同已签订，线索成交'
            : last && lead.status === 'lost'
              ? '客户已选择其他方案，线索流失'
              : followUps[(i + n) % followUps.length],
        nextFollowAt: last && lead.status === 'following' ? new Date(now + (1 + (i % 5)) * DAY) : null,
        createdBy: lead.ownerId ?? idOf('admin'),
        createdAt,
      };
    });
  });
  if (records.length) await tx.insert(csrCapitalRecords).values(records);
}
