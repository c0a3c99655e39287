import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { adoptBusinessTimeZone } from './lib/business-time-zone.ts';
import { setNavigation } from './lib/navigation.ts';
import { setToast } from './lib/request.ts';
import { installLogoutListener } from './lib/session.ts';
import { createRouter } from './router.tsx';
import './global.css';

adoptBusinessTimeZone();
installLogoutListener();

const router = createRouter();
setNavigation({ navigate: (to) => void router.navigate(to) });

/** Sends the interceptor's toasts through antd's App context, so they follow the theme and locale. */
function ToastBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setToast((text, seconds) => void message.error(text, seconds)), [message]);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntApp>
        <ToastBridge />
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  </StrictMode>,
);
