import { describe, expect, it } from 'vitest';
import { consoleRoutes, menuGroups, menuRoutes, permissionOf } from '../src/index.ts';

describe('console route table', () => {
  it('names the routes the product tests for', () => {
    const names = consoleRoutes.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['index', 'personal', 'login', '404']));
    expect(new Set(names).size).toBe(names.length);
  });
  it('declares every menu screen with its group, sort and Chinese page title', () => {
    const paths = menuRoutes.map((r) => r.path);
    for (const path of [
      '/merchant/brand',
      '/merchant/rule',
      '/merchant/share',
      '/building/list',
      '/building/person',
      '/product/member',
      '/product/meeting',
      '/product/seat',
      '/product/meetingRoom',
      '/product/activityVenue',
      '/product/airport',
      '/order/member',
      '/order/meeting',
      '/order/seat',
      '/order/meetingRoom',
      '/order/activityVenue',
      '/order/airport',
      '/invoice/jingying',
      '/invoice/airport',
      '/clue/place',
      '/clue/cooperate',
      '/user/admin',
      '/user/member',
      '/system/banner',
      '/system/news',
      '/system/menu',
      '/system/role',
      '/system/source',
      '/system/facilities',
      '/system/dict',
      '/system/agreement',
      '/system/airport',
      '/system/rule',
      '/hardware/space',
      '/hardware/device',
      '/hardware/log',
      '/hardware/map',
      '/enterprise/accessControl',
      '/enterprise/teamCard',
      '/operation/meeting',
    ]) {
      expect(paths).toContain(path);
    }
    for (const route of menuRoutes) {
      const group = menuGroups.find((g) => g.key === route.group)!;
      expect(route.openNames).toEqual([group.name]);
      expect(route.sort).toBeGreaterThan(0);
      expect(route.pageTitle).toMatch(/\p{Script=Han}/u);
    }
  });
  it('serves paired screens (会议室 and 活动场地 and their orders, both invoice lists, 轮播图 and 案例新闻) from one page', () => {
    const page = (path: string) => menuRoutes.find((r) => r.path === path)!.page;
    expect(page('/product/activityVenue')).toBe(page('/product/meetingRoom'));
    expect(page('/order/activityVenue')).toBe(page('/order/meetingRoom'));
    expect(page('/invoice/airport')).toBe(page('/invoice/jingying'));
    expect(page('/system/news')).toBe(page('/system/banner'));
  });
  it('derives permission codes from the path', () => {
    expect(permissionOf({ path: '/system/log' }, 'view')).toBe('system:log:view');
    expect(permissionOf({ path: '/product/meetingRoom' }, 'edit')).toBe('product:meetingRoom:edit');
  });
});
