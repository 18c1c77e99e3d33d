import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import { useEffect } from 'react';
import { ErrorPage } from '../components/ErrorPage';
import { FullPageProgress } from '../components/FullPageProgress';
import { useAppNavigate } from '../hooks/useAppNavigate';
import { useProfile } from '../hooks/useProfileQuery';
import { loadPage } from '../lib/navigation';
import { type AreaId, isEntitled, isServed } from '../lib/productAreas';
import { HOME_PATH } from '../lib/redirect';

export type PortalArea = Extract<AreaId, 'compliance' | 'rfi' | 'intel-reports'>;

const portals: Record<PortalArea, { name: string; path: string }> = {
  compliance: { name: 'Compliance', path: '/compliance' },
  rfi: { name: 'My RFIs', path: '/rfi' },
  'intel-reports': { name: 'Intel Reports', path: '/cti' },
};

/**
 * /compliance, /rfi and /cti, the other products' portals. The server answers these paths with
 * a redirect to the portal when it has the portal's address, so the app shows them only when it
 * has none, or when a link inside the app led here: then the server is asked (a full page load)
 * when the user may go, and otherwise the page says why there is nothing to open.
 */
export function PortalPage({ area }: { area: PortalArea }) {
  const profile = useProfile();
  const appNavigate = useAppNavigate();
  const { name, path } = portals[area];
  const served = isServed(area, profile);
  const open = served && isEntitled(area, profile);
  useEffect(() => {
    if (open) loadPage(path);
  }, [open, path]);

  if (open) return <FullPageProgress label={`Opening ${name}`} />;
  return (
    <ErrorPage
      icon={served ? LockOutlined : LinkOffOutlined}
      title={served ? `No access to ${name}` : `${name} is not set up`}
      message={
        served
          ? `Your subscription does not include ${name}. Ask your organization's administrator if you need it.`
          : `This Sightline server is not connected to ${name}, so there is nothing to open here. Ask your administrator if you expected it.`
      }
      code={0}
      supportEmail={profile.tenant.support_email}
      action={
        <Button variant="contained" onClick={() => appNavigate(HOME_PATH)} startIcon={<DashboardOutlined />}>
          Go to the dashboard
        </Button>
      }
    />
  );
}
