/**
 * The side menu as a drawer over the screen, below 768 px (Layout.tsx). A chunk of its own: a wide
 * screen, most first screens, never needs antd's Drawer.
 */
import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import { SIDER_WIDTH } from '@cowork/contract';
import { setShellState } from '../lib/shell-state.ts';

export default function MenuDrawer({ open, children }: { open: boolean; children: ReactNode }) {
  return (
    <Drawer
      placement="left"
      size={SIDER_WIDTH}
      open={open}
      closable={false}
      onClose={() => setShellState({ menuOpen: false })}
      className="shell-menu-drawer"
    >
      {children}
    </Drawer>
  );
}
