import { authRoutes, type AdminRole } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { adminCall } from './admin-api';
import { adminSessionGeneration } from './admin-session';

/**
 * The signed-in account's role, for the pages to show only what it reaches (the server refuses the
 * rest anyway). Read once per session: the menu and every page ask, one request answers (a query
 * keyed by the session's generation, so a new sign-in reads it again). An administrator until
 * known, or when it cannot be read; a failed read is asked again next time a page opens.
 */
export function useAdminRole(): AdminRole {
  const role = useQuery({
    queryKey: ['session', adminSessionGeneration(), 'role'],
    queryFn: ({ signal }) => adminCall(authRoutes.me, { signal }).then((me) => me.role),
    staleTime: Infinity,
  });
  return role.data ?? 'administrator';
}
