import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App, Layout as AntLayout, Spin } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { Navigate, Outlet, useLocation } from 'react-router';
import { messages, SIDER_WIDTH } from '@cowork/contract';
import { queryClient, queryKeys } from '../lib/query-client.ts';
import { isTokenExpired, setToast, toastContent } from '../lib/request.ts';
import { isRouteAllowed } from '../lib/route-guard.ts';
import { setShellState, useShellState } from '../lib/shell-state.ts';
import { getAccessToken } from '../lib/session.ts';
import { fetchMenuTree, fetchUserInfo, installShellReloads, useMenuTree, useUserInfo } from '../lib/user.ts';
import { BrowserTip, useBrowserTip } from './BrowserTip.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { useRouteMeta } from './route-meta.ts';
import { SideMenu } from './SideMenu.tsx';
import './layout.css';

/**
 * The user info and the menu, asked for as the layout's route is entered (router.tsx), beside the
 * page's own data (首页 starts the dashboard's), rather than once the shell has rendered.
 */
export function prefetch(): void {
  if (!getAccessToken()) return;
  void queryClient.prefetchQuery({ queryKey: queryKeys.userInfo, queryFn: fetchUserInfo });
  void queryClient.prefetchQuery({ queryKey: queryKeys.menu, queryFn: fetchMenuTree, staleTime: Infinity });
}

const PRODUCT_NAME = '共享办公管理后台';

// The password dialog's form (antd Form, Input and their validator) loads the first time it opens,
// not with every first screen.
const PasswordModal = lazy(async () => ({ default: (await import('./PasswordModal.tsx')).PasswordModal }));
const MenuDrawer = lazy(() => import('./MenuDrawer.tsx'));
/** antd's md breakpoint: narrower than this is a phone. */
const NARROW_QUERY = '(max-width: 767.98px)';

/** Whether the window is phone-narrow: right from the first render, and following every resize. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(NARROW_QUERY);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(NARROW_QUERY).matches,
  );
}

// What only signed-in screens need loads with the layout, not with the login route: the query
// cache (user info, menu) and its reloads, and the Chinese dayjs locale of the date pickers.
dayjs.locale('zh-cn');
installShellReloads();

/**
 * The console frame around every screen but login: header, side menu (250px or 0), the Chrome
 * notice, the page title, the content and the footer. The content column is a flex column, so the
 * content's height shrinks by exactly the height of the title and the notice when they show.
 * The frame and the screens inside it share the query cache provided here.
 */
export function Layout() {
  return (
    <QueryClientProvider client={queryClient}>
      <App>
        <AppToasts />
        <Shell />
      </App>
    </QueryClientProvider>
  );
}

/**
 * Request errors toast through the App's message while a screen is shown, so they follow the theme
 * and stack with the screens' own messages; leaving for login gives them back to the static one.
 */
function AppToasts() {
  const { message } = App.useApp();
  useEffect(
    () => setToast((text, seconds, requestId) => void message.error(toastContent(text, requestId), seconds)),
    [message],
  );
  return null;
}

function Shell() {
  const meta = useRouteMeta();
  const { menuOpen, titleOpen, passwordOpen } = useShellState();
  const tip = useBrowserTip();
  // Once opened, the dialog stays mounted, so that it closes with its animation.
  const [passwordUsed, setPasswordUsed] = useState(false);
  if (passwordOpen && !passwordUsed) setPasswordUsed(true);
  useUserInfo();

  // Below 768 px the menu is a drawer over the screen, closed until the header's button opens it.
  const narrow = useNarrow();
  const { pathname } = useLocation();

  // A session starts: open the menu and the title (logout closes them); on a phone the menu waits.
  useEffect(() => {
    setShellState({ menuOpen: !narrow, titleOpen: true });
    // Once per session, with the width it starts at.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // On a phone, choosing a screen (or narrowing the window) closes the menu drawer.
  useEffect(() => {
    if (narrow) setShellState({ menuOpen: false });
  }, [pathname, narrow]);

  useEffect(() => {
    document.title = meta && meta.name !== 'index' ? `${meta.pageTitle} - ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [meta]);

  const showTitle = titleOpen && !!meta && meta.name !== 'index';

  return (
    <AntLayout className="shell">
      <Header />
      <AntLayout className="shell-body" hasSider>
        {narrow ? (
          <Suspense fallback={null}>
            <MenuDrawer open={menuOpen}>
              <div data-testid="side-menu">
                <SideMenu openNames={meta?.openNames ?? []} />
              </div>
            </MenuDrawer>
          </Suspense>
        ) : (
          <AntLayout.Sider
            data-testid="side-menu"
            className="shell-sider"
            theme="light"
            width={SIDER_WIDTH}
            collapsedWidth={0}
            collapsible
            collapsed={!menuOpen}
            trigger={null}
          >
            <SideMenu openNames={meta?.openNames ?? []} />
          </AntLayout.Sider>
        )}
        <AntLayout className="shell-main">
          {tip.visible && <BrowserTip onClose={tip.dismiss} />}
          {showTitle && (
            <h1 className="shell-title" data-testid="page-title">
              {meta.pageTitle}
            </h1>
          )}
          <AntLayout.Content className="shell-content">
            <GuardedOutlet />
          </AntLayout.Content>
          <Footer />
        </AntLayout>
      </AntLayout>
      {passwordUsed && (
        <Suspense fallback={null}>
          <PasswordModal />
        </Suspense>
      )}
    </AntLayout>
  );
}

/** A screen the menu does not grant, opened by its address: home, saying why (once: one message key). */
function Forbidden({ page }: { page: string }) {
  const { message } = App.useApp();
  useEffect(() => {
    void message.warning({
      key: 'route-forbidden',
      content: messages.routeForbidden.replace('{page}', page),
    });
  }, [message, page]);
  return <Navigate to="/" replace />;
}

/**
 * Renders the screen once the user's menu says they may see it; otherwise home.
 * Screens outside the menu (home, personal, 404) render at once. If the menu cannot be loaded for
 * another reason than an expired token, the screen renders and the server's permissions decide.
 */
function GuardedOutlet() {
  const meta = useRouteMeta();
  const menu = useMenuTree();
  if (!meta || isRouteAllowed(meta, [])) return <Outlet />;
  if (menu.isSuccess)
    return isRouteAllowed(meta, menu.data) ? <Outlet /> : <Forbidden page={meta.pageTitle} />;
  if (menu.isError && !isTokenExpired(menu.error)) return <Outlet />;
  return (
    <div className="page-loading">
      <Spin />
    </div>
  );
}

export default Layout;
