/**
 * The route table, generated from the contract's consoleRoutes (built ones only). Each route's
 * screen is the page module named by `route.page`, loaded on demand from src/pages/<page>.tsx, so
 * adding a screen means adding its page file and flipping `built` in the contract.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { consoleRoutes, type ConsoleRoute } from '@cowork/contract';
import { PageLoading } from './components/PageLoading.tsx';
import { RouteError } from './components/RouteError.tsx';
import { requireSession, type RouteMeta } from './lib/route-guard.ts';

/**
 * A screen's module (a page, or the layout): its component and, if it has one, `prefetch`, which
 * starts the queries it shows first. The router calls it as the route is entered, beside the other
 * matched routes' code and queries, instead of waiting for the screen to render and ask.
 */
type PageModule = { default: ComponentType; prefetch?: () => void };

const pages = import.meta.glob<PageModule>(['./pages/**/*.tsx', '!./pages/**/*.test.tsx']);

export const pageModulePath = (page: string) => `./pages/${page}.tsx`;

export const routeMeta = ({ name, pageTitle, openNames, sort }: ConsoleRoute): RouteMeta => ({
  name,
  pageTitle,
  openNames,
  sort,
});

function toRouteObject(route: ConsoleRoute): RouteObject | undefined {
  const load = pages[pageModulePath(route.page)];
  if (!load) {
    console.error(`路由 ${route.path} 标记为已完成，但缺少页面文件 src/pages/${route.page}.tsx`);
    return undefined;
  }
  return {
    id: route.name,
    path: route.path,
    handle: routeMeta(route),
    // Every named route but login needs the access token.
    loader:
      route.name === 'login'
        ? undefined
        : (args: LoaderFunctionArgs) => {
            requireSession(args);
            startPrefetch(load);
            return null;
          },
    lazy: async () => ({ Component: (await load()).default }),
  };
}

const loadLayout = () => import('./layout/Layout.tsx');

/**
 * Starts a screen's prefetch once its code is there, without holding up the navigation: a loader
 * that waited for the code would keep a new search's address pending while the list already shows
 * its answer, and a search typed meanwhile would be overwritten when the address caught up.
 */
function startPrefetch(load: () => Promise<{ prefetch?: () => void }>): void {
  void load().then(
    (screen) => screen.prefetch?.(),
    () => undefined, // the route's lazy() meets the same failure and shows RouteError
  );
}

const isRoute = (route: RouteObject | undefined): route is RouteObject => route !== undefined;

export function buildRoutes(table: ConsoleRoute[] = consoleRoutes): RouteObject[] {
  const built = table.filter((route) => route.built);
  const login = built
    .filter((route) => route.name === 'login')
    .map(toRouteObject)
    .filter(isRoute);
  const inLayout = built
    .filter((route) => route.name !== 'login')
    .map(toRouteObject)
    .filter(isRoute);
  return [
    {
      id: 'root',
      HydrateFallback: PageLoading,
      ErrorBoundary: RouteError,
      children: [
        ...login,
        {
          id: 'layout',
          lazy: async () => ({ Component: (await loadLayout()).Layout }),
          loader: () => {
            startPrefetch(loadLayout);
            return null;
          },
          // Its queries are the user's, asked once per entry; a new search on a screen is not one.
          shouldRevalidate: () => false,
          ErrorBoundary: RouteError,
          children: inLayout,
        },
      ],
    },
  ];
}

export const createRouter = () => createBrowserRouter(buildRoutes());

/**
 * Loads the code of the screens at `path` (the layout and the page) without showing them: the
 * login page asks for the screen it will open while the user types.
 */
export function preloadScreen(path: string): void {
  for (const { route } of matchRoutes(buildRoutes(), path) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy();
  }
}
