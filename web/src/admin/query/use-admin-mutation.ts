import type { ApiRoute } from '@deposito/protocol/api/route';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { RouteCall } from '../../api/call-route';
import { adminCall } from '../admin-api';

/**
 * A save that refreshes what it changed: `mutateAsync` resolves once the reads under `invalidates`
 * have come back, so the page shows the stored state with its success message. A refusal rejects
 * with the ApiError, for the page to show as it always has (stale warning, Italian text).
 */
export function useAdminMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  invalidates: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/**
 * A save of a body to one admin route (at its path `params`, if it has any) that refreshes the reads
 * under `invalidates`, as useAdminMutation.
 */
export function useRouteMutation<Route extends ApiRoute>(
  route: Route,
  invalidates: readonly QueryKey[],
  params?: RouteCall<Route>['params'],
) {
  return useAdminMutation(
    (body: RouteCall<Route>['body']) =>
      // A generic route's call type stays unresolved for TypeScript; each caller's route fixes it.
      adminCall(route, { params, body } as unknown as RouteCall<Route>),
    invalidates,
  );
}
