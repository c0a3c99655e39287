import { useEffect, useMemo, useState } from 'react';
import { Menu, Spin, type MenuProps } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import type { MenuItem } from '@cowork/contract';
import { isTokenExpired } from '../lib/request.ts';
import { useMenuTree } from '../lib/user.ts';

type Items = NonNullable<MenuProps['items']>;

const containsPath = (item: MenuItem, path: string): boolean =>
  item.url === path || item.children.some((child) => containsPath(child, path));

/** The item's icon: the highlighted one (iconBrightUrl) while it or an entry inside it is selected. */
function MenuIcon({ item, selected }: { item: MenuItem; selected: boolean }) {
  const src = selected ? item.iconBrightUrl || item.iconUrl : item.iconUrl;
  if (!src) return null;
  return <img src={src} alt="" className="menu-icon" width={16} height={16} />;
}

function toItems(tree: MenuItem[], path: string): Items {
  return tree.map((item) =>
    item.children.length
      ? {
          key: item.name,
          label: item.name,
          icon: <MenuIcon item={item} selected={containsPath(item, path)} />,
          children: toItems(item.children, path),
        }
      : {
          key: item.url || `menu-${item.id}`,
          label: item.name,
          icon: <MenuIcon item={item} selected={item.url === path} />,
        },
  );
}

/**
 * The side menu: 首页 first, then the user's menu tree. Groups are keyed by name so a
 * route's openNames open them; entries by url, the one equal to the current path highlighted.
 */
export function SideMenu({ openNames }: { openNames: string[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const menu = useMenuTree();
  const [openKeys, setOpenKeys] = useState<string[]>(openNames);

  // On every route change, open the groups the route names.
  const openKey = openNames.join('\u0000');
  useEffect(() => {
    setOpenKeys(openKey ? openKey.split('\u0000') : []);
  }, [pathname, openKey]);

  const items = useMemo<Items>(
    () => [
      { key: '/', label: '首页', icon: <HomeOutlined className="menu-icon" /> },
      ...toItems(menu.data ?? [], pathname),
    ],
    [menu.data, pathname],
  );

  // A 424 keeps the spinner on: the token refresh reloads the page. Other errors leave the menu empty.
  const loading = menu.isPending || (menu.isError && isTokenExpired(menu.error));

  return (
    <Spin spinning={loading}>
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[pathname]}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          if (key.startsWith('/') && key !== pathname) navigate(key);
        }}
      />
    </Spin>
  );
}
