/**
 * 会员 (user): page, detail and edit from the contract, plus user-ids/username for other screens.
 * Members are created by the member app, so there is no save or remove here. ID-card numbers are
 * masked in lists and edit answers go to editors only; a detail shows the full number only to
 * staff who may edit members.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessViewEndpoints,
  accessViewMessages,
  fieldInvalid,
  memberDoorQuery,
  memberDoorRow,
  messages,
  resourcePermissions,
} from '@cowork/contract';
import {
  maskIdCard,
  member,
  memberBrief,
  memberEndpoints,
  memberIdsQuery,
} from '@cowork/contract/resources/member';
import { csrSources, devices, members } from '../../db/schema.ts';
import { memberDoorsOf } from '../../device-link/access-views.ts';
import { spaceInKeyBuildings } from '../../lib/building-scope.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';
import { hasPermission } from '../../plugins/auth.ts';

const permissions = resourcePermissions(member);

const crudRoutes = crudModule({
  resource: member,
  table: members,
  present(row, request, action) {
    const full = action !== 'page' && request.user !== null && hasPermission(request.user, permissions.edit);
    return full ? row : { ...row, idCardNo: maskIdCard(row.idCardNo) };
  },
  async prepare(values, { tx }) {
    if (values.sourceId !== undefined && values.sourceId !== null) {
      const [source] = await tx
        .select({ id: csrSources.id })
        .from(csrSources)
        .where(eq(csrSources.id, values.sourceId));
      if (!source) throw badRequest(fieldInvalid('来源', '所选来源不存在或已被删除，请刷新后重新选择'));
    }
    return values;
  },
});

export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crudRoutes);

  app.get(
    memberEndpoints.usernames,
    {
      // Members' names and full phones, as the 会员 list shows them: for staff who may open that list.
      config: { permission: permissions.view, fieldLabels: { ids: '会员编号' } },
      schema: {
        tags: [member.key],
        summary: '按编号查会员昵称与手机号（编号 → 会员）',
        querystring: memberIdsQuery,
        response: { 200: envelope(z.record(z.string(), memberBrief)) },
      },
    },
    async (request) => {
      const ids = request.query.ids;
      if (ids.length === 0) throw badRequest(fieldInvalid('会员编号', messages.badRequest));
      const rows = await app.db
        .select({ id: members.id, nickname: members.nickname, phone: members.phone })
        .from(members)
        .where(inArray(members.id, ids))
        .orderBy(asc(members.id));
      return ok(Object.fromEntries(rows.map((row) => [String(row.id), row])));
    },
  );

  app.get(
    accessViewEndpoints.memberDoorList,
    {
      // Which doors a member can open: for staff who may open the member (an API key: its buildings' doors).
      config: { permission: permissions.view },
      schema: {
        tags: [member.key],
        summary: '会员可开的门：每扇门的开门依据、有效期与设备是否已同步',
        querystring: memberDoorQuery,
        response: { 200: envelope(z.array(memberDoorRow)) },
      },
    },
    async (request) => {
      const [found] = await app.db
        .select({ id: members.id })
        .from(members)
        .where(eq(members.id, request.query.id));
      if (!found) throw notFound(accessViewMessages.memberNotFound);
      return ok(await memberDoorsOf(app.db, found.id, spaceInKeyBuildings(request, devices.spaceId)));
    },
  );
};

export default memberRoutes;
