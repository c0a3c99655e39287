import { QueryClient } from '@tanstack/react-query';
import { onSessionEnd } from './session.ts';

/**
 * The one TanStack Query cache, loaded with the layout (the login route does without it). No
 * automatic retries: a failed call has already been toasted by the request interceptor, and a 424
 * is answered by refreshing the token and reloading the page.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// Logout, a 401 and a failed refresh forget everything cached for the session.
onSessionEnd(() => queryClient.clear());

export const queryKeys = {
  userInfo: ['userInfo'] as const,
  menu: ['menuUserTree'] as const,
};
