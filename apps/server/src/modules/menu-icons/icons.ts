/**
 * Menu icons, generated: a rounded square holding the first character of the menu name, grey for
 * the normal state and white on blue when highlighted. One per menu group (`system`) and per menu
 * route (`system-log`).
 */
import { MENU_ICON_BASE, menuGroups, menuRoutes, type ConsoleRoute } from '@cowork/contract';

export const iconKeyOfRoute = (route: Pick<ConsoleRoute, 'path'>) => route.path.slice(1).replace('/', '-');

export const iconUrls = (key: string) => ({
  iconUrl: `${MENU_ICON_BASE}/${key}.svg`,
  iconBrightUrl: `${MENU_ICON_BASE}/${key}-bright.svg`,
});

/** Icon key → the menu name it is drawn from. */
export const iconNames: ReadonlyMap<string, string> = new Map([
  ...menuGroups.map((g) => [g.key, g.name] as const),
  ...menuRoutes.map((r) => [iconKeyOfRoute(r), r.pageTitle] as const),
]);

const escapeXml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

export function renderIcon(name: string, bright: boolean): string {
  const glyph = escapeXml([...name][0] ?? '');
  const square = bright
    ? '<rect x="1" y="1" width="30" height="30" rx="8" fill="#1677ff"/>'
    : '<rect x="2" y="2" width="28" height="28" rx="7" fill="none" stroke="#8c8c8c" stroke-width="2"/>';
  const color = bright ? '#ffffff' : '#8c8c8c';
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    square +
    `<text x="16" y="16" dy="0.35em" text-anchor="middle" font-size="16" font-weight="600" ` +
    `font-family="'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif" fill="${color}">${glyph}</text>` +
    '</svg>'
  );
}
