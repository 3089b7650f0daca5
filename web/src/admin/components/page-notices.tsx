import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { StaleNotice, staleEditMessage } from './StaleNotice';
import { Notice, type NoticeMessage } from './ui';

/**
 * A page's answers to what the operator did: the last action's message, and the warning that another
 * operator saved first (409 `edit/stale`) with its "Ricarica" button.
 */
export function usePageNotices() {
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  return {
    message,
    setMessage,
    stale,
    clearStale: () => setStale(null),
    success: (text: string) => setMessage({ tone: 'success', text }),
    error: (text: string) => setMessage({ tone: 'error', text }),
    /** A refused save: the stale warning when another operator saved first, else `text`. */
    refused(error: unknown, text: string) {
      const staleText = staleEditMessage(error);
      if (staleText) setStale(staleText);
      else setMessage({ tone: 'error', text });
    },
  };
}

export type PageNotices = ReturnType<typeof usePageNotices>;

/**
 * A page that edits what it reads: the read, the page's notices, and `failed`, the read's failure in
 * the page's own words (`failureText`) for `PageNoticeBar`.
 */
export function useEditingPage<QueryFnData, Data, Key extends QueryKey>(
  options: UseQueryOptions<QueryFnData, Error, Data, Key>,
  failureText: string,
) {
  const notices = usePageNotices();
  const query = useQuery(options);
  return { notices, query, failed: loadFailure(query, failureText) };
}

/**
 * The read's failure (`failed`, if any) and the two notices of `usePageNotices`; "Ricarica" clears
 * the warning and calls `onReload`.
 */
export function PageNoticeBar({
  notices,
  failed = null,
  onReload,
}: {
  notices: PageNotices;
  failed?: NoticeMessage | null;
  onReload: () => void;
}) {
  return (
    <>
      <Notice message={failed} />
      <Notice message={notices.message} onClose={() => notices.setMessage(null)} />
      <StaleNotice
        message={notices.stale}
        onReload={() => {
          notices.clearStale();
          onReload();
        }}
      />
    </>
  );
}

/** What a list shows: null while its first read runs, empty when the read failed (the error says so). */
export function listOf<T>(query: { data?: T[]; isError: boolean }): T[] | null {
  return query.data ?? (query.isError ? [] : null);
}

/** The page's own Italian text for a read that failed, as an error notice; null otherwise. */
export function loadFailure(query: { isError: boolean }, text: string): NoticeMessage | null {
  return query.isError ? { tone: 'error', text } : null;
}
