import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ConfigProvider } from 'antd';
// The ES build: antd/locale/zh_CN is the CommonJS one, which brings a second copy of its parts.
import zhCN from 'antd/es/locale/zh_CN';
import { adoptBusinessTimeZone } from './lib/business-time-zone.ts';
import { setNavigation } from './lib/navigation.ts';
import { installLogoutListener } from './lib/session.ts';
import { createRouter } from './router.tsx';
// antd's styles, prebuilt: with zeroRuntime no component generates and injects its CSS at run time,
// which was most of the main thread's work in drawing the first screen after sign-in.
import 'antd/dist/antd.css';
import './global.css';

adoptBusinessTimeZone();
installLogoutListener();

const router = createRouter();
setNavigation({ navigate: (to) => void router.navigate(to) });

// antd's App (message, modal and notification through context) wraps the screens inside the
// layout; the login page needs none of its code to show.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider locale={zhCN} theme={{ zeroRuntime: true, token: { colorPrimary: '#1677ff' } }}>
      <RouterProvider router={router} />
    </ConfigProvider>
  </StrictMode>,
);
