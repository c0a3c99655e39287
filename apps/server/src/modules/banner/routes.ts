/**
 * 轮播图 / 案例新闻: the declaration's CRUD plus the checks between fields: the display window
 * must end after it starts, a banner carries no article, a news item needs an article or a link.
 * Rich text is sanitized by lib/crud.ts before these checks run.
 */
import type { FastifyRequest } from 'fastify';
import { inArray } from 'drizzle-orm';
import {
  banner,
  bannerCodesOf,
  bannerPermissionOf,
  bannerTypes,
  type BannerType,
} from '@cowork/contract/resources/banner';
import { banners } from '../../db/schema.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest, forbidden } from '../../lib/http.ts';
import { hasPermission } from '../../plugins/auth.ts';

type Action = 'view' | 'edit' | 'remove';

/** Whether the caller holds `action` on records of this type (轮播图: system:banner, 案例新闻: system:news). */
const may = (request: FastifyRequest, type: BannerType | undefined, action: Action) =>
  request.user !== null &&
  type !== undefined &&
  hasPermission(request.user, `${bannerPermissionOf[type]}:${action}`);

export const bannerRoutes = crudModule({
  resource: banner,
  table: banners,
  // Either menu's codes open the routes; each record is then checked against its own type.
  permissions: { view: bannerCodesOf('view'), edit: bannerCodesOf('edit'), remove: bannerCodesOf('remove') },
  where: (request) =>
    inArray(
      banners.type,
      bannerTypes.map((t) => t.value).filter((type) => may(request, type, 'view')),
    ),
  authorize: (record, request, action) => {
    if (!may(request, record.type, action)) throw forbidden();
  },
  prepare: (values, { existing }) => {
    const startAt = valueAfterWrite('startAt', values, existing);
    const endAt = valueAfterWrite('endAt', values, existing);
    if (startAt && endAt && endAt.getTime() <= startAt.getTime()) {
      throw badRequest('结束时间须晚于开始时间，请重新选择结束时间');
    }
    const type = valueAfterWrite('type', values, existing);
    const content = valueAfterWrite('content', values, existing);
    if (type === 'banner' && content) {
      throw badRequest('正文只用于案例新闻：轮播图请清空正文，用跳转链接指向详情');
    }
    if (type === 'news' && !content && !valueAfterWrite('linkUrl', values, existing)) {
      throw badRequest('请填写正文，或填写跳转链接指向外部文章');
    }
    return values;
  },
});

export default bannerRoutes;
