import { authRoutes, type AdminRole } from '@deposito/protocol';
import { useEffect, useState } from 'react';
import { adminCall } from './admin-api';

/**
 * The signed-in account's role, for the pages to show only what it reaches (the server refuses the
 * rest anyway). An administrator until known, or when it cannot be read.
 */
export function useAdminRole(): AdminRole {
  const [role, setRole] = useState<AdminRole>('administrator');
  useEffect(() => {
    let current = true;
    adminCall(authRoutes.me, {})
      .then((me) => {
        if (current) setRole(me.role);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return role;
}
