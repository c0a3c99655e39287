/**
 * 轮播图 and 案例新闻 (banner): one resource, two menus. `/system/banner` manages type `banner`,
 * `/system/news` type `news`; both pages are one component passing the type as a fixed filter.
 * A record is shown to members while published and inside its optional startAt–endAt window.
 */
import { blankAsNull, keysOf } from '../validators.ts';
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, resourcePermissions } from '../resource.ts';
import { permissionOf } from '../routes.ts';

export const bannerTypes = [
  { value: 'banner', label: '轮播图' },
  { value: 'news', label: '案例新闻' },
] as const;
export type BannerType = (typeof bannerTypes)[number]['value'];

/** The menu route managing each type. */
const bannerPathOf = { banner: '/system/banner', news: '/system/news' } as const satisfies Record<
  BannerType,
  string
>;

/** The type each menu route manages. */
export const bannerTypeOfPath: Record<string, BannerType> = Object.fromEntries(
  keysOf(bannerPathOf).map((type) => [bannerPathOf[type], type]),
);

/** The permission prefix of the menu at `path`: `system:banner` for `/system/banner`. */
const permissionPrefixOf = (path: string) => permissionOf({ path }, 'view').replace(/:view$/, '');

/**
 * Each type's permission prefix, that of the menu managing it: `system:banner` for 轮播图,
 * `system:news` for 案例新闻. A role granted one menu works on that type only.
 */
export const bannerPermissionOf: Record<BannerType, string> = {
  banner: permissionPrefixOf(bannerPathOf.banner),
  news: permissionPrefixOf(bannerPathOf.news),
};

/** The codes of one action over every type: a banner route opens to a holder of any of them. */
export const bannerCodesOf = (action: keyof ReturnType<typeof resourcePermissions>) =>
  bannerTypes.map((t) => resourcePermissions({ permission: bannerPermissionOf[t.value] })[action]);

/** An absolute http(s) address, or a path inside the app (`/pages/…`), never `//host` or a script. */
const LINK_URL_PATTERN = /^(https?:\/\/[^\s/?#]+[^\s]*|\/(?!\/)[^\s]*)$/i;

export const banner = defineResource({
  key: 'banner',
  base: `${prefixes.basic}/banner`,
  label: '轮播图',
  // 轮播图's codes; the server opens the routes to 案例新闻's too and checks each record's type
  // (bannerPermissionOf), and the news page passes `system:news`.
  permission: 'system:banner',
  actions: ['page', 'detail', 'save', 'edit', 'remove', 'editPublished'],
  fields: {
    type: field.enumeration('类型', bannerTypes),
    title: field.text('标题', { max: 100, search: 'like' }),
    imageUrl: field.image('图片', { optional: false, help: '建议尺寸 750×340，不超过 2 MB' }),
    linkUrl: {
      ...field.text('跳转链接', { max: 500, optional: true }),
      schema: blankAsNull(
        z
          .string({ error: '跳转链接须是文字' })
          .trim()
          .max(500, '跳转链接最多 500 个字符，请删减后重试')
          .regex(LINK_URL_PATTERN, '跳转链接须以 http://、https:// 或 / 开头，且不含空格'),
      ),
      help: '网址（https://…）或小程序内页面路径（/pages/…），可不填',
      list: false,
    },
    summary: field.textarea('摘要', { max: 300, optional: true }),
    content: field.richtext('正文', { optional: true, help: '案例新闻的正文；保存时只保留安全的排版标签' }),
    sort: field.sort(),
    published: field.published(),
    startAt: field.datetime('开始时间', { optional: true, sortable: true, help: '不填则发布后立即展示' }),
    endAt: field.datetime('结束时间', { optional: true, help: '不填则一直展示；须晚于开始时间' }),
  },
  titleField: 'title',
  defaultSort: { field: 'sort', order: 'ascend' },
});

type ScheduleState = 'pending' | 'showing' | 'ended';
export const scheduleStateLabels: Record<ScheduleState, string> = {
  pending: '未开始',
  showing: '展示中',
  ended: '已结束',
};

/** Where a record stands against its display window at `now` (no bound means open on that side). */
export function scheduleState(
  startAt: string | Date | null | undefined,
  endAt: string | Date | null | undefined,
  now: Date = new Date(),
): ScheduleState {
  if (startAt && new Date(startAt).getTime() > now.getTime()) return 'pending';
  if (endAt && new Date(endAt).getTime() <= now.getTime()) return 'ended';
  return 'showing';
}
