/** The signed-in user's info and menu tree, fetched once and shared through TanStack Query. */
import { useQuery } from '@tanstack/react-query';
import { endpoints, grants, type MenuItem, type UserInfo } from '@cowork/contract';
import { events } from './events.ts';
import { queryClient, queryKeys } from './query-client.ts';
import { api } from './request.ts';
import { getAccessToken, mergeUserInfo, readUserInfo } from './session.ts';

/** GET userInfo, merged with the cached copy in local storage and stored back. */
export async function fetchUserInfo(): Promise<Partial<UserInfo>> {
  const fresh = await api.get<UserInfo>(endpoints.userInfo);
  // An answer that arrives after logout must not bring the cached copy back.
  return getAccessToken() ? mergeUserInfo(fresh) : fresh;
}

/**
 * The user info; until the server answers, the cached copy. Fetched only with a session (so the
 * moment logout clears it, nothing is asked for again) and when `enabled`.
 */
export function useUserInfo(enabled = true) {
  const query = useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: fetchUserInfo,
    enabled: enabled && !!getAccessToken(),
    placeholderData: readUserInfo,
  });
  return { ...query, user: query.data ?? readUserInfo() };
}

export const fetchMenuTree = () => api.get<MenuItem[]>(endpoints.menuUserTree);

export function useMenuTree() {
  return useQuery({
    queryKey: queryKeys.menu,
    queryFn: fetchMenuTree,
    enabled: !!getAccessToken(),
    staleTime: Infinity,
  });
}

/** Whether the user's permissions overlap the required ones; `*` grants everything. */
export const hasPermission = (granted: readonly string[] | undefined, required: readonly string[]) =>
  grants(granted ?? [], required);

let installed = false;
/** changeMenu reloads the menu, saveInfo reloads the user info. */
export function installShellReloads(): void {
  if (installed) return;
  installed = true;
  events.on('changeMenu', () => void queryClient.invalidateQueries({ queryKey: queryKeys.menu }));
  events.on('saveInfo', () => void queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }));
}
