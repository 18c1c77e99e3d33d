import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useProfile } from '../../hooks/useProfileQuery';
import { EmptyState } from '../EmptyState';

/** Shows its screen to tenant admins only; everyone else learns who can open it. */
export function TenantAdminOnly({ children }: { children: ReactNode }) {
  const profile = useProfile();
  if (profile.is_tenant_admin) return children;
  return (
    <Box sx={{ maxWidth: 800, mx: 'auto', px: { xs: 2, md: 4 }, py: 6 }}>
      <EmptyState icon={LockOutlined} title="For tenant administrators">
        This screen is part of the tenant portal, which only your tenant&apos;s administrators can open. Ask one of them
        if you need something changed.
      </EmptyState>
    </Box>
  );
}
