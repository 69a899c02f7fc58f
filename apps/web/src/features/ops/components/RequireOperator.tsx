import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { z } from 'zod';
import { FullScreenLoader } from '../../../components/ui/FullScreenLoader';
import { ApiError } from '../../../lib/api-client';
import { useOpsMe } from '../api/auth';
import { useOpsSession } from '../api/session';
import { opsPaths } from '../paths';

/** Where the console guard sent the operator from, to return there after login. */
const opsFromState = z.object({ from: z.string() });
export type OpsFromState = z.infer<typeof opsFromState>;

/** The console page /ops/login's navigation state names, if any. */
export function opsFromOf(state: unknown): string | undefined {
  return opsFromState.safeParse(state).data?.from;
}

/**
 * The console's guard: no ops token -> /ops/login (carrying the requested page); with one, GET /my must
 * answer role OPERATOR, else the ops session ends. The member session is never looked at.
 */
export function RequireOperator() {
  const { t } = useTranslation(['ops']);
  const location = useLocation();
  const token = useOpsSession((s) => s.accessToken);
  const me = useOpsMe();
  const refused = me.data !== undefined && me.data.role !== 'OPERATOR';

  useEffect(() => {
    if (refused) useOpsSession.getState().end('forbidden');
    else if (me.error) {
      const forbidden = me.error instanceof ApiError && me.error.status === 403;
      useOpsSession.getState().end(forbidden ? 'forbidden' : 'expired');
    }
  }, [refused, me.error]);

  if (!token || me.isError || refused) {
    const state: OpsFromState = { from: `${location.pathname}${location.search}` };
    return <Navigate to={opsPaths.login} replace state={state} />;
  }
  if (!me.data) return <FullScreenLoader message={t('ops:login.checking')} />;
  return <Outlet />;
}
