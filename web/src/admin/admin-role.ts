import { authRoutes, type AdminRole } from '@deposito/protocol';
import { useEffect, useState } from 'react';
import { adminCall } from './admin-api';
import { adminSessionGeneration } from './admin-session';

/** The account's role as read once per session: the menu and every page ask, one request answers. */
let asked: { generation: number; role: Promise<AdminRole> } | null = null;

function roleOfSession(): Promise<AdminRole> {
  const generation = adminSessionGeneration();
  if (asked?.generation !== generation) {
    const role = adminCall(authRoutes.me, {}).then((me) => me.role);
    // A failed read is asked again next time, not remembered.
    role.catch(() => {
      if (asked?.role === role) asked = null;
    });
    asked = { generation, role };
  }
  return asked.role;
}

/**
 * The signed-in account's role, for the pages to show only what it reaches (the server refuses the
 * rest anyway). An administrator until known, or when it cannot be read.
 */
export function useAdminRole(): AdminRole {
  const [role, setRole] = useState<AdminRole>('administrator');
  useEffect(() => {
    let current = true;
    roleOfSession()
      .then((value) => {
        if (current) setRole(value);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return role;
}
