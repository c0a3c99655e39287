import { describe, expect, it } from 'vitest';
import { consoleRoutes, type MenuItem } from '@cowork/contract';
import { isRouteAllowed } from './route-guard.ts';

const item = (id: number, name: string, url: string, children: MenuItem[] = []): MenuItem => ({
  id,
  name,
  url,
  iconUrl: null,
  iconBrightUrl: null,
  children,
});

const menu = [
  item(1, '系统配置', '/system', [item(11, '操作日志', '/system/log'), item(12, '菜单配置', '/system/menu')]),
  item(2, '运营中心', '/operation', [
    item(21, '活动', '/operation/x', [item(211, '会议卡活动', '/operation/meeting')]),
  ]),
  item(3, '数据看板', '/board'),
];

const route = (name: string) => consoleRoutes.find((r) => r.name === name)!;

describe('isRouteAllowed', () => {
  it('always allows index, personal, login and 404', () => {
    for (const name of ['index', 'personal', 'login', '404'])
      expect(isRouteAllowed(route(name), [])).toBe(true);
  });

  it('allows a route whose pageTitle is a second-level menu name', () => {
    expect(isRouteAllowed(route('systemLog'), menu)).toBe(true);
  });

  it('allows a route whose pageTitle is a top-level menu name', () => {
    expect(isRouteAllowed({ name: 'board', pageTitle: '数据看板' }, menu)).toBe(true);
  });

  it('refuses a route absent from the menu, or only on the third level', () => {
    expect(isRouteAllowed(route('systemRole'), menu)).toBe(false);
    expect(isRouteAllowed(route('operationMeeting'), menu)).toBe(false);
    expect(isRouteAllowed(route('systemLog'), [])).toBe(false);
  });
});
