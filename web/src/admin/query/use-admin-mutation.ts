import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

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
