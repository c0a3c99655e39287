import { useState } from 'react';
import { Alert } from 'antd';
import { BROWSER_TIP_DISMISSED, BROWSER_TIP_KEY, messages } from '@cowork/contract';

/**
 * Whether the browser is Google Chrome: a user agent with `Chrome/` that is not one of the
 * Chromium-based browsers that say so too (Edge, Opera, Samsung, Yandex, UC, QQ, Sogou, 360, …).
 * Headless Chromium (`HeadlessChrome/`) is treated as not Chrome: it is an automation tool, not the
 * browser we recommend, and showing the notice there lets the end-to-end tests exercise it.
 */
export function isChrome(userAgent: string): boolean {
  if (/HeadlessChrome\//.test(userAgent)) return false;
  if (!/Chrome\//.test(userAgent)) return false;
  return !/Edg\/|Edge\/|EdgA\/|OPR\/|Opera|SamsungBrowser|YaBrowser|UCBrowser|QQBrowser|MetaSr|360SE|360EE|Vivaldi|Brave/.test(
    userAgent,
  );
}

export const isBrowserTipDismissed = () => localStorage.getItem(BROWSER_TIP_KEY) === BROWSER_TIP_DISMISSED;

/** The notice asking to prefer Chrome; closing it is remembered in local storage (value 2). */
export function useBrowserTip() {
  const [visible, setVisible] = useState(() => !isBrowserTipDismissed() && !isChrome(navigator.userAgent));
  const dismiss = () => {
    localStorage.setItem(BROWSER_TIP_KEY, BROWSER_TIP_DISMISSED);
    setVisible(false);
  };
  return { visible, dismiss };
}

export function BrowserTip({ onClose }: { onClose: () => void }) {
  return (
    <Alert
      data-testid="browser-tip"
      type="warning"
      banner
      showIcon
      title={messages.browserTip}
      closable={{ onClose, 'aria-label': '关闭提示' }}
    />
  );
}
