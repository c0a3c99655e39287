import { QueryClient } from '@tanstack/react-query';

/**
 * The one TanStack Query cache. No automatic retries: a failed call has already been toasted by
 * the request interceptor, and a 424 is answered by refreshing the token and reloading the page.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

export const queryKeys = {
  userInfo: ['userInfo'] as const,
  menu: ['menuUserTree'] as const,
};
